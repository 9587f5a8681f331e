'use client';
import { useEffect, useSyncExternalStore } from 'react';
import { useAccount } from '@/components/account/use-account';
import { formatPence, unitPriceLabel } from '@/lib/format';
import { ownPrice, requestOwnPrice, subscribeOwnPrices } from '@/lib/own-prices';

/** A unit price ex VAT: the list price in the static page, switched to the buyer's own
 * price (from POST /api/prices) once they are signed in and a discount applies. */
export function Price({ sku, listPrice }: { sku: string; listPrice: number }) {
  const account = useAccount();
  const signedIn = account.user !== 0;
  useEffect(() => {
    if (signedIn) requestOwnPrice(sku);
  }, [signedIn, sku]);
  const own = useSyncExternalStore(subscribeOwnPrices, () => (signedIn ? ownPrice(sku) : undefined), () => undefined);
  if (!own || own.discount_percent === 0) {
    return (
      <span className="price" data-pence={listPrice}>
        {unitPriceLabel(listPrice)}
      </span>
    );
  }
  return (
    <>
      <span className="price own-price" data-pence={own.unit_price}>
        {unitPriceLabel(own.unit_price)}
      </span>{' '}
      <span className="muted">
        your price, {own.discount_percent}% off <s>{formatPence(listPrice)}</s>
      </span>
    </>
  );
}
