// @ts-check
// The publish bench's CSV round trip: the catalogue export read and a change written back.
// Run: node --test scripts/bench-publish.test.mjs
import assert from 'node:assert/strict';
import test from 'node:test';
import { parseCSV as parseCsv } from '../site/lib/csv.mjs';
import { writeCsv } from './bench-publish.mjs';

test('the export CSV reads back as written: quoted commas, quotes and line breaks', () => {
  const rows = [
    ['sku', 'name', 'description', 'unit_price'],
    ['GC1-001', 'Red Card', 'Bright, bold "red"\nin packs of 6', '1.10'],
    ['GC1-002', 'Blue Card', '', '0.85'],
  ];
  assert.deepEqual(parseCsv(writeCsv(rows)), rows);
  assert.deepEqual(parseCsv('a,b\r\n1,"2,3"\r\n'), [
    ['a', 'b'],
    ['1', '2,3'],
  ]);
});
