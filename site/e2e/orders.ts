import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { api, belowMinimumBy, shopURL } from './browser';

// Baskets and orders the end-to-end tests make through the API, as a buyer's page does:
// each test file orders from a category no other file orders from, so the stock it reads
// stays as it expects.

/** A product's price and availability as POST /api/prices quotes them to the buyer. */
export type Priced = { pack_size: number; pack_price: number; availability?: { status: string } };

/** The in-stock products of the first 48 in a category (its path, e.g.
 * /outlet/section/mugs/801), dearest pack first, as the buyer is quoted them. */
export async function dearestInStock(p: Page, token: string, category: string): Promise<[string, Priced][]> {
  const payload = (await (await fetch(`${shopURL}${category}/_payload.json`)).json()) as { products: { sku: string }[] };
  const skus = payload.products.slice(0, 48).map((c) => c.sku);
  const { data } = await api<{ prices: Record<string, Priced> }>(p, '/api/prices', { token, skus });
  return Object.entries(data.prices)
    .filter(([, q]) => q.availability?.status === 'in_stock')
    .sort(([, a], [, b]) => b.pack_price - a.pack_price);
}

/** Adds a pack each of dear's products, in order, to the buyer's basket until it reaches
 * the minimum order with at least minLines lines (a product sold out by earlier runs is
 * passed over); answers the SKUs and units added. */
export async function fillToMinimum(p: Page, token: string, dear: [string, Priced][], minLines = 1): Promise<Map<string, number>> {
  const added = new Map<string, number>();
  let below = 1;
  for (const [sku, q] of dear) {
    const r = await api<{ error?: string }>(p, '/api/basket/add', { token, sku, quantity: q.pack_size });
    if (r.status === 409) continue; // sold out by earlier runs: the next one
    expect(r.status, r.data.error).toBe(200);
    added.set(sku, q.pack_size);
    below = await belowMinimumBy(p, token);
    if (below <= 0 && added.size >= minLines) break;
  }
  expect(below).toBeLessThanOrEqual(0);
  return added;
}

/** Fills the buyer's basket to the minimum order with a pack each of the dearest in-stock
 * products of category; answers the SKUs and units added. */
export async function fillBasketFrom(p: Page, token: string, category: string): Promise<Map<string, number>> {
  return fillToMinimum(p, token, await dearestInStock(p, token, category));
}

/** Places the buyer's basket as an order through POST /api/orders, delivered by standard
 * delivery to the billing address, with a new idempotency key; answers the API's answer
 * for the caller to check. */
export function placeBasket<T = { id: string }>(p: Page, token: string): Promise<{ status: number; data: T }> {
  return api<T>(p, '/api/orders', {
    token,
    idempotency_key: crypto.randomUUID(),
    delivery_option: 'standard',
    same_as_billing: true,
    deliver_to: null,
    delivery_note: '',
  });
}
