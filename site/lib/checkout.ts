import { idToken, setCartUpdated } from './account-store';
import { apiFetch, apiFetchBlob } from './api';
import type { AddressAnswer as Address, CheckoutAnswer, OrdersPage as OrdersPageAnswer, ReorderAnswer } from './api-types';
import type { Billing, Order, PayOrderAnswer } from './card-payment-types';
import { saveFile } from './save-file';

// The answers' shapes are generated from the Go answer types (api-types.ts; docs/api.md
// "Checkout and orders"): money in pence, times in Unix ms (null while not yet), an
// order's invoice null while it is being issued, its vat_rates highest rate first.
export type {
  AddressAnswer as Address,
  CreditLineAnswer as CreditLine,
  CreditNoteAnswer as CreditNote,
  DispatchAnswer as Dispatch,
  InvoiceAnswer as Invoice,
  OrderLineAnswer as OrderLine,
  QuoteAnswer as DeliveryOption,
  SupplierAnswer as InvoiceSupplier,
  VatRateAnswer as VatRateTotal,
} from './api-types';
// Card payments' shapes, by hand until they are generated (lib/card-payment-types.ts).
export type { Billing, CardRefundAnswer as CardRefund, Order, OrderPaymentAnswer as OrderPayment, PaymentState } from './card-payment-types';

/** The checkout's quote, with the buyer's billing (the card among its ways to pay). */
export type CheckoutInfo = Omit<CheckoutAnswer, 'billing'> & { billing: Billing | null };

/** A page of the buyer's orders, newest first (20 at most), and the cursor of the next
 * page: null on the last (docs/api.md). */
export type OrdersPage = Omit<OrdersPageAnswer, 'orders'> & { orders: Order[] };

export const emptyAddress = (): Address => ({ line1: '', line2: '', town: '', postcode: '' });

export async function checkoutInfo(): Promise<CheckoutInfo> {
  return apiFetch<CheckoutInfo>('/api/checkout', { body: { token: await idToken() } });
}

export async function saveBilling(billing: Billing): Promise<Billing> {
  return apiFetch<Billing>('/api/billing', { csrf: true, body: { token: await idToken(), billing } });
}

/** The code of Place Order's 409 for an account on credit hold: an invoice on account is
 * overdue past the shop's grace, so the order can only be placed pro-forma
 * (docs/back-office.md "Credit hold"). */
export const CREDIT_HOLD = 'credit_hold';

/** Switches the buyer's billing to pro-forma, as the billing step would, so Place Order can
 * place the order while their account is on credit hold. */
export async function payProFormaInstead(billing: Billing): Promise<Billing> {
  return saveBilling({ ...billing, payment_method: 'proforma' });
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

/** Ends this tab's checkout once its basket is an order (placed here, or found already
 * placed from another tab): the idempotency key and the delivery step's draft are
 * forgotten, so the next checkout is a new order, and the basket reloads (empty now). The
 * billing step's draft is kept. */
export function checkoutOrdered(): void {
  forgetCheckoutKey();
  forgetDraft('delivery');
  setCartUpdated();
}

export async function placeOrder(body: {
  delivery_option: string;
  same_as_billing: boolean;
  deliver_to: Address | null;
  delivery_note: string;
  no_backorders: boolean;
}): Promise<Order> {
  return apiFetch<Order>('/api/orders', { csrf: true, body: { token: await idToken(), idempotency_key: checkoutKey(), ...body } });
}

const bearer = async () => ({ Authorization: `Bearer ${await idToken()}` });

export async function getOrder(id: string): Promise<Order> {
  return apiFetch<Order>(`/api/orders/${encodeURIComponent(id)}`, { method: 'GET', headers: await bearer() });
}

/** How often, and how many times, a page asks for an order again while its invoice is being
 * issued. */
export const INVOICE_WAIT = { intervalMs: 2000, tries: 5 };

/** Asks for an order again until its VAT invoice is issued: every intervalMs, at most tries
 * times. Answers the order with its invoice, or null when the last ask still had none; a
 * failed ask counts as one without. An aborted signal stops the asking (null). */
export async function awaitInvoice(
  id: string,
  {
    intervalMs = INVOICE_WAIT.intervalMs,
    tries = INVOICE_WAIT.tries,
    signal,
    load = getOrder,
  }: { intervalMs?: number; tries?: number; signal?: AbortSignal; load?: (id: string) => Promise<Order> } = {},
): Promise<Order | null> {
  for (let i = 0; i < tries; i++) {
    if (!(await pause(intervalMs, signal))) return null;
    const order = await load(id).catch(() => null);
    if (signal?.aborted) return null;
    if (order?.invoice) return order;
  }
  return null;
}

/** Sends the buyer's order to be paid by card (POST /api/orders/{id}/pay) and answers
 * where to go to pay: Stripe's page, or the local payment page on the local stage. The
 * amount is the server's (what the invoice still owes). A paid, cancelled or not yet
 * invoiced order is an ApiError 409 with the server's sentence; another's order a 404. */
export async function payOrder(id: string): Promise<PayOrderAnswer> {
  return apiFetch<PayOrderAnswer>(`/api/orders/${encodeURIComponent(id)}/pay`, { csrf: true, body: { token: await idToken() } });
}

/** How often, and how many times, a page asks for an order again while its card payment
 * waits for Stripe's word: every 2 s for a minute, since the webhook may land after the
 * browser comes back from the payment page. */
export const PAYMENT_WAIT = { intervalMs: 2000, tries: 30 };

/** Asks for an order again until settled says its payment has an outcome: every intervalMs,
 * at most tries times; each order read is handed to seen. Answers the settled order, or null
 * when the asking gave up (or signal aborted it); a failed ask counts as one unsettled. */
export async function awaitPayment(
  id: string,
  settled: (o: Order) => boolean,
  {
    intervalMs = PAYMENT_WAIT.intervalMs,
    tries = PAYMENT_WAIT.tries,
    signal,
    load = getOrder,
    seen,
  }: { intervalMs?: number; tries?: number; signal?: AbortSignal; load?: (id: string) => Promise<Order>; seen?: (o: Order) => void } = {},
): Promise<Order | null> {
  for (let i = 0; i < tries; i++) {
    if (!(await pause(intervalMs, signal))) return null;
    const order = await load(id).catch(() => null);
    if (signal?.aborted) return null;
    if (order && settled(order)) return order;
    if (order) seen?.(order);
  }
  return null;
}

/** Waits ms; false when signal aborts first. */
function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** The order's VAT invoice as a PDF (GET /api/orders/{id}/invoice). An order not on the
 * account (404) or whose invoice is not issued yet (409) is an ApiError with the server's
 * sentence; an answer that is not a PDF is an Error. */
export async function invoicePdf(id: string): Promise<Blob> {
  const pdf = await apiFetchBlob(`/api/orders/${encodeURIComponent(id)}/invoice`, 'application/pdf', { method: 'GET', headers: await bearer() });
  if (pdf.type.split(';')[0]!.trim().toLowerCase() !== 'application/pdf')
    throw new Error(`the invoice of order ${id} came back as ${pdf.type || 'no type'}, not a PDF`);
  return pdf;
}

/** Downloads the order's VAT invoice as INV-….pdf. The API wants the buyer's ID token in a
 * header, which a plain link cannot send, so the PDF is fetched and handed to the browser
 * as a file. */
export async function downloadInvoice(order: Pick<Order, 'id' | 'invoice'>, doc: Document = document): Promise<void> {
  if (!order.invoice) throw new Error(`the invoice of order ${order.id} is not issued yet`);
  saveFile(await invoicePdf(order.id), `${order.invoice.number}.pdf`, doc);
}

/** One of the order's VAT credit notes as a PDF (GET /api/orders/{id}/creditNotes/{number});
 * failures as invoicePdf's. */
export async function creditNotePdf(id: string, number: string): Promise<Blob> {
  const pdf = await apiFetchBlob(`/api/orders/${encodeURIComponent(id)}/creditNotes/${encodeURIComponent(number)}`, 'application/pdf', {
    method: 'GET',
    headers: await bearer(),
  });
  if (pdf.type.split(';')[0]!.trim().toLowerCase() !== 'application/pdf')
    throw new Error(`credit note ${number} of order ${id} came back as ${pdf.type || 'no type'}, not a PDF`);
  return pdf;
}

/** Downloads one of the order's VAT credit notes as CN-….pdf, as downloadInvoice does. */
export async function downloadCreditNote(orderId: string, number: string, doc: Document = document): Promise<void> {
  saveFile(await creditNotePdf(orderId, number), `${number}.pdf`, doc);
}

/** The first page of the buyer's orders, or the page after cursor. */
export async function listOrders(cursor: string | null = null): Promise<OrdersPage> {
  const path = cursor === null ? '/api/orders' : `/api/orders?cursor=${encodeURIComponent(cursor)}`;
  const page = await apiFetch<OrdersPage>(path, { method: 'GET', headers: await bearer() });
  return { orders: page.orders, next: page.next ?? null };
}

/** What a reorder did: the names of the products put back in the basket, of those no longer
 * available, and of those left out because the basket holds the most lines it can. */
export type { ReorderAnswer } from './api-types';

/** Puts a past order's lines back in the basket, or only those of skus (order again for
 * chosen lines); the basket widget reloads. */
export async function reorder(id: string, skus?: string[]): Promise<ReorderAnswer> {
  const a = await apiFetch<ReorderAnswer>(`/api/orders/${encodeURIComponent(id)}/reorder`, {
    csrf: true,
    body: { token: await idToken(), ...(skus && { skus }) },
  });
  setCartUpdated();
  return { added: a.added ?? [], unavailable: a.unavailable ?? [], basket_full: a.basket_full ?? [] };
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
export const forgetDraft = (name: string) => sessionStorage.removeItem(`checkout:${name}`);

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
