'use client';
import { useSearchParams } from 'next/navigation';
import { OrderDetail } from '@/components/checkout/order-detail';
import { OrderHistory } from '@/components/checkout/order-history';
import { SignedOutNotice } from './signed-out-notice';
import { useAccount } from './use-account';

/** /account/orders/: the order named by ?id= as an invoice, or without an id the buyer's
 * order history. */
export function AccountOrders() {
  const id = useSearchParams().get('id') ?? '';
  const account = useAccount();
  if (id) {
    return (
      <>
        <h1>Your order</h1>
        <OrderDetail key={id} id={id} />
      </>
    );
  }
  let body;
  if (account.status === 'loading') body = <p role="status">Loading your orders…</p>;
  else if (account.user === 0) body = <SignedOutNotice />;
  else body = <OrderHistory uid={account.user.uid} />;
  return (
    <>
      <h1>Your orders</h1>
      {body}
    </>
  );
}
