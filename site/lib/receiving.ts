import type { AdminReceiptPage, ProposalSKUAnswer } from './api-types';

// Receiving a delivery of forward products (docs/forward-orders.md "Receiving and
// allocation"): the rules the page keeps while staff type. The server checks everything
// again; these only let the page say what is wrong before sending.

/** The most SKUs one delivery holds (the API's receiving.MaxLines). */
export const MAX_DELIVERY_LINES = 90;

/** A delivery line as staff type it: SKU and packs, both text. */
export type DeliveryRow = { sku: string; units: string };

/** Reads a delivery CSV of `sku,units` rows (a header row naming sku is skipped; blank
 * lines too). Problems name the file's line numbers. */
export function parseDeliveryCsv(text: string): { rows: DeliveryRow[]; problems: string[] } {
  const rows: DeliveryRow[] = [];
  const problems: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const cells = line.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    if (i === 0 && cells[0]?.toLowerCase() === 'sku') return;
    const [sku = '', units = ''] = cells;
    if (cells.length < 2 || !sku) {
      problems.push(`Line ${i + 1}: write the SKU, a comma and the units received.`);
      return;
    }
    if (!/^\d+$/.test(units)) {
      problems.push(`Line ${i + 1} (${sku}): the units must be a whole number.`);
      return;
    }
    rows.push({ sku, units });
  });
  if (rows.length > MAX_DELIVERY_LINES) problems.push(`A delivery holds at most ${MAX_DELIVERY_LINES} SKUs: split the file in two.`);
  return { rows, problems };
}

/** The request lines of rows (empty rows left out); units as typed. */
export function deliveryLines(rows: DeliveryRow[]): { sku: string; units: number }[] {
  return rows.filter((r) => r.sku.trim() !== '' || r.units.trim() !== '').map((r) => ({ sku: r.sku.trim(), units: Number(r.units.trim() || '0') }));
}

/** Staff's packs per forward line, keyed by `${sku}|${line_sk}`; a line not in it keeps the
 * proposal's. */
export type Edits = Record<string, string>;

export const editKey = (sku: string, lineSK: string) => `${sku}|${lineSK}`;

/** The packs a line gets: staff's number if it is a whole number, else the proposal's. */
export function packsOf(edits: Edits, sku: string, lineSK: string, proposed: number): number {
  const typed = edits[editKey(sku, lineSK)];
  if (typed === undefined || !/^\d+$/.test(typed.trim())) return proposed;
  return Number(typed.trim());
}

/** A SKU's totals as staff have edited it: packs released, left over for stock, and the
 * problems (more than received, a line over what it wants, not a whole number). */
export function skuTotals(sku: ProposalSKUAnswer, edits: Edits): { released: number; leftover: number; problems: string[] } {
  let released = 0;
  const problems: string[] = [];
  for (const r of sku.rows) {
    const typed = edits[editKey(sku.sku, r.line_sk)];
    if (typed !== undefined && !/^\d+$/.test(typed.trim())) problems.push(`${r.order_id}: enter a whole number of packs.`);
    const packs = packsOf(edits, sku.sku, r.line_sk, r.proposed);
    if (packs > r.want) problems.push(`${r.order_id}: ${packs} packs is more than the ${r.want} it still wants.`);
    released += packs;
  }
  if (released > sku.received) problems.push(`${released} packs allocated but ${sku.received} were received.`);
  return { released, leftover: sku.received - released, problems };
}

/** The apply request's allocations: every line of the proposal, in units. */
export function allocationsOf(page: AdminReceiptPage, edits: Edits): { sku: string; line_sk: string; units: number }[] {
  return page.proposal.flatMap((s) =>
    s.rows.map((r) => ({ sku: s.sku, line_sk: r.line_sk, units: packsOf(edits, s.sku, r.line_sk, r.proposed) * s.pack_size })),
  );
}

/** How a rule is named to staff. */
export function ruleText(rule: string): string {
  return rule === 'first-come'
    ? 'first come, first served (the oldest order is filled first)'
    : 'pro rata (each order the same share of what it asked for, in whole packs)';
}
