import { describe, expect, it } from 'vitest';
import { asPacks, csvRecords, packsBoxProblem, packsLabel, readCsv, readPaste, refusedLines, rowUnits, skuProblem, tooManyRows } from './quick-order';

describe('readPaste', () => {
  it('reads a spreadsheet copy: tab separated, QTY in units, header skipped', () => {
    const r = readPaste('SKU\tQTY\nGC101-00001\t12\nGC101-00002\t24\n');
    expect(r.lines).toEqual([
      { sku: 'GC101-00001', units: 12, packs: 0 },
      { sku: 'GC101-00002', units: 24, packs: 0 },
    ]);
    expect(r.unread).toEqual([]);
    expect(r.rows).toBe(2);
  });

  it('takes commas, semicolons and spaces, trims and upper-cases SKUs', () => {
    const r = readPaste('  gc101-00001 , 6\nxm202-00001;12\r\nGW401-00001    25\n"bl601-00001","50"');
    expect(r.lines.map((l) => [l.sku, l.units])).toEqual([
      ['GC101-00001', 6],
      ['XM202-00001', 12],
      ['GW401-00001', 25],
      ['BL601-00001', 50],
    ]);
  });

  it('a missing quantity is one pack', () => {
    expect(readPaste('GC101-00001\nGC101-00002\t').lines).toEqual([
      { sku: 'GC101-00001', units: 0, packs: 1 },
      { sku: 'GC101-00002', units: 0, packs: 1 },
    ]);
  });

  it('merges the same SKU twice, adding the quantities (units and packs kept apart)', () => {
    const r = readPaste('GC101-00001 6\ngc101-00001 12\nGC101-00002\nGC101-00001\n');
    expect(r.lines).toEqual([
      { sku: 'GC101-00001', units: 18, packs: 1 },
      { sku: 'GC101-00002', units: 0, packs: 1 },
    ]);
    expect(r.rows).toBe(4);
  });

  it('skips any first line whose quantity is not a number, and only the first', () => {
    expect(readPaste('Product code\tQuantity\nGC101-00001\t6').lines).toEqual([{ sku: 'GC101-00001', units: 6, packs: 0 }]);
    expect(readPaste('Code Qty\nGC101-00001 6').lines).toHaveLength(1);
    expect(readPaste('sku\nGC101-00001 6').lines).toHaveLength(1);
    // A first line with a number is a line, not a header.
    expect(readPaste('GC101-00001 6\nGC101-00002 12').lines).toHaveLength(2);
    // Blank lines before the header do not make it a line.
    expect(readPaste('\n\nSKU,QTY\nGC101-00001,6').lines).toHaveLength(1);
    const later = readPaste('GC101-00001 6\nGC101-00002 lots');
    expect(later.lines).toHaveLength(1);
    expect(later.unread).toEqual([{ line: 2, text: 'GC101-00002 lots', message: 'Line 2: lots is not a quantity: give a whole number of units.' }]);
  });

  it('says which lines it could not read and why, keeping their text', () => {
    const r = readPaste('GC101-00001 6\nGC1#01 6\nGC101-00002 0\nGC101-00003 1.5\nGC101-00004 6 extra\nGC101-00005 -6\nGC101-00006 2000000\n\n');
    expect(r.lines).toEqual([{ sku: 'GC101-00001', units: 6, packs: 0 }]);
    expect(r.unread.map((u) => [u.line, u.text, u.message])).toEqual([
      [2, 'GC1#01 6', 'Line 2: GC1#01 is not a SKU (letters, digits and hyphens, such as GC101-00001).'],
      [3, 'GC101-00002 0', 'Line 3: the quantity must be from 1 to 1,000,000 units.'],
      [4, 'GC101-00003 1.5', 'Line 4: 1.5 is not a quantity: give a whole number of units.'],
      [5, 'GC101-00004 6 extra', 'Line 5 has more than a SKU and a quantity.'],
      [6, 'GC101-00005 -6', 'Line 6: -6 is not a quantity: give a whole number of units.'],
      [7, 'GC101-00006 2000000', 'Line 7: the quantity must be from 1 to 1,000,000 units.'],
    ]);
    expect(r.rows).toBe(7);
  });

  it('reads nothing from blank text', () => {
    expect(readPaste('  \n\t\n')).toEqual({ lines: [], unread: [], rows: 0 });
  });
});

describe('csvRecords', () => {
  it('reads quoted fields, doubled quotes and line breaks inside quotes', () => {
    expect(csvRecords('SKU,QTY\r\n"GC101-00001","12"\n"a ""b"", c",3\n"x\ny",4\n')).toEqual([
      { line: 1, text: 'SKU,QTY', fields: ['SKU', 'QTY'] },
      { line: 2, text: '"GC101-00001","12"', fields: ['GC101-00001', '12'] },
      { line: 3, text: '"a ""b"", c",3', fields: ['a "b", c', '3'] },
      { line: 4, text: '"x\ny",4', fields: ['x\ny', '4'] },
    ]);
  });

  it('drops a byte-order mark, keeps a last line without a break, and takes semicolons', () => {
    expect(csvRecords('\uFEFFSKU;QTY\nGC101-00001;6').map((r) => r.fields)).toEqual([
      ['SKU', 'QTY'],
      ['GC101-00001', '6'],
    ]);
  });
});

describe('readCsv', () => {
  it('reads SKU,QTY with or without a header, quoted or not, merging repeats', () => {
    const text = 'SKU,QTY\n"gc101-00001",12\nGC101-00002,24\n\nGC101-00001,"6"\n';
    expect(readCsv(text)).toEqual({
      lines: [
        { sku: 'GC101-00001', units: 18, packs: 0 },
        { sku: 'GC101-00002', units: 24, packs: 0 },
      ],
      unread: [],
      rows: 3,
    });
    expect(readCsv('GC101-00001,12\nGC101-00002,24').lines).toHaveLength(2);
  });

  it('the sample file reads as it says', async () => {
    const { readFileSync } = await import('node:fs');
    const sample = readFileSync(new URL('../public/quick-order-sample.csv', import.meta.url), 'utf8');
    const r = readCsv(sample);
    expect(r.unread).toEqual([]);
    expect(r.lines.length).toBeGreaterThan(2);
  });

  it('counts rows, so a file of more than 500 is refused whole', () => {
    const rows = Array.from({ length: 501 }, (_, i) => `GC101-${String(i + 1).padStart(5, '0')},6`);
    const r = readCsv(['SKU,QTY', ...rows].join('\n'));
    expect(r.rows).toBe(501);
    expect(tooManyRows('big.csv', r.rows)).toBe(
      'big.csv has 501 lines: a quick order takes at most 500. Split it into files of 500 lines or fewer and upload each in turn; nothing was added.',
    );
    expect(tooManyRows('ok.csv', 500)).toBe('');
  });
});

describe("a row's quantity", () => {
  it('packs box: empty or a whole number', () => {
    expect(packsBoxProblem('')).toBe('');
    expect(packsBoxProblem(' 3 ')).toBe('');
    expect(packsBoxProblem('1.5')).toBe('1.5 is not a whole number of packs.');
    expect(packsBoxProblem('-1')).toBe('-1 is not a whole number of packs.');
  });

  it('units from packs and units given, once the pack size is known', () => {
    expect(rowUnits('2', 0, 6)).toBe(12);
    expect(rowUnits('2', 0, undefined)).toBeNull();
    expect(rowUnits('', 10, undefined)).toBe(10);
    expect(rowUnits('1', 12, 6)).toBe(18);
    expect(rowUnits('', 0, 6)).toBe(0);
  });

  it('units as packs, and as a buyer reads them', () => {
    expect(asPacks(12, 6)).toBe('2');
    expect(asPacks(10, 6)).toBeNull();
    expect(packsLabel(6, 6)).toBe('1 pack (6)');
    expect(packsLabel(12, 6)).toBe('2 packs (12)');
  });

  it('a SKU typed that is not one', () => {
    expect(skuProblem(' gc101-00001 ')).toBe('');
    expect(skuProblem('GC 101')).toBe('GC 101 is not a SKU: a SKU is letters, digits and hyphens, such as GC101-00001.');
  });
});

describe('refusedLines', () => {
  it("reads the lines of addMany's 409, or null without them", () => {
    const line = { index: 2, sku: 'GC101-00005', code: 'out_of_stock', message: 'GC101-00005 is out of stock' };
    expect(refusedLines({ error: 'x', lines: [line, { junk: true }] })).toEqual([line]);
    expect(refusedLines({ error: 'this basket was just ordered' })).toBeNull();
    expect(refusedLines(null)).toBeNull();
  });
});
