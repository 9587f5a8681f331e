import { idToken, setCartUpdated } from './account-store';
import { apiFetch } from './api';

/** One priced line of POST /api/basket (pence). */
export interface BasketLine {
  id: string;
  sku: string;
  name: string;
  path: string;
  small_img: string;
  pack_size: number;
  quantity: number;
  unit_price: number;
  discount_percent: number;
  line_amount: number;
  vat_rate: number;
  vat: number;
  in_stock: boolean;
}

/** The full basket with totals and nudges (pence). */
export interface Basket {
  lines: BasketLine[];
  goods_ex_vat: number;
  coupon_discount: number;
  net_ex_vat: number;
  vat: number;
  total_inc_vat: number;
  coupon: { id: string; description: string; error?: string } | null;
  minimum_order: number;
  below_minimum_by: number;
  free_delivery_threshold: number;
  free_delivery_in: number;
}

/** A line's quantity as the basket page's packs box shows it. */
const packsOf = (l: BasketLine) => String(l.quantity / l.pack_size);

/** The basket page's packs boxes once it shows the basket `next`: each box shows its
 * line's packs, except a box the buyer changed since `shown` was on screen and has not
 * submitted yet, which keeps what was typed. `submitted` is the line just updated. */
export function packsBoxes(shown: Basket | null, next: Basket, typed: Record<string, string>, submitted?: string): Record<string, string> {
  return Object.fromEntries(
    next.lines.map((l) => {
      const was = shown?.lines.find((x) => x.sku === l.sku);
      const edited = was && l.sku !== submitted && typed[l.sku] !== undefined && typed[l.sku] !== packsOf(was);
      return [l.sku, edited ? typed[l.sku]! : packsOf(l)];
    }),
  );
}

/** The widget shows at most this many lines. */
export const WIDGET_LINES = 10;

export async function getBasket(): Promise<Basket> {
  return apiFetch<Basket>('/api/basket', { body: { token: await idToken() } });
}

/** Adds whole packs of a product; the basket widget reloads. */
export async function addToBasket(sku: string, units: number): Promise<Basket> {
  const b = await apiFetch<Basket>('/api/basket/add', { csrf: true, body: { token: await idToken(), sku, quantity: units } });
  setCartUpdated();
  return b;
}

/** Sets a line's units (0 removes it); the basket widget reloads. */
export async function setLine(sku: string, units: number): Promise<Basket> {
  const b = await apiFetch<Basket>('/api/basket/set', { csrf: true, body: { token: await idToken(), sku, quantity: units } });
  setCartUpdated();
  return b;
}

/** Adds several products in one all-or-nothing request; the basket widget reloads. */
export async function addManyToBasket(lines: { sku: string; quantity: number }[]): Promise<Basket> {
  const b = await apiFetch<Basket>('/api/basket/addMany', { csrf: true, body: { token: await idToken(), lines } });
  setCartUpdated();
  return b;
}

export async function removeLine(sku: string): Promise<Basket> {
  const b = await apiFetch<Basket>('/api/basket/remove', { csrf: true, body: { token: await idToken(), sku } });
  setCartUpdated();
  return b;
}

/** Makes code the account's coupon ("" clears it); ids travel without "coupon-". */
export async function applyCoupon(code: string): Promise<void> {
  await apiFetch('/api/updateCoupon', { csrf: true, body: { token: await idToken(), active_coupon_id: code.trim().toUpperCase().replace(/^COUPON-/, '') } });
}
