import { idToken, setCartUpdated } from './account-store';
import { apiFetch } from './api';
import type { LineProblem, SkuProduct as ProductSummary, UnitsLine } from './quick-order';
import type { CheckedLine, ListAnswer, ListBasketAnswer as ListToBasketAnswer, ListSummary, ListsAnswer } from './api-types';
import { characterProblem } from './validation';

// Saved lists (docs/quick-order.md): a buyer's standing lists of products, kept in units as
// every basket call counts them; the pages show packs.

// A list's line has the product and problem POST /api/skus answers (one Go type serves both).
export type { LineProblem, SkuProduct as ProductSummary, UnitsLine } from './quick-order';

/** One line of a list: units, with its product (null when no product has the SKU); the
 * answer's line_amount is not read here. */
export type ListLine = Omit<CheckedLine, 'line_amount'>;

/** When a list last changed: Unix ms, or an RFC 3339 time. */
export type ChangedAt = number | string;

/** A list as GET /api/lists/{id} answers it (under list), as far as the pages read it. */
export type SavedList = Omit<ListAnswer, 'created_at' | 'lines'> & { lines: ListLine[] };

/** A list in the buyer's index: lines is the number of lines. */
export type { ListSummary } from './api-types';

/** What "Add all to basket" did: the lines added, those that could not be, and how many
 * lines the basket holds now. */
export type { ListBasketAnswer as ListToBasketAnswer } from './api-types';

/** The most characters a list name has (docs/quick-order.md "Limits"). */
export const LIST_NAME_MAX = 60;

/** What is wrong with a list name as typed, or null: 1 to 60 characters once trimmed
 * (counted as the server counts them, NFC), without the characters the text rule refuses. */
export function listNameProblem(text: string): string | null {
  const n = [...text.trim().normalize('NFC')].length;
  if (n < 1 || n > LIST_NAME_MAX) return `Enter a name for the list (1 to ${LIST_NAME_MAX} characters).`;
  return characterProblem('List name', text);
}

/** The page of one list. */
export const listHref = (id: string) => `/account/lists/?id=${encodeURIComponent(id)}`;

/** "1 line", "3 lines". */
export const linesText = (n: number) => `${n} ${n === 1 ? 'line' : 'lines'}`;

/** "1 pack", "3 packs". */
export const packsText = (n: number) => `${n} ${n === 1 ? 'pack' : 'packs'}`;

/** The units of n packs: the API counts units. */
export const unitsOf = (packs: number, packSize: number) => packs * packSize;

/** A list's lines that have a product, as the packs boxes (lib/basket.ts packsBoxes) take them. */
export const packsLines = (l: SavedList) => l.lines.flatMap((x) => (x.product ? [{ sku: x.sku, quantity: x.quantity, pack_size: x.product.pack_size }] : []));

/** When a list last changed, as a UK date: "24 November 2025"; '' when the API's value
 * cannot be read. */
export function changedText(at: ChangedAt): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' });
}

/** A list as its index shows it. */
export const summaryOf = (l: SavedList): ListSummary => ({ id: l.id, name: l.name, lines: l.lines.length, updated_at: l.updated_at });

/** The quantities a problem offers instead, in whole packs: a part pack's nearest whole
 * packs, or what can still be added of a line that is short or over the line limit. */
export function packsToOffer(problem: LineProblem | null, packSize: number): number[] {
  if (!problem || packSize < 1) return [];
  const units = problem.code === 'packs' ? (problem.nearest ?? []) : problem.code === 'short' || problem.code === 'over_limit' ? [problem.available ?? 0] : [];
  return units.map((u) => Math.floor(u / packSize)).filter((p, i, all) => p > 0 && all.indexOf(p) === i);
}

/** What "Add all to basket" tells the buyer, as sentences: what was added, and each line
 * not added with its reason. */
export function addAllReport(a: Pick<ListToBasketAnswer, 'added' | 'unavailable'>): { added: string; unavailable: { sku: string; text: string }[] } {
  const added = a.added.length === 0 ? 'Nothing was added to your basket.' : `Added ${linesText(a.added.length)} to your basket.`;
  return { added, unavailable: a.unavailable.map((u) => ({ sku: u.sku, text: `${u.name || u.sku}: ${u.message}` })) };
}

const bearer = async () => ({ Authorization: `Bearer ${await idToken()}` });
const listPath = (id: string) => `/api/lists/${encodeURIComponent(id)}`;

/** The buyer's lists, most recently changed first. */
export async function getLists(signal?: AbortSignal): Promise<ListSummary[]> {
  const a = await apiFetch<ListsAnswer>('/api/lists', { method: 'GET', headers: await bearer(), ...(signal && { signal }) });
  return a.lists ?? [];
}

/** One list with its lines, products and problems; a list the account does not have is a 404. */
export async function getList(id: string, signal?: AbortSignal): Promise<SavedList> {
  const a = await apiFetch<{ list: SavedList }>(listPath(id), { method: 'GET', headers: await bearer(), ...(signal && { signal }) });
  return a.list;
}

/** Creates a list, empty, with lines, or with the basket's lines (fromBasket). */
export async function createList(name: string, opts: { lines?: UnitsLine[]; fromBasket?: boolean } = {}): Promise<SavedList> {
  const body = { token: await idToken(), name: name.trim(), ...(opts.lines && { lines: opts.lines }), ...(opts.fromBasket && { from_basket: true }) };
  return unwrap(await apiFetch<SavedList | { list: SavedList }>('/api/lists', { csrf: true, body }));
}

/** Renames a list, adds to its lines and sets quantities (0 removes a line). */
export async function updateList(id: string, change: { name?: string; add?: UnitsLine[]; set?: UnitsLine[] }): Promise<SavedList> {
  return unwrap(await apiFetch<SavedList | { list: SavedList }>(listPath(id), { csrf: true, body: { token: await idToken(), ...change } }));
}

/** Deletes a list. */
export async function deleteList(id: string): Promise<void> {
  await apiFetch(listPath(id), { method: 'DELETE', csrf: true, headers: await bearer() });
}

/** Adds every line of a list that can be bought to the basket; the basket widget reloads. */
export async function listToBasket(id: string): Promise<ListToBasketAnswer> {
  const a = await apiFetch<ListToBasketAnswer>(`${listPath(id)}/basket`, { csrf: true, body: { token: await idToken() } });
  setCartUpdated();
  return a;
}

/** The writes answer "the list as GET /api/lists/{id} answers it", which wraps it in
 * {list}; a bare list is taken as it is. */
function unwrap(a: SavedList | { list: SavedList }): SavedList {
  return 'list' in a && a.list && typeof a.list === 'object' ? a.list : (a as SavedList);
}
