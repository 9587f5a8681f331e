'use client';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { getOrder, type Order } from '@/lib/checkout';
import { OrderView } from './order-view';

/** The complete page: loads the order named in the address and says what happens next. */
export function OrderComplete() {
  const account = useAccount();
  const [order, setOrder] = useState<Order | null>(null);
  const [error, setError] = useState('');
  const uid = account.user === 0 ? '' : account.user.uid;
  useEffect(() => {
    if (!uid) return;
    const id = window.location.pathname.split('/').filter(Boolean)[2] ?? '';
    getOrder(id).then(setOrder).catch(() => setError(`We could not find order ${id} on your account.`));
  }, [uid]);
  if (account.status === 'loading') return <p role="status">Loading your order…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (error) return <p className="form-error" role="alert">{error}</p>;
  if (!order) return <p role="status">Loading your order…</p>;
  return (
    <>
      <p className="form-ok" role="status">
        Thank you: your order {order.id} is placed.
      </p>
      <OrderView order={order} />
      <h2>What happens next</h2>
      <p>
        {order.billing?.payment_method === 'proforma' ? 'Once your payment reaches us we pick and pack your order' : 'We pick and pack your order'}; orders ready by 1pm on a working day leave the same day. You can see this order any time on your <Link href="/account/dashboard/">dashboard</Link>.
      </p>
    </>
  );
}
