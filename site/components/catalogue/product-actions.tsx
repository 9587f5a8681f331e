'use client';
import { BackInStockAlert } from '@/components/alerts/back-in-stock-alert';
import { AddToBasket } from '@/components/basket/add-to-basket';
import { AddToList } from '@/components/lists/add-to-list';

import { useAccount } from '@/components/account/use-account';
import { SignedOutActions, type ActionsProps } from './signed-out';

/** A product's buying controls on a product page or a grid card: Add to basket, Add to
 * list for a signed-in buyer and, on a product page (prompt) out of stock, the
 * back-in-stock alert. One client component for both, so a static page carries each
 * product's facts once. */
export function ProductActions(props: ActionsProps) {
  if (useAccount().user === 0) return <SignedOutActions {...props} />;
  return (
    <>
      <AddToBasket {...props} />
      <AddToList sku={props.sku} packSize={props.packSize} name={props.name} />
      {props.prompt && <BackInStockAlert sku={props.sku} name={props.name} inStock={props.inStock} forward={props.forward} />}
    </>
  );
}
