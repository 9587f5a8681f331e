'use client';
import { useEffect, useSyncExternalStore } from 'react';
import { useAccount } from '@/components/account/use-account';
import { formatPence, unitPriceLabel } from '@/lib/format';
import { ListPackPrice, ListPrice } from '@/components/catalogue/signed-out';
import { ownPrice, requestOwnPrice, subscribeOwnPrices, type OwnPrice } from '@/lib/own-prices';

/** The buyer's own prices of a product (POST /api/prices), with its availability, once
 * they are signed in and they have arrived; undefined before, and signed out. */
export function useOwnPrice(sku: string): OwnPrice | undefined {
  const account = useAccount();
  const signedIn = account.user !== 0;
  useEffect(() => {
    if (signedIn) requestOwnPrice(sku);
  }, [signedIn, sku]);
  return useSyncExternalStore(
    subscribeOwnPrices,
    () => (signedIn ? ownPrice(sku) : undefined),
    () => undefined,
  );
}

/** What a buyer's discount is taken off, when it is not the list price: their price
 * group's own price ("3% off your group price £0.40"). */
const discountText = (own: OwnPrice) =>
  own.discount_percent > 0
    ? `, ${own.discount_percent}% off${own.base_price !== own.list_price ? ` your group price ${formatPence(own.base_price)}` : ''}`
    : '';

/** Whether a buyer's own price of one pack differs from the list price: a discount, or
 * their price group's own price. */
const ownDiffers = (own: OwnPrice | undefined): own is OwnPrice => !!own && (own.discount_percent !== 0 || own.unit_price !== own.list_price);

/** A unit price ex VAT: the list price in the static page, switched to the buyer's own
 * price (from POST /api/prices) once they are signed in and it differs (a discount, or
 * their price group's price). */
export function Price({ sku, listPrice }: { sku: string; listPrice: number }) {
  const own = useOwnPrice(sku);
  if (!ownDiffers(own)) return <ListPrice listPrice={listPrice} />;
  return (
    <>
      <span className="price own-price" data-pence={own.unit_price}>
        {unitPriceLabel(own.unit_price)}
      </span>{' '}
      <span className="muted">
        your price{discountText(own)} <s>{formatPence(listPrice)}</s>
      </span>
    </>
  );
}

/** A card's pack price ex VAT: the list pack price in the static page, the buyer's own
 * (the server's pack size × their unit price) once it has arrived. */
export function PackPrice({ sku, listPackPrice }: { sku: string; listPackPrice: number }) {
  const own = useOwnPrice(sku);
  return <ListPackPrice listPackPrice={own ? own.pack_price : listPackPrice} />;
}

/** A product page's "Your pack price" fact, for a signed-in buyer whose price differs. */
export function OwnPackPrice({ sku }: { sku: string }) {
  const own = useOwnPrice(sku);
  if (!ownDiffers(own)) return null;
  return (
    <>
      <dt>Your pack price</dt>
      <dd className="own-pack-price" data-pence={own.pack_price}>
        {formatPence(own.pack_price)} ex VAT ({formatPence(own.pack_price_inc_vat)} inc VAT)
        {discountText(own)}
      </dd>
    </>
  );
}
