import { idToken } from './account-store';
import { apiFetch, apiFetchBlob } from './api';
import type { AdminForwardAnswer, AdminProductPage, DemandAnswer, ForwardListAnswer } from './api-types';
import { isDay } from './london-dates';
import { saveFile } from './save-file';

// The back office's forward products (docs/forward-orders.md "Marking a product forward"
// and "Demand"): the marking form, the list by range, and the demand with its CSV.

export type { AdminForwardAnswer as StaffForward, DemandAnswer, ForwardListAnswer } from './api-types';

const staffHeaders = async () => ({ Authorization: `Bearer ${await idToken()}` });

/** The most units staff may expect of a delivery (stock.MaxExpected). */
export const MAX_EXPECTED = 10_000_000;

/** The forward form as typed: two dates (YYYY-MM-DD, an <input type="date">'s value) and
 * the expected units ('' for not known). */
export interface ForwardForm {
  delivery_from: string;
  order_by: string;
  expected: string;
}

/** The form of a product's marking (empty for an ordinary product). */
export const forwardForm = (f: AdminForwardAnswer | null): ForwardForm =>
  f
    ? { delivery_from: f.delivery_from, order_by: f.order_by, expected: f.expected ? String(f.expected) : '' }
    : { delivery_from: '', order_by: '', expected: '' };

/** What the forward form sends, or its problems by the API's field names (the server
 * checks again: stock.ForwardProblems). */
export function checkForwardForm(f: ForwardForm): { ok: true; value: AdminForwardAnswer } | { ok: false; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  if (!isDay(f.delivery_from)) problems.delivery_from = 'Enter the delivery date, such as 2027-09-01.';
  if (!isDay(f.order_by)) problems.order_by = 'Enter the order-by date, such as 2027-06-30.';
  else if (isDay(f.delivery_from) && f.order_by > f.delivery_from)
    problems.order_by = 'The order-by date must be on or before the delivery date: pre-orders close before delivery starts.';
  const t = f.expected.trim();
  const expected = t === '' ? 0 : /^\d{1,9}$/.test(t) ? Number(t) : NaN;
  if (!Number.isInteger(expected) || expected > MAX_EXPECTED)
    problems.expected = `Enter the units expected, a whole number up to ${MAX_EXPECTED.toLocaleString('en-GB')}, or leave it empty.`;
  if (Object.keys(problems).length) return { ok: false, problems };
  return { ok: true, value: { delivery_from: f.delivery_from, order_by: f.order_by, expected } };
}

/** Marks product sku forward, or ends its marking (null). Answers the product with its trail. */
export async function adminForward(sku: string, forward: AdminForwardAnswer | null): Promise<AdminProductPage> {
  const body = forward ? { ...forward } : { clear: true };
  return apiFetch<AdminProductPage>(`/api/admin/products/${encodeURIComponent(sku)}/forward`, { csrf: true, body: { token: await idToken(), ...body } });
}

/** Every product marked forward, by range. */
export async function adminForwardList(signal?: AbortSignal): Promise<ForwardListAnswer> {
  return apiFetch<ForwardListAnswer>('/api/admin/forward', { method: 'GET', csrf: true, headers: await staffHeaders(), ...(signal && { signal }) });
}

/** Which demand a page shows: one product's or a range's. */
export type DemandOf = { sku: string } | { range: string };

const demandQuery = (of: DemandOf) => ('sku' in of ? `?sku=${encodeURIComponent(of.sku)}` : `?range=${encodeURIComponent(of.range)}`);

/** The demand of one product or of a range's forward products. */
export async function adminDemand(of: DemandOf, signal?: AbortSignal): Promise<DemandAnswer> {
  return apiFetch<DemandAnswer>(`/api/admin/forward/demand${demandQuery(of)}`, {
    method: 'GET',
    csrf: true,
    headers: await staffHeaders(),
    ...(signal && { signal }),
  });
}

/** The file name a demand CSV is saved as (the server's own). */
export const demandFileName = (of: DemandOf, today: string) => `forward-demand-${('sku' in of ? of.sku : of.range).toLowerCase()}-${today}.csv`;

/** Downloads the demand as CSV and saves it, as the aged debt report is. */
export async function downloadDemand(of: DemandOf, today: string, doc: Document = document): Promise<string> {
  const csv = await apiFetchBlob(`/api/admin/forward/demand.csv${demandQuery(of)}`, 'text/csv', { method: 'GET', csrf: true, headers: await staffHeaders() });
  if (csv.type.split(';')[0]!.trim().toLowerCase() !== 'text/csv') throw new Error(`the demand came back as ${csv.type || 'no type'}, not CSV`);
  const name = demandFileName(of, today);
  saveFile(csv, name, doc);
  return name;
}
