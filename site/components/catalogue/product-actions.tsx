'use client';
import { AddToBasket } from '@/components/basket/add-to-basket';
import { AddToList } from '@/components/lists/add-to-list';

type Props = Parameters<typeof AddToBasket>[0];

/** A product's buying controls on a product page or a grid card: Add to basket, and Add to
 * list for a signed-in buyer. One client component for both, so a static page carries each
 * product's facts once. */
export function ProductActions(props: Props) {
  return (
    <>
      <AddToBasket {...props} />
      <AddToList sku={props.sku} packSize={props.packSize} name={props.name} />
    </>
  );
}
