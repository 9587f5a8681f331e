import type { BasketLine } from '@/lib/basket';
import { formatPence } from '@/lib/format';

/** The delivery step's word on the basket's pre-order lines (docs/forward-orders.md): they
 * become a forward order of their own, carriage paid and not invoiced until its goods are
 * allocated, so the step says what today's order and the forward order each come to (the
 * server's figures), and asks whether a short
 * delivery should be backordered or cancelled. Nothing shows for a basket without any. */
export function ForwardPart({
  lines,
  forwardTotal,
  todayTotal,
  noBackorders,
  onNoBackorders,
}: {
  lines: BasketLine[];
  /** What the forward lines cost inc VAT (null: none in the basket). */
  forwardTotal: number | null;
  /** What today's order comes to inc VAT with the chosen option (the server's figure). */
  todayTotal: number;
  noBackorders: boolean;
  onNoBackorders: (on: boolean) => void;
}) {
  const forward = lines.filter((l) => l.delivery_from);
  if (forwardTotal === null || forward.length === 0) return null;
  const subject = forward.length === 1 ? 'The pre-order line becomes' : `The ${forward.length} pre-order lines become`;
  return (
    <section className="forward-part" aria-labelledby="forward-part-heading" data-forward-lines={forward.length}>
      <h2 id="forward-part-heading">Pre-order lines</h2>
      <p>
        {subject} a forward order of its own, with its own number: delivered free when the goods arrive, and not invoiced or charged until they are allocated to
        you. You can reduce or cancel a line from your dashboard until its order-by date.
      </p>
      <dl className="totals">
        {todayTotal > 0 && (
          <>
            <dt>Today&apos;s order inc VAT</dt>
            <dd data-total="today">{formatPence(todayTotal)}</dd>
          </>
        )}
        <dt>Forward order inc VAT</dt>
        <dd data-total="forward">{formatPence(forwardTotal)}</dd>
      </dl>
      <p className="checkbox-field">
        <input
          id="no-backorders"
          type="checkbox"
          checked={noBackorders}
          onChange={(e) => onNoBackorders(e.target.checked)}
          aria-describedby="no-backorders-hint"
        />{' '}
        <label htmlFor="no-backorders">No backorders</label>
        <br />
        <span id="no-backorders-hint" className="muted">
          If a delivery comes short, cancel what it cannot fill instead of keeping it on order for the next delivery.
        </span>
      </p>
    </section>
  );
}
