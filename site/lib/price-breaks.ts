import type { BreakRowAnswer, MarginAnswer, NudgeAnswer } from './api-types';
import { formatPence } from './format';

// The words of quantity breaks, margins and nudges (docs/pricing.md). Every figure is the
// server's: these functions only put pence and tenths of a percent into sentences.

export type { BreakRowAnswer as BreakRow, MarginAnswer as Margin, NudgeAnswer as Nudge } from './api-types';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A margin in tenths of a percent as a percentage with one decimal: 524 is "52.4%", -3 is
 * "-0.3%". The tenths are shown as they are, split into whole and tenth digits. */
export function marginPercent(tenths: number): string {
  const sign = tenths < 0 ? '-' : '';
  const abs = Math.abs(tenths);
  return `${sign}${Math.floor(abs / 10)}.${abs % 10}%`;
}

/** The RRP and margin line of a product: "RRP £1.99 · your margin 52.4%" for a signed-in
 * buyer (at their own price), "RRP £1.99 · margin at list price 52.4%" signed out. */
export function marginText(m: MarginAnswer, own: boolean): string {
  return `RRP ${formatPence(m.rrp)} · ${own ? 'your margin' : 'margin at list price'} ${marginPercent(m.tenths)}`;
}

/** The packs a break row covers: "1–5 packs", "12+ packs", "1 pack". */
export function breakPacks(row: Pick<BreakRowAnswer, 'from_packs' | 'to_packs'>): string {
  if (row.to_packs === null) return `${row.from_packs}+ packs`;
  if (row.to_packs === row.from_packs) return plural(row.from_packs, 'pack', 'packs');
  return `${row.from_packs}–${row.to_packs} packs`;
}

/** A break table's row as its cells say it. */
export function breakRowCells(row: BreakRowAnswer, own: boolean): { packs: string; each: string; pack: string; margin: string } {
  return {
    packs: breakPacks(row),
    each: `${formatPence(row.unit_price)} each`,
    pack: `${formatPence(row.pack_price)} a pack`,
    margin: row.margin ? `${own ? 'your margin' : 'margin'} ${marginPercent(row.margin.tenths)}` : '',
  };
}

/** A break table in one line: "1–5 packs £0.95, 6–11 £0.90, 12+ £0.85 each". */
export function breaksSummary(rows: readonly BreakRowAnswer[]): string {
  return rows
    .map((r, i) => {
      const packs = breakPacks(r);
      return `${i === 0 ? packs : packs.replace(/ packs?$/, '')} ${formatPence(r.unit_price)}`;
    })
    .join(', ')
    .concat(rows.length ? ' each' : '');
}

/** The row of a break table a line of `packs` packs is priced on, or undefined. */
export function rowForPacks<T extends Pick<BreakRowAnswer, 'from_packs' | 'to_packs'>>(rows: readonly T[], packs: number): T | undefined {
  return rows.find((r) => r.from_packs <= packs && (r.to_packs === null || packs <= r.to_packs));
}

/** What a line just under a break can do: "Add 2 packs to pay £0.90 each: save £1.20". */
export function nudgeText(n: NudgeAnswer): string {
  return `Add ${plural(n.add_packs, 'pack', 'packs')} to pay ${formatPence(n.unit_price)} each: save ${formatPence(n.saving)}`;
}

/** The steps between a line's list price and its unit price, as the server priced them
 * (docs/pricing.md "The rule"): the price group's own price, the break reached and its
 * price, the discount: "group price £0.40, 5+ packs £0.38, 3% off"; '' for none. */
export function priceSteps(s: { list: number; base: number; breakFrom: number | null; breakPrice: number; discountPercent: number }): string {
  return [
    s.base !== s.list ? `group price ${formatPence(s.base)}` : '',
    s.breakFrom ? `${s.breakFrom}+ packs ${formatPence(s.breakPrice)}` : '',
    s.discountPercent > 0 ? `${s.discountPercent}% off` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** How a line was priced, beside its unit price: "6+ packs price", the price group's name,
 * or both ("6+ packs price · Independents"); '' for a line at its list price. */
export function linePricedBy(l: { break_from: number | null; price_group: string | null }): string {
  return [l.break_from ? `${l.break_from}+ packs price` : '', l.price_group ?? ''].filter(Boolean).join(' · ');
}
