'use client';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { setCartUpdated } from '@/lib/account-store';
import { getOrder, reorder, type Order } from '@/lib/checkout';
import { OrderView } from './order-view';

/** One order as a printable invoice, with Print and Reorder. */
export function OrderDetail() {
  const account = useAccount();
  const id = useSearchParams().get('id') ?? '';
  const [order, setOrder] = useState<Order | null>(null);
  const [error, setError] = useState('');
  const [result, setResult] = useState<{ added: string[]; unavailable: string[] } | null>(null);
  const uid = account.user === 0 ? '' : account.user.uid;
  useEffect(() => {
    if (!uid || !id) return;
    getOrder(id).then(setOrder).catch(() => setError(`We could not find order ${id} on your account.`));
  }, [uid, id]);
  if (account.status === 'loading') return <p role="status">Loading your order…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (error || !id) return <p className="form-error" role="alert">{error || 'No order was named.'}</p>;
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
        </div>
      )}
      <OrderView order={order} />
    </>
  );
}
