import { describe, expect, it } from 'vitest';
import type { AdminReceiptPage, ProposalSKUAnswer } from './api-types';
import { allocationsOf, deliveryLines, editKey, parseDeliveryCsv, skuTotals } from './receiving';

const sku: ProposalSKUAnswer = {
  sku: 'XM-1',
  name: 'Robin card',
  pack_size: 6,
  received: 5,
  released: 5,
  leftover: 0,
  rows: [
    { order_id: 'TS-100001', line_sk: 'a', uid: 'u1', email: 'a@x', company: 'A', placed_at: 1, want: 4, proposed: 3, short: 1, no_backorders: false },
    { order_id: 'TS-100002', line_sk: 'b', uid: 'u2', email: 'b@x', company: 'B', placed_at: 2, want: 2, proposed: 2, short: 0, no_backorders: true },
  ],
};

describe('parseDeliveryCsv', () => {
  it('reads rows, skips the header and blank lines, and names bad lines', () => {
    const { rows, problems } = parseDeliveryCsv('sku,units\r\nXM-1, 30\n\nXM-2,x\nXM-3\n"XM-4",12\n');
    expect(rows).toEqual([
      { sku: 'XM-1', units: '30' },
      { sku: 'XM-4', units: '12' },
    ]);
    expect(problems).toEqual(['Line 4 (XM-2): the units must be a whole number.', 'Line 5: write the SKU, a comma and the units received.']);
  });
});

describe('deliveryLines', () => {
  it('leaves out empty rows', () => {
    expect(
      deliveryLines([
        { sku: ' XM-1 ', units: '12' },
        { sku: '', units: '' },
      ]),
    ).toEqual([{ sku: 'XM-1', units: 12 }]);
  });
});

describe('skuTotals', () => {
  it('adds the proposal, then staff edits, and says what is wrong', () => {
    expect(skuTotals(sku, {})).toEqual({ released: 5, leftover: 0, problems: [] });
    expect(skuTotals(sku, { [editKey('XM-1', 'a')]: '1' })).toEqual({ released: 3, leftover: 2, problems: [] });
    const over = skuTotals(sku, { [editKey('XM-1', 'a')]: '4' });
    expect(over.problems).toEqual(['6 packs allocated but 5 were received.']);
    expect(skuTotals(sku, { [editKey('XM-1', 'b')]: '3' }).problems[0]).toBe('TS-100002: 3 packs is more than the 2 it still wants.');
    expect(skuTotals(sku, { [editKey('XM-1', 'b')]: '1.5' }).problems[0]).toBe('TS-100002: enter a whole number of packs.');
  });
});

describe('allocationsOf', () => {
  it('sends every line in units', () => {
    const page = { proposal: [sku] } as AdminReceiptPage;
    expect(allocationsOf(page, { [editKey('XM-1', 'a')]: '2' })).toEqual([
      { sku: 'XM-1', line_sk: 'a', units: 12 },
      { sku: 'XM-1', line_sk: 'b', units: 12 },
    ]);
  });
});
