'use client';
import Link from '@/components/app/link';
import { usePathname } from 'next/navigation';
import { useAccount } from '@/components/account/use-account';
import { buyerName, showViewYourBasket } from '@/lib/account-store';

/** The signed-in account links, for the account menu and the dashboard. */
export const ACCOUNT_LINKS = [
  { href: '/account/dashboard/', label: 'Dashboard' },
  { href: '/account/change_email/', label: 'Update Your Details' },
  { href: '/checkout/basket/', label: 'View Basket' },
  { href: '/account/quick-order/', label: 'Quick Order' },
  { href: '/account/recommended/', label: 'Recommended Products' },
  { href: '/account/lists/', label: 'Saved Lists' },
  { href: '/account/logout/', label: 'Sign Out' },
];

/** The account menu. Signed out (and, on a browser with no sign-in hint, before the SDK
 * has answered): Register and Sign In. Signed in: Dashboard, Update
 * Your Details, View Basket, Quick Order, Recommended Products, Saved Lists and Sign Out, plus View Your Basket
 * when the basket has lines or the buyer is in checkout (docs/accounts.md). */
export function AccountMenu() {
  const account = useAccount();
  const pathname = usePathname();
  if (account.user === 0) {
    // Until the sign-in SDK has answered (status 'loading'), the links are prerendered and
    // shown at once; a browser with the sign-in hint keeps them hidden in their place
    // (lib/signin-hint.ts), so a returning buyer does not see them flash.
    return (
      <ul className={account.status === 'loading' ? 'account-menu account-menu-pending' : 'account-menu'} aria-label="Account">
        <li>
          <Link href="/account/register/">Register</Link>
        </li>
        <li>
          <Link href="/account/login/">Sign In</Link>
        </li>
      </ul>
    );
  }
  const name = buyerName(account);
  return (
    <details className="account-menu account-menu-signed-in" key={pathname}>
      <summary>
        <span className="sr-only">Account menu for </span>
        {name}
      </summary>
      <ul aria-label="Account">
        {showViewYourBasket(account, pathname) && (
          <li className="view-your-basket">
            <Link href="/checkout/basket/">View Your Basket</Link>
          </li>
        )}
        {ACCOUNT_LINKS.map((l) => (
          <li key={l.label}>
            <Link href={l.href}>{l.label}</Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
