import type { Order } from '@/lib/checkout';
import { cardRefundLine, paymentLine } from '@/lib/payment-line';
import { PayNow } from './pay-now';

/** The buyer's payment line (lib/payment-line.ts): paid, awaiting payment, being confirmed,
 * failed (with Stripe's reason) or not finished, with Pay now where the server offers it,
 * and each refund to the card with where it is. The line is a live region: it changes while
 * the page waits for Stripe's word. */
export function PaymentStatus({ order: o, returning = false, late = false }: { order: Order; returning?: boolean; late?: boolean }) {
  const line = paymentLine(o, { returning, late });
  const refunds = o.payment?.card_refunds ?? [];
  if (!line && !refunds.length) return null;
  return (
    <div className="order-payment">
      {line && (
        <p className={`payment-state payment-${line.kind}`} role="status">
          {line.text}
        </p>
      )}
      {line?.payNow && (
        <div className="no-print">
          <PayNow orderId={o.id} />
        </div>
      )}
      {refunds.length > 0 && (
        <ul className="card-refunds">
          {refunds.map((r) => (
            <li key={r.id} className={`card-refund card-refund-${r.status}`}>
              {cardRefundLine(r)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
