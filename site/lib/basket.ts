import { idToken, setCartUpdated } from './account-store';
import { apiFetch } from './api';
import type { BasketAnswer as Basket, BasketLine, ChangeAnswer as BasketChange, CouponAnswer, UnixMillis } from './api-types';
import { formatPence } from './format';

/** The full basket with totals and nudges, and one of its priced lines (POST /api/basket;
 * docs/api.md "Basket"): unit_price is the line's price after its price group, quantity
 * break and discount (docs/pricing.md), line_amount quantity × unit_price, short a line
 * asking for more than is in stock. */
export type { BasketAnswer as Basket, BasketLine } from './api-types';

/** What an add answers (POST /api/basket/add, /api/basket/addMany): the lines it added to,
 * each with the units it holds now, and how many lines the basket holds. Not the priced
 * basket: no page that adds shows it (the basket page and the header read it themselves). */
export type { ChangeAnswer as BasketChange } from './api-types';

/** The basket's lines that ask for more than is in stock (the server's short flag). */
export const shortLines = (b: Basket) => b.lines.filter((l) => l.short);

/** Why the basket cannot go on to the order while lines are short, or '' when none is. */
export function shortReason(b: Basket): string {
  const n = shortLines(b).length;
  if (n === 0) return '';
  return n === 1
    ? 'One line asks for more than we have in stock: reduce or remove the line marked above to continue.'
    : `${n} lines ask for more than we have in stock: reduce or remove the lines marked above to continue.`;
}

/** What a packs box needs of a line: a basket's, or a saved list's. */
export type PacksLine = Pick<BasketLine, 'sku' | 'quantity' | 'pack_size'>;

/** A line's quantity as a packs box shows it (the basket page's, a saved list's). */
export const packsOf = (l: PacksLine) => String(l.quantity / l.pack_size);

/** The packs boxes of a page of lines (the basket page, a saved list) once it shows `next`:
 * each box shows its line's packs, except a box the buyer changed since `shown` was on
 * screen and has not submitted yet, which keeps what was typed. `submitted` is the line
 * just updated. */
export function packsBoxes(
  shown: { lines: PacksLine[] } | null,
  next: { lines: PacksLine[] },
  typed: Record<string, string>,
  submitted?: string,
): Record<string, string> {
  return Object.fromEntries(
    next.lines.map((l) => {
      const was = shown?.lines.find((x) => x.sku === l.sku);
      const edited = was && l.sku !== submitted && typed[l.sku] !== undefined && typed[l.sku] !== packsOf(was);
      return [l.sku, edited ? typed[l.sku]! : packsOf(l)];
    }),
  );
}

/** What is wrong with a packs box's text, as the shop says it beside the box, or '' when
 * it is a whole number of packs (0 removes the line). */
export function packsProblem(typed: string): string {
  const t = typed.trim();
  if (t === '') return 'Enter a number of packs (0 removes the line).';
  const n = Number(t);
  if (!Number.isFinite(n)) return `${t} is not a number of packs. Enter a whole number (0 removes the line).`;
  if (n < 0) return 'Enter 0 or more packs (0 removes the line).';
  if (!Number.isInteger(n)) return `${t} is not a whole number of packs. Enter a whole number (0 removes the line).`;
  return '';
}

/** The widget shows at most this many lines. */
export const WIDGET_LINES = 10;

export async function getBasket(): Promise<Basket> {
  return apiFetch<Basket>('/api/basket', { body: { token: await idToken() }, reportAs: 'basket' });
}

/** Adds whole packs of a product; the basket widget reloads. */
export async function addToBasket(sku: string, units: number): Promise<BasketChange> {
  const c = await apiFetch<BasketChange>('/api/basket/add', { csrf: true, body: { token: await idToken(), sku, quantity: units } });
  setCartUpdated();
  return c;
}

/** Sets a line's units (0 removes it); the basket widget reloads. */
export async function setLine(sku: string, units: number): Promise<Basket> {
  const b = await apiFetch<Basket>('/api/basket/set', { csrf: true, body: { token: await idToken(), sku, quantity: units } });
  setCartUpdated();
  return b;
}

/** Adds several products in one all-or-nothing request; the basket widget reloads. */
export async function addManyToBasket(lines: { sku: string; quantity: number }[]): Promise<BasketChange> {
  const c = await apiFetch<BasketChange>('/api/basket/addMany', { csrf: true, body: { token: await idToken(), lines } });
  setCartUpdated();
  return c;
}

export async function removeLine(sku: string): Promise<Basket> {
  const b = await apiFetch<Basket>('/api/basket/remove', { csrf: true, body: { token: await idToken(), sku } });
  setCartUpdated();
  return b;
}

/** Makes code the account's coupon ("" clears it); ids travel without "coupon-". */
export async function applyCoupon(code: string): Promise<void> {
  await apiFetch('/api/updateCoupon', {
    csrf: true,
    body: {
      token: await idToken(),
      active_coupon_id: code
        .trim()
        .toUpperCase()
        .replace(/^COUPON-/, ''),
    },
  });
}

/** A coupon's terms as POST /api/getCoupon answers them: kind "percent" or "fixed",
 * amounts in pence ex VAT, valid_to the moment (Unix ms) it stops working. */
export type { CouponAnswer } from './api-types';

/** The terms of a coupon (its holder may use it), from POST /api/getCoupon. */
export async function getCoupon(code: string): Promise<CouponAnswer> {
  return apiFetch<CouponAnswer>('/api/getCoupon', { body: { token: await idToken(), active_coupon_id: code } });
}

const londonDate = (d: Date) => d.toLocaleDateString('en-GB', { timeZone: 'Europe/London', day: 'numeric', month: 'long', year: 'numeric' });
const londonTime = (d: Date) => d.toLocaleTimeString('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });

/** The last moment a coupon works, as a buyer reads it: "the end of 31 December 2027"
 * for a coupon that stops at midnight (UK time), else "14:30 on 5 March 2027". */
export function validUntil(validTo: UnixMillis): string {
  const end = new Date(validTo);
  if (londonTime(end) === '00:00') return `the end of ${londonDate(new Date(end.getTime() - 1))}`;
  return `${londonTime(end)} on ${londonDate(end)}`;
}

/** A coupon's terms as one sentence: "Terms: £5.00 off orders of £50.00 or more ex VAT,
 * valid until the end of 31 December 2027." The amounts are the server's, only formatted. */
export function couponTerms(c: CouponAnswer): string {
  const off = c.kind === 'fixed' ? `${formatPence(c.amount ?? 0)} off` : `${c.percent ?? 0}% off`;
  const what = c.min_spend ? `${c.kind === 'fixed' ? '' : 'goods on '}orders of ${formatPence(c.min_spend)} or more ex VAT` : 'goods';
  const until = c.valid_to ? `, valid until ${validUntil(c.valid_to)}` : '';
  return `Terms: ${off} ${what}${until}.`;
}
