'use client';
import { useState } from 'react';
import Link from '@/components/app/link';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { LoadFailed } from '@/components/errors/load-failed';
import { reorder, type ReorderAnswer } from '@/lib/checkout';
import { CreditNoteView } from './credit-note-view';
import { ForwardOrderView } from './forward-order-view';
import { InvoiceDownload } from './invoice-download';
import { OrderAgain } from './order-again';
import { OrderStatus } from './order-status';
import { OrderView } from './order-view';
import { PaymentStatus } from './payment-status';
import { ReorderResult } from './reorder-result';
import { useOrder } from './use-order';

/** One order (id, from ?id= on /account/orders/): where it is (status, dispatch,
 * cancellation), its payment (with Pay now while it is owed) and refunds to the card, its
 * VAT invoice and any credit notes against it (each with its own Download PDF), with
 * Print, Download PDF (once the invoice is issued), Reorder (the whole order) and Order
 * again (the lines ticked). A forward order is its ForwardOrderView (no invoice until its
 * goods are allocated); a release names its forward order. An order the account does not
 * have is said so; any other failed load offers Try again. */
export function OrderDetail({ id }: { id: string }) {
  const account = useAccount();
  const uid = account.user === 0 ? '' : account.user.uid;
  const { order, problem, invoiceLate, paymentLate, retry } = useOrder(id, uid);
  const [error, setError] = useState('');
  const [result, setResult] = useState<ReorderAnswer | null>(null);
  if (account.status === 'loading') return <p role="status">Loading your order…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (problem === 'not-found')
    return (
      <p className="form-error" role="alert">
        We could not find order {id} on your account.
      </p>
    );
  if (error)
    return (
      <p className="form-error" role="alert">
        {error}
      </p>
    );
  if (problem === 'failed') return <LoadFailed what={`Order ${id} could not be loaded.`} retry={retry} />;
  if (!order) return <p role="status">Loading your order…</p>;
  if (order.kind === 'forward')
    return (
      <>
        <ForwardOrderView order={order} />
        <OrderAgain order={order} />
      </>
    );
  async function again() {
    try {
      setResult(await reorder(order!.id));
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
        <a href="#order-again">Choose lines to order again</a>
      </div>
      {result && (
        <div role="status">
          <ReorderResult result={result} />
        </div>
      )}
      {order.forward_of && (
        <p className="order-forward-of">
          Goods allocated to your forward order <Link href={`/account/orders/?id=${encodeURIComponent(order.forward_of)}`}>{order.forward_of}</Link>.
        </p>
      )}
      <OrderStatus order={order} />
      <PaymentStatus order={order} late={paymentLate} />
      <OrderView order={order} invoiceLate={invoiceLate} />
      {order.credit_notes.map((note) => (
        <CreditNoteView key={note.number} order={order} note={note} />
      ))}
      <OrderAgain order={order} />
    </>
  );
}
