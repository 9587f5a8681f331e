/** The back office's pages: the nav's links, and each page's heading while the page checks
 * who is signed in (the page itself draws its own once it knows). */
export const ADMIN_PAGES = [
  { href: '/admin/', label: 'Orders', heading: 'Orders', also: ['/admin/orders/'] },
  { href: '/admin/accounts/', label: 'Accounts', heading: 'Accounts', also: [] },
  { href: '/admin/coupons/', label: 'Coupons', heading: 'Coupons', also: [] },
  { href: '/admin/stock/', label: 'Stock', heading: 'Stock', also: [] },
  { href: '/admin/forward/', label: 'Forward', heading: 'Forward orders', also: [] },
  { href: '/admin/receiving/', label: 'Receiving', heading: 'Receiving deliveries', also: [] },
  { href: '/admin/catalogue/', label: 'Catalogue', heading: 'Catalogue', also: [] },
  { href: '/admin/price-groups/', label: 'Price groups', heading: 'Price groups', also: [] },
  { href: '/admin/balances/', label: 'Balances', heading: 'Balances', also: [] },
  { href: '/admin/export/', label: 'Export', heading: 'Export for the accounts package', also: [] },
  { href: '/admin/health/', label: 'Health', heading: 'Health', also: [] },
] as const;

const withSlash = (p: string) => (p.endsWith('/') ? p : `${p}/`);

/** The nav entry a path belongs to (an order's page belongs to Orders). */
export function adminPageOf(pathname: string) {
  const p = withSlash(pathname);
  return ADMIN_PAGES.find((a) => a.href === p || (a.also as readonly string[]).includes(p)) ?? ADMIN_PAGES[0];
}
