import { idToken } from './account-store';
import { apiFetch } from './api';

export interface Address {
  line1: string;
  line2: string;
  town: string;
  postcode: string;
}

export interface Billing {
  company: string;
  contact: string;
  address: Address;
  vat_number: string;
  po_ref: string;
  payment_method: 'account' | 'proforma';
}

/** A delivery option with the server's quote of the whole order sent that way (pence):
 * the browser shows these figures and computes none. */
export interface DeliveryOption {
  id: string;
  name: string;
  /** Free for this basket (the charge is then 0). */
  free: boolean;
  charge_ex_vat: number;
  charge_vat: number;
  /** Goods less coupon plus the charge, ex VAT; VAT of all of it; and the two together. */
  net_ex_vat: number;
  vat: number;
  total_inc_vat: number;
}

/** POST /api/checkout: the buyer's billing details and a quote per delivery option. */
export interface CheckoutInfo {
  billing: Billing | null;
  approved_for_credit: boolean;
  delivery_options: DeliveryOption[];
  free_delivery_threshold: number;
  /** The minimum order (pence ex VAT), and how far the basket is below it (0 at or over). */
  minimum_order: number;
  below_minimum_by: number;
  goods_ex_vat: number;
  coupon_discount: number;
}

export interface OrderLine {
  sku: string;
  name: string;
  pack_size: number;
  quantity: number;
  /** The catalogue's unit price when the order was placed. */
  list_price: number;
  discount_percent: number;
  /** The unit price charged: line_amount is quantity × this. */
  unit_price: number;
  line_amount: number;
  vat_rate: number;
  vat: number;
}

export interface Order {
  id: string;
  placed_at: number;
  lines: OrderLine[];
  goods_ex_vat: number;
  coupon_id?: string;
  coupon_discount: number;
  delivery_charge: number;
  delivery_option: string;
  net_ex_vat: number;
  vat: number;
  total_inc_vat: number;
  status: string;
  billing?: Billing;
  deliver_to?: Address;
  delivery_note?: string;
}

export const emptyAddress = (): Address => ({ line1: '', line2: '', town: '', postcode: '' });

export async function checkoutInfo(): Promise<CheckoutInfo> {
  return apiFetch<CheckoutInfo>('/api/checkout', { body: { token: await idToken() } });
}

export async function saveBilling(billing: Billing): Promise<Billing> {
  return apiFetch<Billing>('/api/billing', { csrf: true, body: { token: await idToken(), billing } });
}

/** One idempotency key per checkout, kept across refreshes and retries so a resubmitted
 * order is the same order. */
export function checkoutKey(): string {
  const k = sessionStorage.getItem('checkout:key');
  if (k) return k;
  const fresh = crypto.randomUUID();
  sessionStorage.setItem('checkout:key', fresh);
  return fresh;
}

export const forgetCheckoutKey = () => sessionStorage.removeItem('checkout:key');

export async function placeOrder(body: { delivery_option: string; same_as_billing: boolean; deliver_to: Address | null; delivery_note: string }): Promise<Order> {
  return apiFetch<Order>('/api/orders', { csrf: true, body: { token: await idToken(), idempotency_key: checkoutKey(), ...body } });
}

const bearer = async () => ({ Authorization: `Bearer ${await idToken()}` });

export async function getOrder(id: string): Promise<Order> {
  return apiFetch<Order>(`/api/orders/${encodeURIComponent(id)}`, { method: 'GET', headers: await bearer() });
}

/** A page of the buyer's orders, newest first (20 at most), and the cursor of the next
 * page: null on the last (docs/api.md). */
export interface OrdersPage {
  orders: Order[];
  next: string | null;
}

/** The first page of the buyer's orders, or the page after cursor. */
export async function listOrders(cursor: string | null = null): Promise<OrdersPage> {
  const path = cursor === null ? '/api/orders' : `/api/orders?cursor=${encodeURIComponent(cursor)}`;
  const page = await apiFetch<OrdersPage>(path, { method: 'GET', headers: await bearer() });
  return { orders: page.orders, next: page.next ?? null };
}

export async function reorder(id: string): Promise<{ added: string[]; unavailable: string[]; basket_full: string[] }> {
  return apiFetch(`/api/orders/${encodeURIComponent(id)}/reorder`, { csrf: true, body: { token: await idToken() } });
}

/** Keeps a step's form across a refresh (sessionStorage). */
export function loadDraft<T>(name: string): T | null {
  try {
    const v = sessionStorage.getItem(`checkout:${name}`);
    return v ? (JSON.parse(v) as T) : null;
  } catch {
    return null;
  }
}
export const saveDraft = (name: string, value: unknown) => sessionStorage.setItem(`checkout:${name}`, JSON.stringify(value));

/** The UK postcode pattern the server checks too. */
export const ukPostcode = /^(GIR ?0AA|[A-PR-UWYZ]([0-9]{1,2}|[A-HK-Y][0-9]([0-9]|[ABEHMNPRV-Y])?|[0-9][A-HJKPS-UW]) ?[0-9][ABD-HJLNP-UW-Z]{2})$/i;

/** What is wrong with an address, keyed by prefix + field as the API names its problems. */
export function addressProblems(a: Address, prefix: string): Record<string, string> {
  const p: Record<string, string> = {};
  if (!a.line1.trim()) p[`${prefix}line1`] = 'Enter the first line of the address.';
  if (!a.town.trim()) p[`${prefix}town`] = 'Enter the town or city.';
  if (!ukPostcode.test(a.postcode.trim())) p[`${prefix}postcode`] = 'Enter a UK postcode such as EX1 2AB.';
  return p;
}
