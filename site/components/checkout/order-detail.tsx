'use client';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { LoadFailed } from '@/components/errors/load-failed';
import { setCartUpdated } from '@/lib/account-store';
import { ApiError } from '@/lib/api';
import { getOrder, reorder, type Order } from '@/lib/checkout';
import { OrderView } from './order-view';

/** One order (id, from ?id= on /account/orders/) as a printable invoice, with Print and
 * Reorder. An order the account does not have is said so; any other failed load offers
 * Try again. */
export function OrderDetail({ id }: { id: string }) {
  const account = useAccount();
  const [order, setOrder] = useState<Order | null>(null);
  const [error, setError] = useState('');
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ added: string[]; unavailable: string[]; basket_full: string[] } | null>(null);
  const uid = account.user === 0 ? '' : account.user.uid;
  useEffect(() => {
    if (!uid) return;
    let live = true;
    getOrder(id)
      .then((o) => live && setOrder(o))
      .catch((err: unknown) => {
        if (!live) return;
        if (err instanceof ApiError && err.status === 404) setError(`We could not find order ${id} on your account.`);
        else setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [uid, id, attempt]);
  if (account.status === 'loading') return <p role="status">Loading your order…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (error) return <p className="form-error" role="alert">{error}</p>;
  if (failed) {
    return (
      <LoadFailed
        what={`Order ${id} could not be loaded.`}
        retry={() => {
          setFailed(false);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  if (!order) return <p role="status">Loading your order…</p>;
  async function again() {
    try {
      const r = await reorder(order!.id);
      setResult(r);
      setCartUpdated();
    } catch {
      setError('The reorder failed. Please try again.');
    }
  }
  return (
    <>
      <p className="no-print">
        <button type="button" className="button" onClick={() => window.print()}>
          Print invoice
        </button>{' '}
        <button type="button" className="button" onClick={() => void again()}>
          Reorder
        </button>
      </p>
      {result && (
        <div className="form-ok no-print" role="status">
          <p>
            {result.added.length} {result.added.length === 1 ? 'line is' : 'lines are'} back in your basket. <Link href="/checkout/basket/">View your basket</Link>.
          </p>
          {result.unavailable.length > 0 && <p>No longer available: {result.unavailable.join(', ')}.</p>}
          {(result.basket_full ?? []).length > 0 && (
            <p>
              Not added, because your basket holds the most lines it can: {result.basket_full.join(', ')}.
            </p>
          )}
        </div>
      )}
      <OrderView order={order} />
    </>
  );
}
