'use client';
import { useAccount } from '@/components/account/use-account';
import { useOwnPrice } from '@/components/basket/price';
import { breakRowCells, rowForPacks, type BreakRow } from '@/lib/price-breaks';

/** A product's quantity prices as a table: the public table at list prices in the static
 * page, the buyer's own (their group's and discounts, from POST /api/prices) once they are
 * signed in. The row the buyer's basket line is on is marked. Nothing for a product
 * without breaks. */
export function BreakTable({ sku, breaks }: { sku: string; breaks: readonly BreakRow[] }) {
  const account = useAccount();
  const signedIn = account.user !== 0;
  const own = useOwnPrice(sku);
  const rows = own ? own.breaks : signedIn ? [] : breaks;
  if (rows.length === 0) return null;
  const inBasket = account.cart.find((l) => l.sku === sku);
  const current = inBasket ? rowForPacks(rows, inBasket.quantity / inBasket.product.pack_size) : undefined;
  const margins = rows.some((r) => r.margin);
  return (
    <table className="break-table">
      <caption>Quantity prices{own ? ': your prices' : ''}</caption>
      <thead>
        <tr>
          <th scope="col">Packs</th>
          <th scope="col">Unit price ex VAT</th>
          <th scope="col">Pack price ex VAT</th>
          {margins && <th scope="col">Margin at RRP</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const c = breakRowCells(r, !!own);
          const here = r === current;
          return (
            <tr key={r.from_packs} className={here ? 'break-current' : undefined} aria-current={here || undefined} data-from={r.from_packs}>
              <th scope="row">
                {c.packs}
                {here && <span className="muted"> (your basket)</span>}
              </th>
              <td>{c.each}</td>
              <td>{c.pack}</td>
              {margins && <td>{c.margin}</td>}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
