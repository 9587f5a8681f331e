import { describe, expect, it } from 'vitest';
import {
  MAX_IMPORT_BYTES,
  MAX_PICTURE_BYTES,
  appliedSentence,
  catalogueExportName,
  changesNothing,
  decodeImportFile,
  fieldChangeText,
  importFileProblem,
  importSizeProblem,
  kindWord,
  moreProblems,
  pictureProblem,
  problemWhere,
  productCounts,
  publishSentence,
  structureCounts,
  uploadProgress,
  type ImportPlan,
  type PublishStatus,
} from './catalogue-import';

const plan = (over: Partial<ImportPlan> = {}): ImportPlan => ({
  job: 'a'.repeat(24),
  full: false,
  rows: 3,
  new: 1,
  changed: 1,
  discontinued: 0,
  unchanged: 1,
  new_ranges: 0,
  changed_ranges: 0,
  new_categories: 0,
  changed_categories: 0,
  first: [],
  ...over,
});

describe('the catalogue import page', () => {
  it('refuses a picture the upload would refuse, before sending it', () => {
    expect(pictureProblem({ name: 'robin.png', size: 1000, type: 'image/png' })).toBeNull();
    expect(pictureProblem({ name: 'robin.webp', size: MAX_PICTURE_BYTES, type: 'image/webp' })).toBeNull();
    expect(pictureProblem({ name: 'robin.gif', size: 1000, type: 'image/gif' })).toBe('robin.gif is not a JPEG, PNG or WebP picture.');
    expect(pictureProblem({ name: 'robin.jpg', size: 0, type: 'image/jpeg' })).toBe('robin.jpg is empty.');
    expect(pictureProblem({ name: 'big.jpg', size: MAX_PICTURE_BYTES + 1, type: 'image/jpeg' })).toMatch(
      /^big\.jpg is 4\.0 MB; the most a picture uploaded here may be is 4 MB\./,
    );
  });

  it('takes .csv and .jsonl files (any case), not spreadsheets', () => {
    expect(importFileProblem({ name: 'Products.CSV', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'products.jsonl', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'products.xlsx', size: 10 })).toBe('products.xlsx is not a .csv or .jsonl file.');
    expect(importFileProblem({ name: 'products.csv', size: 0 })).toBe('products.csv is empty.');
  });

  it("reads UTF-8 (a byte-order mark dropped) and refuses anything else with the import's advice", () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('sku,name\nA1,Café\n')]);
    expect(decodeImportFile('p.csv', bom)).toEqual({ text: 'sku,name\nA1,Café\n' });
    const latin1 = new Uint8Array([...new TextEncoder().encode('sku,name\nA1,Caf'), 0xe9, 0x0a]);
    expect(decodeImportFile('p.csv', latin1)).toEqual({ problem: 'p.csv is not UTF-8 text; save the file as "CSV UTF-8" and choose it again.' });
  });

  it('says when the files are over what one request takes, counting them as sent', () => {
    expect(importSizeProblem({ products: { name: 'p.csv', text: 'x'.repeat(1000) } })).toBeNull();
    // Quotes are escaped in JSON: a file just under the limit can be over it as sent.
    const quoted = '"'.repeat(MAX_IMPORT_BYTES / 2 + 10);
    expect(importSizeProblem({ products: { name: 'p.csv', text: quoted } })).toMatch(
      /^The files come to 5\.0 MB; the back office takes at most 5 MB at once\. Import a bigger catalogue with scripts\/catalogue import/,
    );
  });

  it('counts the pictures as it uploads them', () => {
    expect(uploadProgress(0, 12)).toBe('Uploading pictures 1 of 12…');
    expect(uploadProgress(2, 12)).toBe('Uploading pictures 3 of 12…');
    expect(uploadProgress(12, 12)).toBe('Uploading pictures 12 of 12…');
  });

  it('says what an apply did', () => {
    expect(productCounts(plan())).toBe('1 new, 1 changed, 0 discontinued, 1 unchanged');
    expect(appliedSentence(plan())).toBe('Applied: 1 new, 1 changed, 0 discontinued, 1 unchanged.');
    expect(appliedSentence(plan({ new_categories: 2, changed_ranges: 1 }))).toBe(
      'Applied: 1 new, 1 changed, 0 discontinued, 1 unchanged; ranges: 0 new, 1 changed; categories: 2 new, 0 changed.',
    );
    expect(structureCounts(plan())).toBe('');
    const none = plan({ new: 0, changed: 0, unchanged: 1200 });
    expect(changesNothing(none)).toBe(true);
    expect(appliedSentence(none)).toBe('Nothing to change: the file matches the catalogue (1,200 products unchanged).');
    expect(changesNothing(plan({ new: 0, changed: 0, discontinued: 10 }))).toBe(false);
  });

  it('says where a problem is and how many more there are', () => {
    expect(problemWhere({ line: 212, column: 'pack size', message: 'The pack size must be a whole number from 1 to 1000 (found "0").' })).toBe(
      'line 212, pack size',
    );
    expect(problemWhere({ line: 1, column: 'SKU', message: 'The SKU column is missing from the header.' })).toBe('header (line 1), SKU');
    expect(problemWhere({ line: 0, message: 'The file is empty.' })).toBe('whole file');
    expect(moreProblems(200, 200)).toBe('');
    expect(moreProblems(1450, 200)).toBe('…and 1,250 more');
  });

  it('shows a change as before → after', () => {
    expect(fieldChangeText({ field: 'unit price', before: '1.00', after: '1.25' })).toBe('unit price: 1.00 → 1.25');
    expect(fieldChangeText({ field: 'barcode', before: '', after: '5012345678900' })).toBe('barcode: (none) → 5012345678900');
    expect(fieldChangeText({ field: 'description', before: 'x'.repeat(100), after: 'y' })).toBe(`description: ${'x'.repeat(80)}… → y`);
    expect([kindWord('new'), kindWord('changed'), kindWord('discontinued')]).toEqual(['New', 'Changed', 'Discontinued']);
  });

  it('names an export for the London day', () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST).
    expect(catalogueExportName('products', Date.UTC(2026, 5, 30, 23, 30))).toBe('catalogue-products-2026-07-01.csv');
    expect(catalogueExportName('categories', Date.UTC(2026, 11, 31, 23, 30))).toBe('catalogue-categories-2026-12-31.csv');
  });

  it('says how a publish is going', () => {
    const status = (s: Partial<PublishStatus> & Pick<PublishStatus, 'state'>): PublishStatus => ({
      started_at: null,
      finished_at: null,
      by: '',
      build_id: '',
      message: '',
      log: [],
      ...s,
    });
    expect(publishSentence(status({ state: 'done', build_id: 'b-20261124-1' }))).toBe('Published: build b-20261124-1 is live.');
    expect(publishSentence(status({ state: 'failed', message: 'next build exited with 1.' }))).toBe(
      'The publish failed: next build exited with 1. The catalogue pages are as they were; try again, or ask a release engineer.',
    );
    expect(publishSentence(status({ state: 'running' }))).toMatch(/^Publishing the catalogue…/);
    expect(publishSentence(status({ state: 'running', message: "installing the site's packages (step 6 of 11: PRE_BUILD)" }))).toBe(
      "Publishing the catalogue… Installing the site's packages (step 6 of 11: PRE_BUILD). This builds the whole site and takes a few minutes; you can leave this page.",
    );
    expect(publishSentence(status({ state: 'idle' }))).toMatch(/change when the catalogue is published/);
  });
});
