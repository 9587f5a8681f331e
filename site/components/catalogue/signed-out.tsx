'use client';
import Link from '@/components/app/link';
import { useAccount } from '@/components/account/use-account';
import { formatPence, unitPriceLabel } from '@/lib/format';
import { preOrderOpen, type ForwardDates as Forward } from '@/lib/forward';
import { breakRowCells, marginText, type BreakRow } from '@/lib/price-breaks';
import type { MarginAnswer } from '@/lib/api-types';
import type { StockState } from '@/lib/types';
import { PreOrderNote, usePreOrderOpen, usePreOrderText } from './pre-order-note';

// What a catalogue page shows where a signed-in buyer's controls and own prices go, before
// anyone has signed in: the list prices, the build's stock and the sign-in notes. These
// import nothing of the signed-in code (the basket, lists, alerts, own prices): a
// signed-out visitor's page loads only this, and the real components (buyer-islands.tsx)
// load once a buyer is signed in (docs/site-shell.md "Signed-in islands"). Each renders
// exactly what its signed-in counterpart renders signed out.

/** A unit price ex VAT at the list price. */
export function ListPrice({ listPrice }: { listPrice: number }) {
  return (
    <span className="price" data-pence={listPrice}>
      {unitPriceLabel(listPrice)}
    </span>
  );
}

/** A card's pack price ex VAT at the list price. */
export function ListPackPrice({ listPackPrice }: { listPackPrice: number }) {
  return (
    <span className="pack-price" data-pence={listPackPrice}>
      {formatPence(listPackPrice)}
    </span>
  );
}

/** A product's RRP and the margin it leaves at the list price; nothing without an RRP. */
export function ListMargin({ margin, className = 'product-margin' }: { margin: MarginAnswer | null | undefined; className?: string }) {
  if (!margin) return null;
  return (
    <p className={className} data-tenths={margin.tenths}>
      {marginText(margin, false)}
    </p>
  );
}

export const stockText: Record<StockState, string> = {
  'in-stock': 'In stock',
  'low-stock': 'Low stock: order soon',
  'out-of-stock': 'Out of stock',
};

/** A product page's availability as the catalogue had it when the page was built, or its
 * pre-order words while its pre-order is open. */
export function BuildStockFact({ stockState, forward = null }: { stockState: StockState; forward?: Forward | null }) {
  const pre = usePreOrderText(forward, stockState !== 'out-of-stock');
  if (pre) return <PreOrderNote lines={pre} as="dd" />;
  return <dd className={`stock stock-${stockState}`}>{stockText[stockState]}</dd>;
}

/** The public quantity prices at list prices; nothing for a product without breaks. The
 * signed-in table (break-table.tsx) draws the buyer's own rows with the same markup. */
export function BreakRowsTable({ rows, own = false, current }: { rows: readonly BreakRow[]; own?: boolean; current?: BreakRow }) {
  if (rows.length === 0) return null;
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
          const c = breakRowCells(r, own);
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

export type ActionsProps = {
  sku: string;
  packSize: number;
  inStock: boolean;
  forward?: Forward | null;
  name: string;
  inGrid?: boolean;
  prompt?: boolean;
  showStock?: boolean;
};

/** A product's buying controls signed out: a product page offers sign-in (prompt, once the
 * provider has said nobody is signed in); a grid card shows nothing, or its pre-order words
 * or "Out of stock" (showStock) as the build had it; out of stock, a product page offers
 * sign-in for the back-in-stock email. */
export function SignedOutActions({ inStock, forward = null, prompt = false, showStock = false }: ActionsProps) {
  const ready = useAccount().status === 'ready';
  const preOrder = usePreOrderOpen(forward);
  const out = !preOrder && !inStock;
  const preText = usePreOrderText(forward, !out);
  let add = null;
  if (preText && showStock) add = <PreOrderNote lines={preText} className="stock-line" />;
  else if (out) add = showStock ? <p className="stock-out">Out of stock</p> : null;
  else if (ready && prompt) {
    // Grids show one sign-in note for all their products, not one per card.
    add = (
      <p className="add-signin">
        <Link href="/account/login/">Sign in</Link> to order
      </p>
    );
  }
  const alert =
    prompt && ready && !inStock && !preOrderOpen(forward) ? (
      <p className="stock-alert">
        <Link href="/account/login/">Sign in to be emailed when it is back</Link>
      </p>
    ) : null;
  return (
    <>
      {add}
      {alert}
    </>
  );
}

/** A grid order form's note signed out, once the provider has said nobody is signed in. */
export function SignedOutAddAll() {
  return useAccount().status === 'ready' ? (
    <p className="add-signin">
      <Link href="/account/login/">Sign in</Link> to order from this page at your trade prices.
    </p>
  ) : null;
}
