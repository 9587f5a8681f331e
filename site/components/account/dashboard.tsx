'use client';
import Link from '@/components/app/link';
import { buyerName } from '@/lib/account-store';
import { ACCOUNT_LINKS } from '@/components/layout/account-menu';
import { StockAlerts } from '@/components/alerts/stock-alerts';
import { OrderHistory } from '@/components/checkout/order-history';
import { EmailVerification } from './email-verification';
import { ForwardOrders } from './forward-orders';
import { ProfilePending } from './profile-pending';
import { SignedOutNotice } from './signed-out-notice';
import { StatementOfAccount } from './statement';
import { useAccount } from './use-account';

/** The dashboard: profile summary, active coupon, statement of account, recent orders,
 * forward orders (the buyers' book), stock alerts and links. */
export function Dashboard() {
  const account = useAccount();
  if (account.status === 'loading') return <p role="status">Loading your account…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  const p = account.profile;
  const coupon = p?.active_coupon_id ? p.active_coupon_id.replace(/^coupon-/, '') : '';
  return (
    <>
      <p className="lead">
        Welcome, <strong className="dashboard-business">{buyerName(account)}</strong>.
      </p>
      <EmailVerification uid={account.user.uid} />
      <h2>Your details</h2>
      {p ? (
        <dl className="summary-list">
          <dt>Business</dt>
          <dd>{p.business || 'Not set'}</dd>
          <dt>Email</dt>
          <dd>{p.email}</dd>
          <dt>Telephone</dt>
          <dd>{p.telephone || 'Not set'}</dd>
          <dt>Marketing emails</dt>
          <dd>{p.optInMarketing === 1 ? 'Yes' : 'No'}</dd>
          <dt>Active coupon</dt>
          <dd>{coupon || 'None'}</dd>
        </dl>
      ) : (
        <ProfilePending status={account.profileStatus} />
      )}
      <StatementOfAccount uid={account.user.uid} />
      <h2>Recent orders</h2>
      <OrderHistory uid={account.user.uid} />
      <h2>Forward orders</h2>
      <ForwardOrders uid={account.user.uid} />
      <StockAlerts />
      <h2>Your account</h2>
      <ul>
        {ACCOUNT_LINKS.filter((l) => l.label !== 'Dashboard').map((l) => (
          <li key={l.label}>
            <Link href={l.href}>{l.label}</Link>
          </li>
        ))}
      </ul>
    </>
  );
}
