'use client';
import { useAccount } from '@/components/account/use-account';
import { useOwnPrice } from '@/components/basket/price';
import { rowForPacks, type BreakRow } from '@/lib/price-breaks';
import { BreakRowsTable } from './signed-out';

/** A product's quantity prices as a table: the public table at list prices in the static
 * page, the buyer's own (their group's and discounts, from POST /api/prices) once they are
 * signed in. The row the buyer's basket line is on is marked. Nothing for a product
 * without breaks. */
export function BreakTable({ sku, breaks }: { sku: string; breaks: readonly BreakRow[] }) {
  const account = useAccount();
  const signedIn = account.user !== 0;
  const own = useOwnPrice(sku);
  const rows = own ? own.breaks : signedIn ? [] : breaks;
  const inBasket = account.cart.find((l) => l.sku === sku);
  const current = inBasket ? rowForPacks(rows, inBasket.quantity / inBasket.product.pack_size) : undefined;
  return <BreakRowsTable rows={rows} own={!!own} current={current} />;
}
