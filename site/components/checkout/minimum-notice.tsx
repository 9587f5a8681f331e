import Link from '@/components/app/link';
import { formatPence } from '@/lib/format';

/** The id Place Order is described by while the basket is below the minimum. */
export const MINIMUM_NOTICE_ID = 'minimum-notice';

/** Says at once, on a checkout step, that the basket is below the minimum order and by
 * how much (the server's figures), with the way back to the basket. Nothing at or over. */
export function MinimumNotice({ minimum, short }: { minimum: number; short: number }) {
  if (short <= 0) return null;
  return (
    <p id={MINIMUM_NOTICE_ID} className="nudge minimum-notice" role="alert">
      Your basket is {formatPence(short)} below the minimum order of {formatPence(minimum)} ex VAT. <Link href="/checkout/basket/">Back to your basket</Link> to
      add more.
    </p>
  );
}
