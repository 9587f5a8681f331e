import { shortLineText } from '@/lib/availability';
import type { BasketLine } from '@/lib/basket';
import { formatPence } from '@/lib/format';
import { preOrderText } from '@/lib/forward';

/** The basket's lines for a last look before Place Order, short lines marked. */
export function ReviewLines({ lines }: { lines: BasketLine[] }) {
  return (
    <ul className="review-lines">
      {lines.map((l) => (
        <li key={l.sku}>
          {l.quantity} × {l.name} <span className="muted">({l.sku})</span> — {formatPence(l.line_amount)}
          {l.short && <strong className="basket-short"> {shortLineText(l.availability)}</strong>}
          {l.delivery_from && <span className="stock-preorder"> {preOrderText(l.delivery_from)}</span>}
        </li>
      ))}
    </ul>
  );
}
