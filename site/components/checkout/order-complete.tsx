'use client';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { LoadFailed } from '@/components/errors/load-failed';
import { ApiError } from '@/lib/api';
import { getOrder, type Order } from '@/lib/checkout';
import { OrderView } from './order-view';

/** The complete page: loads the order named in the address and says what happens next. An
 * order the account does not have is said so; any other failed load offers Try again. */
export function OrderComplete() {
  const account = useAccount();
  const [order, setOrder] = useState<Order | null>(null);
  const [error, setError] = useState('');
  const [failed, setFailed] = useState('');
  const [attempt, setAttempt] = useState(0);
  const uid = account.user === 0 ? '' : account.user.uid;
  useEffect(() => {
    if (!uid) return;
    let live = true;
    const id = window.location.pathname.split('/').filter(Boolean)[2] ?? '';
    getOrder(id)
      .then((o) => live && setOrder(o))
      .catch((err: unknown) => {
        if (!live) return;
        if (err instanceof ApiError && err.status === 404) setError(`We could not find order ${id} on your account.`);
        else setFailed(`Order ${id} could not be loaded.`);
      });
    return () => {
      live = false;
    };
  }, [uid, attempt]);
  if (account.status === 'loading') return <p role="status">Loading your order…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (error) return <p className="form-error" role="alert">{error}</p>;
  if (failed) {
    return (
      <LoadFailed
        what={failed}
        retry={() => {
          setFailed('');
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
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
