'use client';
import Link from '@/components/app/link';
import { useEffect, useState } from 'react';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { LoadFailed } from '@/components/errors/load-failed';
import { isPaid, isProForma } from '@/lib/order-status';
import { ForwardOrderView } from './forward-order-view';
import { OrderView } from './order-view';
import { PaymentStatus } from './payment-status';
import { useOrder } from './use-order';

/** The complete page: loads the order named in the address, shows its payment (Pay now
 * where it is owed; back from the card payment page, ?paid=1, the payment being confirmed
 * until the order says paid), its VAT invoice (once issued) and says what happens next. An
 * order the account does not have is said so; any other failed load offers Try again. */
export function OrderComplete() {
  const account = useAccount();
  const uid = account.user === 0 ? '' : account.user.uid;
  // The one exported shell serves every order: the id is in the address, known only in
  // the browser.
  const [id, setId] = useState('');
  // ?paid=1: the buyer is back from the payment page, ahead (perhaps) of Stripe's word.
  const [returning, setReturning] = useState(false);
  useEffect(() => {
    setId(window.location.pathname.split('/').filter(Boolean)[2] ?? '');
    setReturning(new URLSearchParams(window.location.search).get('paid') === '1');
  }, []);
  const { order, problem, invoiceLate, paymentLate, retry } = useOrder(id, uid, { returning });
  if (account.status === 'loading') return <p role="status">Loading your order…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (problem === 'not-found')
    return (
      <p className="form-error" role="alert">
        We could not find order {id} on your account.
      </p>
    );
  if (problem === 'failed') return <LoadFailed what={`Order ${id} could not be loaded.`} retry={retry} />;
  if (!order) return <p role="status">Loading your order…</p>;
  const orderPage = `/account/orders/?id=${encodeURIComponent(order.id)}`;
  if (order.kind === 'forward')
    return (
      <>
        <p className="form-ok" role="status">
          Thank you: your forward order {order.id} is booked.
        </p>
        <ForwardOrderView order={order} />
        <h2>What happens next</h2>
        <p>
          Nothing is invoiced or charged yet. When the goods arrive we share them out fairly among the forward orders, then invoice and send what is allocated
          to you, and email you what ships and anything short. You can reduce or cancel a line from your <Link href="/account/dashboard/">dashboard</Link> until
          its order-by date.
        </p>
      </>
    );
  return (
    <>
      <p className="form-ok" role="status">
        Thank you: your order {order.id} is placed.
      </p>
      {order.companion && (
        <p className="forward-companion" data-companion={order.companion}>
          Your pre-order lines are on forward order <Link href={`/account/orders/?id=${encodeURIComponent(order.companion)}`}>{order.companion}</Link>: it is
          not invoiced or charged until its goods are allocated to you.
        </p>
      )}
      <PaymentStatus order={order} returning={returning} late={paymentLate} />
      <OrderView order={order} invoiceLate={invoiceLate} />
      <p className="no-print">
        To download this VAT invoice as a PDF, or to print it, open <Link href={orderPage}>order {order.id}</Link> in your account.
      </p>
      <h2>What happens next</h2>
      <p>
        {isProForma(order) && !isPaid(order) ? 'Once your payment reaches us we pick and pack your order' : 'We pick and pack your order'}; orders ready by 1pm
        on a working day leave the same day. You can see this order any time on your <Link href="/account/dashboard/">dashboard</Link>.
      </p>
    </>
  );
}
