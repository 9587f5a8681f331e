'use client';
import type { GridCard } from '@/lib/types';
import { keepServerHTML, useKeepServerHTML } from '@/components/app/first-hydration';
import { AddAllToBasket, PackPrice, Price, ProductActions, ProductMargin, useSignedIn } from './buyer';
import { ProductImage } from './product-image';

/** The most cards a row of the grid holds: main is at most 1,200 px wide (1,168 px inside
 * its padding) and a card at least 10.5rem (168 px) with a 1rem gap, so 6. */
export const GRID_FIRST_ROW = 6;

/** A grid of products with image, name (linking to the product page), SKU, pack size,
 * trade price ex VAT, and the RRP with the margin it leaves. A client component: a
 * prerendered page sends it the cards' few fields (gridCards) once, in the page's RSC data,
 * instead of the tree of every card's markup (docs/PERFORMANCE.md, "Lighter pages"). With
 * firstRowEager (the grid at the top of a category or range page), the first row's images
 * load at once with high priority, since one of them is the page's largest paint; every
 * other image is lazy. Card names are headings one level below the section the grid sits in
 * (h2 right under the page's h1, h3 under an h2). With order, it is an order form:
 * quantities start empty and one button adds them all. The buying controls and own prices
 * are signed-in islands (buyer.tsx): signed out, a card draws its list prices and the
 * build's stock without loading their code, and in the page's first hydration the cards are
 * not hydrated at all (components/app/first-hydration.ts). */
export function ProductGrid({
  products,
  label,
  level = 2,
  order = false,
  firstRowEager = false,
}: {
  products: GridCard[];
  label: string;
  level?: 2 | 3;
  order?: boolean;
  firstRowEager?: boolean;
}) {
  const Name = level === 2 ? 'h2' : 'h3';
  const signedIn = useSignedIn();
  // Signed out, nothing on a card needs React (the name is a plain link, the prices and
  // stock are the build's), so in the page's first hydration the cards stay the server's
  // HTML, unhydrated; a buyer's sign-in draws them in full for good (a new list, key "live"). A grid
  // with a forward product hydrates: its pre-order words follow London's date in the browser.
  const keep = useKeepServerHTML(!signedIn && !products.some((p) => p.forward));
  const grid = keep ? (
    <ul key="kept" className="grid" aria-label={label} {...keepServerHTML} />
  ) : (
    <ul key="live" className="grid" aria-label={label}>
      {products.map((p, i) => (
        <li key={p.sku} className="card" data-sku={p.sku}>
          {firstRowEager && i < GRID_FIRST_ROW ? (
            <ProductImage src={p.small_img} alt="" width={160} height={160} loading="eager" fetchPriority="high" />
          ) : (
            <ProductImage src={p.small_img} alt="" width={160} height={160} loading="lazy" decoding="async" />
          )}
          <Name className="card-name">
            <a href={p.path}>{p.name}</a>
          </Name>
          {/* One text, so the HTML holds no React text separators (<!-- -->) in it. */}
          <p className="card-meta">{`SKU ${p.sku} · Pack of ${p.pack_size}`}</p>
          <p className="card-price">
            <Price sku={p.sku} listPrice={p.unit_price} />{' '}
            <span className="muted">
              ex VAT · <PackPrice sku={p.sku} listPackPrice={p.unit_price * p.pack_size} /> a pack
            </span>
          </p>
          <ProductMargin sku={p.sku} margin={p.margin} className="card-margin muted" />
          <ProductActions sku={p.sku} packSize={p.pack_size} inStock={p.in_stock} forward={p.forward} name={p.name} inGrid={order} showStock />
        </li>
      ))}
    </ul>
  );
  if (!order) return grid;
  // Grid ordering: type quantities against several products, then add them all at once.
  return (
    <div className="grid-order">
      {grid}
      <AddAllToBasket />
    </div>
  );
}
