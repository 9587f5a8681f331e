import type { Order } from '@/lib/checkout';
import { formatUkDate } from '@/lib/format';
import { isCancelled, statusWord } from '@/lib/order-status';

/** Where the buyer's order is: its status in words; once dispatched, when and how (carrier
 * and tracking reference); a cancelled order says so plainly, with the date and the reason
 * given. An order answered before the back office carries only its status. */
export function OrderStatus({ order: o }: { order: Order }) {
  if (isCancelled(o.status)) {
    return (
      <div className="order-status order-cancelled no-print" role="status">
        <p>
          <strong>This order has been cancelled{o.cancelled_at ? ` (${formatUkDate(o.cancelled_at)})` : ''}.</strong> Nothing will be sent.
        </p>
        {o.cancel_reason && <p>Reason: {o.cancel_reason}</p>}
      </div>
    );
  }
  const word = statusWord(o.status);
  return (
    <div className="order-status no-print">
      <p>
        Status: <span className={`status status-${word.toLowerCase()}`}>{word}</span>
        {o.status === 'confirmed' && o.confirmed_at ? `, ${formatUkDate(o.confirmed_at)}` : ''}
        {o.status === 'completed' && o.completed_at ? `, ${formatUkDate(o.completed_at)}` : ''}
      </p>
      {o.dispatch && (
        <p className="order-dispatch">
          Dispatched{o.dispatched_at ? ` on ${formatUkDate(o.dispatched_at)}` : ''} by {o.dispatch.carrier}, tracking reference{' '}
          <strong className="tracking">{o.dispatch.tracking}</strong>.
        </p>
      )}
    </div>
  );
}
