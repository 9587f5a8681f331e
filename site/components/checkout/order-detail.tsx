'use client';
import Link from 'next/link';
import { useState } from 'react';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { LoadFailed } from '@/components/errors/load-failed';
import { setCartUpdated } from '@/lib/account-store';
import { reorder } from '@/lib/checkout';
import { InvoiceDownload } from './invoice-download';
import { OrderStatus } from './order-status';
import { OrderView } from './order-view';
import { useOrder } from './use-order';

/** One order (id, from ?id= on /account/orders/): where it is (status, dispatch,
 * cancellation) and its VAT invoice, with Print, Download PDF (once the invoice is issued)
 * and Reorder. An order the account does not have is said
 * so; any other failed load offers Try again. */
export function OrderDetail({ id }: { id: string }) {
  const account = useAccount();
  const uid = account.user === 0 ? '' : account.user.uid;
  const { order, problem, invoiceLate, retry } = useOrder(id, uid);
  const [error, setError] = useState('');
  const [result, setResult] = useState<{ added: string[]; unavailable: string[]; basket_full: string[] } | null>(null);
  if (account.status === 'loading') return <p role="status">Loading your order…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (problem === 'not-found') return <p className="form-error" role="alert">We could not find order {id} on your account.</p>;
  if (error) return <p className="form-error" role="alert">{error}</p>;
  if (problem === 'failed') return <LoadFailed what={`Order ${id} could not be loaded.`} retry={retry} />;
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
      <div className="order-actions no-print">
        <button type="button" className="button" onClick={() => window.print()}>
          Print invoice
        </button>
        {order.invoice && <InvoiceDownload order={order} />}
        <button type="button" className="button" onClick={() => void again()}>
          Reorder
        </button>
      </div>
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
      <OrderStatus order={order} />
      <OrderView order={order} invoiceLate={invoiceLate} />
    </>
  );
}
