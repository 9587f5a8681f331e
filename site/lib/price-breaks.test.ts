import { describe, expect, it } from 'vitest';
import {
  breakPacks,
  breakRowCells,
  breaksSummary,
  linePricedBy,
  marginPercent,
  marginText,
  nudgeText,
  priceSteps,
  rowForPacks,
  type BreakRow,
} from './price-breaks';

const rows: BreakRow[] = [
  { from_packs: 1, to_packs: 5, unit_price: 95, pack_price: 570, margin: { rrp: 199, tenths: 427 } },
  { from_packs: 6, to_packs: 11, unit_price: 90, pack_price: 540, margin: { rrp: 199, tenths: 457 } },
  { from_packs: 12, to_packs: null, unit_price: 85, pack_price: 510, margin: null },
];

describe('marginPercent', () => {
  it('shows tenths of a percent with one decimal, negative ones too', () => {
    expect(marginPercent(524)).toBe('52.4%');
    expect(marginPercent(500)).toBe('50.0%');
    expect(marginPercent(7)).toBe('0.7%');
    expect(marginPercent(0)).toBe('0.0%');
    expect(marginPercent(-3)).toBe('-0.3%');
    expect(marginPercent(-125)).toBe('-12.5%');
  });
});

describe('marginText', () => {
  it('says whose margin it is', () => {
    expect(marginText({ rrp: 199, tenths: 524 }, false)).toBe('RRP £1.99 · margin at list price 52.4%');
    expect(marginText({ rrp: 199, tenths: 480 }, true)).toBe('RRP £1.99 · your margin 48.0%');
  });
});

describe('break rows', () => {
  it('name their packs', () => {
    expect(rows.map(breakPacks)).toEqual(['1–5 packs', '6–11 packs', '12+ packs']);
    expect(breakPacks({ from_packs: 1, to_packs: 1 })).toBe('1 pack');
  });

  it('give their cells', () => {
    expect(breakRowCells(rows[0]!, false)).toEqual({ packs: '1–5 packs', each: '£0.95 each', pack: '£5.70 a pack', margin: 'margin 42.7%' });
    expect(breakRowCells(rows[1]!, true).margin).toBe('your margin 45.7%');
    expect(breakRowCells(rows[2]!, true).margin).toBe('');
  });

  it('read as one line', () => {
    expect(breaksSummary(rows)).toBe('1–5 packs £0.95, 6–11 £0.90, 12+ £0.85 each');
    expect(breaksSummary([])).toBe('');
  });

  it('find the row a number of packs is on', () => {
    expect(rowForPacks(rows, 1)).toBe(rows[0]);
    expect(rowForPacks(rows, 5)).toBe(rows[0]);
    expect(rowForPacks(rows, 6)).toBe(rows[1]);
    expect(rowForPacks(rows, 400)).toBe(rows[2]);
    expect(rowForPacks(rows, 0)).toBeUndefined();
  });
});

describe('nudgeText', () => {
  it('says how many more packs reach the break and what that saves', () => {
    expect(nudgeText({ add_packs: 2, unit_price: 90, saving: 120 })).toBe('Add 2 packs to pay £0.90 each: save £1.20');
    expect(nudgeText({ add_packs: 1, unit_price: 85, saving: 60 })).toBe('Add 1 pack to pay £0.85 each: save £0.60');
  });
});

describe('linePricedBy', () => {
  it('names the break and the group that priced a line', () => {
    expect(linePricedBy({ break_from: 6, price_group: null })).toBe('6+ packs price');
    expect(linePricedBy({ break_from: null, price_group: 'Independents' })).toBe('Independents');
    expect(linePricedBy({ break_from: 12, price_group: 'Independents' })).toBe('12+ packs price · Independents');
    expect(linePricedBy({ break_from: null, price_group: null })).toBe('');
  });
});

describe('priceSteps', () => {
  it('names each step between the list price and the unit price, as the server priced it', () => {
    expect(priceSteps({ list: 60, base: 60, breakFrom: null, breakPrice: 60, discountPercent: 0 })).toBe('');
    expect(priceSteps({ list: 95, base: 95, breakFrom: 12, breakPrice: 85, discountPercent: 5 })).toBe('12+ packs £0.85, 5% off');
    expect(priceSteps({ list: 60, base: 40, breakFrom: 5, breakPrice: 38, discountPercent: 3 })).toBe('group price £0.40, 5+ packs £0.38, 3% off');
    expect(priceSteps({ list: 60, base: 40, breakFrom: null, breakPrice: 40, discountPercent: 0 })).toBe('group price £0.40');
  });
});
