import {
  MAX_LINES,
  asPacks,
  normalSku,
  packsBoxProblem,
  rowUnits,
  skuProblem,
  type CheckedLine,
  type LineProblem,
  type ReadLine,
  type SkuProduct,
} from './quick-order';

/** One row of the quick order: a SKU and packs as typed, and what the last check of them said. */
export interface Row {
  key: number;
  sku: string;
  /** The packs box as typed. */
  packs: string;
  /** Units given as they were (a paste or a file) that the packs box does not show yet:
   * shown as packs once the pack size is known and they are whole packs. */
  units: number;
  /** Bumped by every change of the SKU or quantity: an answer for an older one is dropped. */
  rev: number;
  /** The product of the SKU last looked up (the row's SKU may have changed since). */
  product: SkuProduct | null;
  /** What the check of checkedRev said. */
  problem: LineProblem | null;
  /** What the line as checked at checkedRev adds to the basket (pence ex VAT), or null. */
  lineAmount: number | null;
  checkedRev: number;
  /** The rev a check in flight was sent for (-1: none). */
  checkingRev: number;
}

/** What a row comes to now. */
export type RowStatus =
  | { kind: 'empty' }
  /** Cannot be checked as typed: the reason is the page's own. */
  | { kind: 'invalid'; message: string; field: 'sku' | 'packs' }
  | { kind: 'pending' }
  | { kind: 'checking' }
  | { kind: 'problem'; problem: LineProblem }
  /** Checked, but no quantity typed yet. */
  | { kind: 'no-quantity' }
  | { kind: 'good'; units: number };

export const emptyRow = (key: number): Row => ({
  key,
  sku: '',
  packs: '',
  units: 0,
  rev: 0,
  product: null,
  problem: null,
  lineAmount: null,
  checkedRev: -1,
  checkingRev: -1,
});

export const isEmptyRow = (r: Row) => r.sku.trim() === '' && r.packs.trim() === '' && r.units === 0;

/** The row's product when it is the product of the SKU typed now. */
export const rowProduct = (r: Row) => (r.product && r.product.sku === normalSku(r.sku) ? r.product : null);

/** The row's units now, or null while its pack size is not known. */
export const unitsOf = (r: Row) => rowUnits(r.packs, r.units, rowProduct(r)?.pack_size);

/** Every row's status, in order; a SKU on an earlier row makes a later row invalid. */
export function rowStatuses(rows: Row[]): RowStatus[] {
  const first = new Map<string, number>();
  return rows.map((r, i) => {
    if (isEmptyRow(r)) return { kind: 'empty' };
    if (r.sku.trim() === '') return { kind: 'invalid', message: 'Enter a SKU for this line.', field: 'sku' };
    const sku = normalSku(r.sku);
    const bad = skuProblem(r.sku);
    if (bad) return { kind: 'invalid', message: bad, field: 'sku' };
    const earlier = first.get(sku);
    if (earlier !== undefined)
      return { kind: 'invalid', message: `${sku} is also on line ${earlier + 1}: change the packs there, or remove this line.`, field: 'sku' };
    first.set(sku, i);
    const packs = packsBoxProblem(r.packs);
    if (packs) return { kind: 'invalid', message: `${packs} Enter a whole number.`, field: 'packs' };
    if (r.checkingRev === r.rev) return { kind: 'checking' };
    if (r.checkedRev !== r.rev) return { kind: 'pending' };
    if (r.problem) return { kind: 'problem', problem: r.problem };
    const units = unitsOf(r);
    if (!units) return { kind: 'no-quantity' };
    return { kind: 'good', units };
  });
}

/** The rows with one empty row last, for the next line, unless the quick order is full. */
export function withEmptyLast(rows: Row[], nextKey: () => number): Row[] {
  const last = rows.at(-1);
  if (last && isEmptyRow(last)) return rows;
  if (rows.filter((r) => !isEmptyRow(r)).length >= MAX_LINES) return rows;
  return [...rows, emptyRow(nextKey())];
}

/** A row changed by the buyer: a new rev, so the last check no longer stands. */
export const edited = (r: Row, change: Partial<Pick<Row, 'sku' | 'packs' | 'units' | 'product'>>): Row => ({
  ...r,
  ...change,
  rev: r.rev + 1,
  problem: null,
  lineAmount: null,
});

/** The rows with lines read from a paste or a file: a SKU already on a row adds to it,
 * others become new rows after the lines there. Null when they would hold more than
 * MAX_LINES lines (nothing is merged). */
export function mergeRead(rows: Row[], lines: ReadLine[], nextKey: () => number): { rows: Row[]; added: number; merged: number } | null {
  const out = rows.filter((r) => !isEmptyRow(r));
  const index = new Map(out.map((r, i) => [normalSku(r.sku), i]));
  let added = 0;
  let merged = 0;
  for (const l of lines) {
    const at = index.get(l.sku);
    if (at === undefined) {
      index.set(l.sku, out.length);
      out.push({ ...emptyRow(nextKey()), sku: l.sku, packs: l.packs ? String(l.packs) : '', units: l.units });
      added++;
      continue;
    }
    const r = out[at]!;
    const box = r.packs.trim();
    // Packs given add to a box of packs; a box that is not a number keeps its text.
    const packs = l.packs === 0 ? r.packs : packsBoxProblem(box) ? r.packs : String(Number(box || '0') + l.packs);
    out[at] = edited(r, { packs, units: r.units + l.units });
    merged++;
  }
  if (out.length > MAX_LINES) return null;
  return { rows: out, added, merged };
}

/** A row with the answer of a check sent for rev: its product and problem, and units
 * given as they were shown as packs once they are whole packs. A row changed since is
 * left as it is (it will be checked again). */
export function withChecked(r: Row, rev: number, answer: Pick<CheckedLine, 'product' | 'problem'> & Partial<Pick<CheckedLine, 'line_amount'>>): Row {
  if (r.rev !== rev) return r;
  const next: Row = {
    ...r,
    product: answer.product ?? r.product,
    problem: answer.problem,
    lineAmount: answer.line_amount ?? null,
    checkedRev: rev,
    checkingRev: -1,
  };
  const size = answer.product?.pack_size;
  if (size && next.units > 0) {
    const total = rowUnits(next.packs, next.units, size);
    const packs = total === null ? null : asPacks(total, size);
    if (packs !== null) return { ...next, packs, units: 0 };
  }
  return next;
}
