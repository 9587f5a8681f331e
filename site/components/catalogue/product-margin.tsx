'use client';
import { useAccount } from '@/components/account/use-account';
import { useOwnPrice } from '@/components/basket/price';
import type { MarginAnswer } from '@/lib/api-types';
import { marginText } from '@/lib/price-breaks';

/** A product's RRP and the margin it leaves: at the list price in the static page, at the
 * buyer's own price of one pack once they are signed in and it has arrived (POST
 * /api/prices). Nothing for a product without an RRP. */
export function ProductMargin({ sku, margin, className = 'product-margin' }: { sku: string; margin: MarginAnswer | null | undefined; className?: string }) {
  const signedIn = useAccount().user !== 0;
  const own = useOwnPrice(sku);
  // Signed in, the list price's margin would be the wrong one: wait for the buyer's own,
  // holding its line's place (the same words with the list figure, unseen and unread) so
  // nothing below it moves when it arrives.
  if (signedIn && !own) {
    if (!margin) return null;
    return (
      <p className={className} aria-hidden="true" style={{ visibility: 'hidden' }}>
        {marginText(margin, true)}
      </p>
    );
  }
  const shown = own ? own.margin : margin;
  if (!shown) return null;
  return (
    <p className={className} data-tenths={shown.tenths}>
      {marginText(shown, !!own)}
    </p>
  );
}
