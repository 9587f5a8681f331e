import Link from '@/components/app/link';
import type { ReorderAnswer } from '@/lib/checkout';

/** What a reorder did, as the order page says it: the lines back in the basket, with a link
 * to it, those no longer available and those left out because the basket is full. */
export function ReorderResult({ result }: { result: ReorderAnswer }) {
  return (
    <div className="form-ok no-print">
      <p>
        {result.added.length} {result.added.length === 1 ? 'line is' : 'lines are'} back in your basket. <Link href="/checkout/basket/">View your basket</Link>.
      </p>
      {result.unavailable.length > 0 && <p>No longer available: {result.unavailable.join(', ')}.</p>}
      {result.basket_full.length > 0 && <p>Not added, because your basket holds the most lines it can: {result.basket_full.join(', ')}.</p>}
    </div>
  );
}
