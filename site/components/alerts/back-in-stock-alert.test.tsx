import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { AlertsState } from '@/lib/alerts';

const s = vi.hoisted(() => ({
  user: 0 as 0 | { uid: string },
  live: undefined as { status: 'in_stock' | 'low' | 'out' | 'preorder' } | undefined,
  alerts: { status: 'ready', alerts: [] } as AlertsState,
}));
vi.mock('@/components/account/use-account', () => ({ useAccount: () => ({ status: 'ready', user: s.user }) }));
vi.mock('@/components/basket/price', () => ({ useOwnPrice: () => (s.live ? { availability: s.live } : undefined) }));
vi.mock('./use-alerts', () => ({ useAlerts: () => s.alerts }));
vi.mock('@/lib/alerts', async (real) => ({
  ...(await real<typeof import('@/lib/alerts')>()),
  askAlert: vi.fn(),
  removeAlert: vi.fn(),
  requestAlerts: vi.fn(),
}));

const { BackInStockAlert } = await import('./back-in-stock-alert');
const alert = { sku: 'GC101-00001', name: 'Robin cards', path: '/robin-cards/', created_at: 1, in_stock: false };
const render = (inStock: boolean, forward: { delivery_from: string; order_by: string } | null = null) =>
  renderToStaticMarkup(<BackInStockAlert sku="GC101-00001" name="Robin cards" inStock={inStock} forward={forward} />);

describe('the back-in-stock alert on a product page', () => {
  it('signed out (ProductActions draws signed-out.tsx in its place): out of stock, links to sign in; in stock or open for pre-order, no alert', async () => {
    const { SignedOutActions } = await import('@/components/catalogue/signed-out');
    s.user = 0;
    s.live = undefined;
    const signedOut = (inStock: boolean, forward: { delivery_from: string; order_by: string } | null = null) =>
      renderToStaticMarkup(<SignedOutActions sku="GC101-00001" packSize={6} name="Robin cards" inStock={inStock} forward={forward} prompt />);
    expect(signedOut(false)).toContain('Sign in to be emailed when it is back');
    expect(signedOut(true)).not.toContain('emailed');
    expect(signedOut(true)).toContain('to order');
    expect(signedOut(false, { delivery_from: '2099-09-01', order_by: '2099-06-30' })).not.toContain('emailed');
    expect(render(false)).toBe('');
  });

  it("signed in, follows the live stock and the buyer's alert", () => {
    s.user = { uid: 'u1' };
    s.live = { status: 'out' };
    s.alerts = { status: 'ready', alerts: [] };
    expect(render(true)).toContain('>Email me when it is back</button>');
    s.alerts = { status: 'ready', alerts: [alert] };
    const waiting = render(true);
    expect(waiting).toContain('We will email you when it is back in stock.');
    expect(waiting).toContain('aria-label="Remove alert: Robin cards"');
    s.alerts = { status: 'loading', alerts: [] };
    expect(render(true)).toContain('Checking your stock alerts…');
    s.live = { status: 'low' };
    expect(render(false)).toBe('');
  });
});
