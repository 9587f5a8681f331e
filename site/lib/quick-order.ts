import { idToken, setCartUpdated } from './account-store';
import { ApiError, apiFetch } from './api';
import type { CheckedLine, LineProblem, ProductSummary as SkuProduct, SkusAnswer } from './api-types';
import type { BasketChange } from './basket';
import { searchCatalogue } from './search';

/** The most lines one quick order holds and one add takes (the basket's own most). */
export const MAX_LINES = 500;
/** The most units a line may ask for (POST /api/skus). */
export const MAX_UNITS = 1_000_000;
/** How many search hits the SKU suggestions show. */
export const SUGGESTIONS = 6;
/** The SKU suggestions start at this many characters. */
export const SUGGEST_FROM = 2;
/** The largest CSV file read (500 lines are a few kilobytes). */
export const MAX_CSV_BYTES = 1024 * 1024;

/** A product as POST /api/skus answers it (pence ex VAT; quantities in units): pack_price
 * is what one pack adds to a basket line, line_limit the most units one basket line of it
 * may hold, in_basket the units the buyer's basket holds now. */
export type { ProductSummary as SkuProduct } from './api-types';

/** Why a line cannot be added as it stands (docs/quick-order.md has the codes): nearest
 * (packs) the whole packs either side in units, available (short, over_limit) the units
 * that can still be added. */
export type { LineProblem } from './api-types';

/** One line of POST /api/skus's answer; line_amount is what the line would add to the
 * basket (quantity × your unit price), null without a product or a quantity. */
export type { CheckedLine } from './api-types';

/** A line to look up or add: a SKU and units. */
export interface UnitsLine {
  sku: string;
  quantity: number;
}

/** Checks lines as the basket will (quantity 0: only that the product can be bought);
 * answers them in the order asked. Each SKU once, 1 to 500 lines. */
export async function checkLines(lines: UnitsLine[], signal?: AbortSignal): Promise<CheckedLine[]> {
  const a = await apiFetch<SkusAnswer>('/api/skus', { body: { token: await idToken(), lines }, ...(signal && { signal }) });
  return a.lines;
}

/** The products whose SKU or name starts like q, with the buyer's prices and stock now:
 * the search's first hits, looked up with quantity 0. */
export async function suggestProducts(q: string, signal?: AbortSignal): Promise<SkuProduct[]> {
  const found = await searchCatalogue({ q, page: 1, range: '', category: '' }, signal);
  const skus = [...new Set(found.hits.map((h) => h.sku))].slice(0, SUGGESTIONS);
  if (skus.length === 0) return [];
  const checked = await checkLines(
    skus.map((sku) => ({ sku, quantity: 0 })),
    signal,
  );
  return checked.flatMap((l) => (l.product ? [l.product] : []));
}

/** A line addMany refused: its index in the lines sent and its problem. */
export interface RefusedLine extends LineProblem {
  index: number;
  sku: string;
}

/** What an add of many lines came to: all added (what changed), or none with the lines refused. */
export type AddOutcome = { added: true; change: BasketChange } | { added: false; message: string; refused: RefusedLine[] };

/** Adds lines in one all-or-nothing request (POST /api/basket/addMany); the basket widget
 * reloads. A 409 that lists the lines it refused is an outcome, not an error: the caller
 * marks those lines. Any other failure is the ApiError. */
export async function addLines(lines: UnitsLine[]): Promise<AddOutcome> {
  try {
    const change = await apiFetch<BasketChange>('/api/basket/addMany', { csrf: true, body: { token: await idToken(), lines } });
    setCartUpdated();
    return { added: true, change };
  } catch (err) {
    const refused = err instanceof ApiError && err.status === 409 ? refusedLines(err.answer) : null;
    if (!refused) throw err;
    return { added: false, message: (err as ApiError).message, refused };
  }
}

/** The lines of a 409 answer of addMany, or null when it lists none. */
export function refusedLines(answer: unknown): RefusedLine[] | null {
  const lines = (answer as { lines?: unknown } | null)?.lines;
  if (!Array.isArray(lines) || lines.length === 0) return null;
  return lines.filter((l): l is RefusedLine => typeof l === 'object' && l !== null && typeof (l as RefusedLine).index === 'number');
}

// ---- Reading pasted text and CSV files ----

/** A line read from a paste or a file: the SKU, units given, and packs given (a line with
 * no quantity is one pack, whose units are known only once the product is). */
export interface ReadLine {
  sku: string;
  units: number;
  packs: number;
}

/** A line that could not be read: its line number (from 1), its text, and why. */
export interface Unread {
  line: number;
  text: string;
  message: string;
}

/** What a paste or a file holds: its lines (each SKU once, in first-seen order), the
 * lines it could not read, and how many data rows it had (a header and blank lines left
 * out). */
export interface ReadResult {
  lines: ReadLine[];
  unread: Unread[];
  rows: number;
}

/** A record of fields and where it came from. */
interface SourceRecord {
  line: number;
  text: string;
  fields: string[];
}

const SKU_SHAPE = /^[A-Z0-9][A-Z0-9-]{0,31}$/;

/** A SKU as typed, as the shop writes it: trimmed and upper-case. */
export const normalSku = (s: string) => s.trim().toUpperCase();

/** Whether s (normalised) has a SKU's shape: letters, digits and hyphens, 1 to 32. */
export const validSku = (s: string) => SKU_SHAPE.test(s);

/** Why a typed SKU cannot be looked up, or '' when it can. */
export function skuProblem(sku: string): string {
  return validSku(normalSku(sku)) ? '' : `${sku.trim()} is not a SKU: a SKU is letters, digits and hyphens, such as GC101-00001.`;
}

const isNumber = (s: string) => /^\d+$/.test(s);

function readRecords(records: SourceRecord[]): ReadResult {
  const byName = new Map<string, ReadLine>();
  const unread: Unread[] = [];
  let rows = 0;
  let first = true;
  for (const r of records) {
    const fields = r.fields.map((f) => f.trim()).filter((f) => f !== '');
    if (fields.length === 0) continue;
    const [rawSku, qty, ...rest] = fields as [string, ...string[]];
    // A header: SKU,QTY, or any first line whose quantity is not a number.
    const header = first && (normalSku(rawSku) === 'SKU' || (qty !== undefined && !isNumber(qty)));
    first = false;
    if (header) continue;
    rows++;
    const sku = normalSku(rawSku);
    const bad = (message: string) => unread.push({ line: r.line, text: r.text, message });
    if (rest.length > 0) {
      bad(`Line ${r.line} has more than a SKU and a quantity.`);
      continue;
    }
    if (!validSku(sku)) {
      bad(`Line ${r.line}: ${rawSku} is not a SKU (letters, digits and hyphens, such as GC101-00001).`);
      continue;
    }
    if (qty !== undefined && !isNumber(qty)) {
      bad(`Line ${r.line}: ${qty} is not a quantity: give a whole number of units.`);
      continue;
    }
    const units = qty === undefined ? 0 : Number(qty);
    if (qty !== undefined && (units < 1 || units > MAX_UNITS)) {
      bad(`Line ${r.line}: the quantity must be from 1 to ${MAX_UNITS.toLocaleString('en-GB')} units.`);
      continue;
    }
    const had = byName.get(sku);
    const add = { units, packs: qty === undefined ? 1 : 0 };
    if (had) {
      had.units += add.units;
      had.packs += add.packs;
    } else byName.set(sku, { sku, ...add });
  }
  return { lines: [...byName.values()], unread, rows };
}

const unquote = (f: string) => {
  const t = f.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replace(/""/g, '"') : t;
};

/** Reads pasted text: one line per product, SKU then quantity in units, separated by a
 * tab (a spreadsheet copy), comma, semicolon or spaces (docs/quick-order.md). */
export function readPaste(text: string): ReadResult {
  const records = text.split(/\r\n|\r|\n/).map((line, i) => ({ line: i + 1, text: line, fields: line.split(/[\t,;]|\s+/).map(unquote) }));
  return readRecords(records);
}

/** Splits CSV text into records (RFC 4180: quoted fields, "" for a quote, line breaks
 * inside quotes), each with the line it starts on. The separator is a comma, or a
 * semicolon or tab when the first line has no comma (a spreadsheet saved in Europe). */
export function csvRecords(text: string): { line: number; text: string; fields: string[] }[] {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.split(/\r\n|\r|\n/, 1)[0] ?? '';
  const sep = firstLine.includes(',') ? ',' : firstLine.includes(';') ? ';' : firstLine.includes('\t') ? '\t' : ',';
  const out: { line: number; text: string; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 0;
  let startLine = 1;
  const end = (i: number) => {
    fields.push(field);
    out.push({ line: startLine, text: body.slice(start, i), fields });
    fields = [];
    field = '';
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n' || (c === '\r' && body[i + 1] !== '\n')) line++;
        field += c;
      }
    } else if (c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (c === sep) {
      fields.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      end(i);
      if (c === '\r' && body[i + 1] === '\n') i++;
      line++;
      start = i + 1;
      startLine = line;
    } else field += c;
  }
  if (field !== '' || fields.length > 0) end(body.length);
  return out;
}

/** Reads a CSV file of SKU,QTY (header optional, QTY in units): the same rules as a paste. */
export function readCsv(text: string): ReadResult {
  return readRecords(csvRecords(text));
}

/** Why a file of `rows` lines cannot be read into a quick order, or '' when it can. */
export function tooManyRows(name: string, rows: number): string {
  return rows > MAX_LINES
    ? `${name} has ${rows.toLocaleString('en-GB')} lines: a quick order takes at most ${MAX_LINES}. Split it into files of ${MAX_LINES} lines or fewer and upload each in turn; nothing was added.`
    : '';
}

// ---- A row's quantity ----

/** Why a packs box's text is not a number of packs, or '' when it is (empty is 0). */
export function packsBoxProblem(text: string): string {
  const t = text.trim();
  if (t === '' || /^\d+$/.test(t)) return '';
  return `${t} is not a whole number of packs.`;
}

/** A row's units: its packs box times the pack size plus the units given as they were
 * (a pasted quantity not yet shown as packs), or null while the pack size is not known. */
export function rowUnits(packsBox: string, givenUnits: number, packSize: number | undefined): number | null {
  const packs = Number(packsBox.trim() || '0');
  if (packs === 0) return givenUnits;
  return packSize ? packs * packSize + givenUnits : null;
}

/** Units as packs, when they are whole packs: the packs box's text; else null. */
export function asPacks(units: number, packSize: number): string | null {
  return units % packSize === 0 ? String(units / packSize) : null;
}

/** Units as a buyer reads them beside a pack size: "2 packs (12)", "1 pack (6)". */
export function packsLabel(units: number, packSize: number): string {
  const n = units / packSize;
  return `${n} ${n === 1 ? 'pack' : 'packs'} (${units})`;
}

/** A line problem as a sentence (the server's words). */
export const problemText = (p: LineProblem) => p.message;

/** "27 lines added to your basket." */
export const addedSentence = (n: number) => `${n} ${n === 1 ? 'line' : 'lines'} added to your basket.`;

/** The add button's words: "Add 27 lines to basket". */
export const addLabel = (n: number) => `Add ${n} ${n === 1 ? 'line' : 'lines'} to basket`;
