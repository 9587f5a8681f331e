import Link from '@/components/app/link';
import { shortReason, type Basket } from '@/lib/basket';
import { formatPence } from '@/lib/format';

/** Below the basket's totals: the free-delivery and minimum-order nudges, why short lines
 * hold the order up, and Continue to billing, disabled (and described by those reasons)
 * while the basket is below the minimum or short. */
export function ContinueToBilling({ basket }: { basket: Basket }) {
  const short = shortReason(basket);
  const belowMinimum = basket.below_minimum_by > 0;
  return (
    <>
      {basket.free_delivery_in > 0 ? (
        <p className="nudge">Add {formatPence(basket.free_delivery_in)} more (ex VAT) for free standard delivery.</p>
      ) : (
        <p className="nudge">Your order qualifies for free standard delivery.</p>
      )}
      {belowMinimum && (
        <p id="minimum-reason" className="nudge">
          The minimum order is {formatPence(basket.minimum_order)} ex VAT: add {formatPence(basket.below_minimum_by)} more to continue.
        </p>
      )}
      {short && (
        <p id="short-reason" className="nudge basket-short" role="alert">
          {short}
        </p>
      )}
      {belowMinimum || short ? (
        <button
          type="button"
          className="button"
          disabled
          aria-describedby={[belowMinimum && 'minimum-reason', short && 'short-reason'].filter(Boolean).join(' ')}
        >
          Continue to billing
        </button>
      ) : (
        <Link href="/checkout/billing/" className="button">
          Continue to billing
        </Link>
      )}
    </>
  );
}
