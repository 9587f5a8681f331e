import { describe, expect, it } from 'vitest';
import type { SkuProduct } from './quick-order';
import { edited, emptyRow, mergeRead, rowStatuses, withChecked, withEmptyLast, type Row } from './quick-order-rows';

const product = (sku: string, pack_size = 6): SkuProduct => ({
  sku,
  name: sku,
  path: `/${sku.toLowerCase()}/`,
  small_img: '',
  forward: null,
  pack_size,
  list_price: 50,
  base_price: 50,
  unit_price: 50,
  discount_percent: 0,
  pack_price: 50 * pack_size,
  availability: { status: 'in_stock' },
  line_limit: 600,
  in_basket: 0,
  margin: null,
  breaks: [],
});

const keys = () => {
  let k = 100;
  return () => k++;
};

const row = (change: Partial<Row>, key = 1): Row => ({ ...emptyRow(key), ...change });

describe('rowStatuses', () => {
  it('reads each row: empty, typing mistakes, waiting for a check, and after one', () => {
    const checked = (r: Partial<Row>) => row({ ...r, rev: 1, checkedRev: 1 });
    const rows = [
      emptyRow(0),
      row({ packs: '2' }),
      row({ sku: 'GC 1' }),
      row({ sku: 'gc101-00001', packs: '1.5' }),
      row({ sku: 'GC101-00002', packs: '2' }),
      row({ sku: 'GC101-00003', rev: 2, checkingRev: 2 }),
      checked({ sku: 'GC101-00004', packs: '2', product: product('GC101-00004'), problem: { code: 'short', message: 'only 6 left', available: 6 } }),
      checked({ sku: 'GC101-00005', product: product('GC101-00005') }),
      checked({ sku: 'GC101-00006', packs: '2', product: product('GC101-00006') }),
      checked({ sku: 'gc101-00006', packs: '1', product: product('GC101-00006') }),
    ];
    expect(rowStatuses(rows)).toEqual([
      { kind: 'empty' },
      { kind: 'invalid', message: 'Enter a SKU for this line.', field: 'sku' },
      { kind: 'invalid', message: 'GC 1 is not a SKU: a SKU is letters, digits and hyphens, such as GC101-00001.', field: 'sku' },
      { kind: 'invalid', message: '1.5 is not a whole number of packs. Enter a whole number.', field: 'packs' },
      { kind: 'pending' },
      { kind: 'checking' },
      { kind: 'problem', problem: { code: 'short', message: 'only 6 left', available: 6 } },
      { kind: 'no-quantity' },
      { kind: 'good', units: 12 },
      { kind: 'invalid', message: 'GC101-00006 is also on line 9: change the packs there, or remove this line.', field: 'sku' },
    ]);
  });

  it('a change after the check makes the row wait for another', () => {
    const r = row({ sku: 'GC101-00001', packs: '1', product: product('GC101-00001'), rev: 1, checkedRev: 1 });
    expect(rowStatuses([r])[0]).toEqual({ kind: 'good', units: 6 });
    expect(rowStatuses([edited(r, { packs: '3' })])[0]).toEqual({ kind: 'pending' });
  });
});

describe('withEmptyLast', () => {
  it('keeps one empty row last for the next line', () => {
    const next = keys();
    expect(withEmptyLast([], next).map((r) => r.key)).toEqual([100]);
    const full = [row({ sku: 'A1' }, 1)];
    expect(withEmptyLast(full, next).map((r) => r.key)).toEqual([1, 101]);
    const ends = [row({ sku: 'A1' }, 1), emptyRow(2)];
    expect(withEmptyLast(ends, next)).toBe(ends);
  });

  it('adds none once 500 lines are used', () => {
    const rows = Array.from({ length: 500 }, (_, i) => row({ sku: `A${i}` }, i));
    expect(withEmptyLast(rows, keys())).toHaveLength(500);
  });
});

describe('mergeRead', () => {
  it('adds new SKUs as rows and adds to the rows already there', () => {
    const rows = [row({ sku: 'gc101-00001', packs: '2', rev: 3, checkedRev: 3 }, 1), emptyRow(2)];
    const out = mergeRead(
      rows,
      [
        { sku: 'GC101-00001', units: 12, packs: 1 },
        { sku: 'GC101-00002', units: 10, packs: 0 },
        { sku: 'GC101-00003', units: 0, packs: 1 },
      ],
      keys(),
    )!;
    expect(out.added).toBe(2);
    expect(out.merged).toBe(1);
    expect(out.rows.map((r) => [r.key, r.sku, r.packs, r.units])).toEqual([
      [1, 'gc101-00001', '3', 12],
      [100, 'GC101-00002', '', 10],
      [101, 'GC101-00003', '1', 0],
    ]);
    // The merged row waits for a new check.
    expect(out.rows[0]!.rev).toBe(4);
  });

  it('puts nothing when the rows would hold more than 500 lines', () => {
    const rows = Array.from({ length: 499 }, (_, i) => row({ sku: `A${i}` }, i));
    expect(mergeRead(rows, [{ sku: 'B1', units: 1, packs: 0 }], keys())).not.toBeNull();
    expect(
      mergeRead(
        rows,
        [
          { sku: 'A1', units: 1, packs: 0 },
          { sku: 'B1', units: 1, packs: 0 },
          { sku: 'B2', units: 1, packs: 0 },
        ],
        keys(),
      ),
    ).toBeNull();
  });
});

describe('withChecked', () => {
  it('shows units given as packs once they are whole packs', () => {
    const r = row({ sku: 'GC101-00001', units: 12, rev: 1 });
    const c = withChecked(r, 1, { product: product('GC101-00001'), problem: null });
    expect([c.packs, c.units, c.checkedRev]).toEqual(['2', 0, 1]);
    const plus = withChecked(row({ sku: 'GC101-00001', packs: '1', units: 6, rev: 1 }), 1, { product: product('GC101-00001'), problem: null });
    expect([plus.packs, plus.units]).toEqual(['2', 0]);
  });

  it('keeps units that are not whole packs, with the problem', () => {
    const problem = { code: 'packs', message: 'not whole packs', nearest: [6, 12] };
    const c = withChecked(row({ sku: 'GC101-00001', units: 10, rev: 1 }), 1, { product: product('GC101-00001'), problem });
    expect([c.packs, c.units, c.problem]).toEqual(['', 10, problem]);
  });

  it('leaves a row changed since the check was sent', () => {
    const r = row({ sku: 'GC101-00002', rev: 2 });
    expect(withChecked(r, 1, { product: product('GC101-00001'), problem: null })).toBe(r);
  });
});
