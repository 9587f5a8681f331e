// @ts-check
// Renamed products keep their address: the rules that merge and carry forward the release's
// product redirects (product-moves.mjs), and a rename published through the dir target.
// Run: node --test scripts/product-moves.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { mergeProductRedirects, pagePathOf, productSkuOf } from './product-moves.mjs';
import { readExport, sha256 } from './export-manifest.mjs';
import { PHASE, planRelease, publishExport } from './publish.mjs';
import { createDirTarget } from './target-dir.mjs';
import { scratch, writeExport } from './release-fixtures.mjs';

const handWritten = [
  { source: '/christmas/', target: '/outlet/r/wholesale-christmas/', status: 301 },
  { source: '/feedback/', target: 'https://survey.tradeshop.example/feedback', status: 302 },
];

/** A build of the given products (SKU -> path), each a page, and the home page. */
const build = (/** @type {Record<string, string>} */ products, redirects = handWritten) => ({
  redirects,
  products,
  pages: new Set(['/', ...Object.values(products)]),
});

test('a renamed product redirects its old path to the new one, after the hand-written rules', () => {
  const previous = { products: { 'GC1-001': '/red-card-gc1-001/', 'GC1-002': '/blue-card-gc1-002/' }, redirects: handWritten };
  const now = build({ 'GC1-001': '/scarlet-card-gc1-001/', 'GC1-002': '/blue-card-gc1-002/' });
  assert.deepEqual(mergeProductRedirects(now, previous), [
    ...handWritten,
    { source: '/red-card-gc1-001/', target: '/scarlet-card-gc1-001/', status: 301, sku: 'GC1-001' },
  ]);
});

test('nothing moves on a first release, or when no product was renamed', () => {
  const now = build({ 'GC1-001': '/red-card-gc1-001/' });
  assert.deepEqual(mergeProductRedirects(now, null), handWritten);
  assert.deepEqual(mergeProductRedirects(now, { redirects: handWritten }), handWritten, 'a record saved before issue 40 has no products');
  assert.deepEqual(mergeProductRedirects(now, { products: { 'GC1-001': '/red-card-gc1-001/' }, redirects: handWritten }), handWritten);
});

test('a product renamed twice redirects both old paths straight to the newest: no chain', () => {
  const first = { products: { 'GC1-001': '/red-card-gc1-001/' }, redirects: handWritten };
  const second = { products: { 'GC1-001': '/scarlet-card-gc1-001/' }, redirects: mergeProductRedirects(build({ 'GC1-001': '/scarlet-card-gc1-001/' }), first) };
  const third = mergeProductRedirects(build({ 'GC1-001': '/crimson-card-gc1-001/' }), second);
  assert.deepEqual(third.slice(handWritten.length), [
    { source: '/red-card-gc1-001/', target: '/crimson-card-gc1-001/', status: 301, sku: 'GC1-001' },
    { source: '/scarlet-card-gc1-001/', target: '/crimson-card-gc1-001/', status: 301, sku: 'GC1-001' },
  ]);
  const sources = new Set(third.map((r) => r.source));
  for (const r of third) assert.ok(!sources.has(r.target), `${r.source} -> ${r.target} chains`);
});

test('a redirect carries forward while its product lives, and is dropped once it is discontinued', () => {
  const moved = { source: '/red-card-gc1-001/', target: '/scarlet-card-gc1-001/', status: 301, sku: 'GC1-001' };
  const previous = { products: { 'GC1-001': '/scarlet-card-gc1-001/' }, redirects: [...handWritten, moved] };
  assert.deepEqual(
    mergeProductRedirects(build({ 'GC1-001': '/scarlet-card-gc1-001/' }), previous),
    [...handWritten, moved],
    'carried into a build with no rename',
  );
  assert.deepEqual(mergeProductRedirects(build({}), previous), handWritten, 'discontinued: no page to send anyone to');
});

test('a live page is never redirected, and a product renamed back takes its old path again', () => {
  // GC1-002 took the path GC1-001 had (not possible with the SKU in the slug, but a rule all the same).
  const previous = { products: { 'GC1-001': '/card/' }, redirects: handWritten };
  assert.deepEqual(mergeProductRedirects(build({ 'GC1-001': '/card-gc1-001/', 'GC1-002': '/card/' }), previous), handWritten);
  const moved = { source: '/red-card-gc1-001/', target: '/scarlet-card-gc1-001/', status: 301, sku: 'GC1-001' };
  const back = { products: { 'GC1-001': '/scarlet-card-gc1-001/' }, redirects: [moved] };
  assert.deepEqual(mergeProductRedirects(build({ 'GC1-001': '/red-card-gc1-001/' }, []), back), [
    { source: '/scarlet-card-gc1-001/', target: '/red-card-gc1-001/', status: 301, sku: 'GC1-001' },
  ]);
});

test('a hand-written rule for the same source wins; one aimed at an old path is aimed at the new', () => {
  const previous = { products: { 'GC1-001': '/red-card-gc1-001/' }, redirects: [] };
  const mine = [
    { source: '/red-card-gc1-001/', target: '/outlet/r/wholesale-christmas/', status: 302 },
    { source: '/red/', target: '/red-card-gc1-001/', status: 301 },
  ];
  assert.deepEqual(mergeProductRedirects(build({ 'GC1-001': '/scarlet-card-gc1-001/' }, [mine[0]]), previous), [mine[0]]);
  assert.deepEqual(mergeProductRedirects(build({ 'GC1-001': '/scarlet-card-gc1-001/' }, [mine[1]]), previous), [
    { source: '/red/', target: '/scarlet-card-gc1-001/', status: 301 },
    { source: '/red-card-gc1-001/', target: '/scarlet-card-gc1-001/', status: 301, sku: 'GC1-001' },
  ]);
});

test('product pages are known by their payload; page paths by their index.html', () => {
  const payload = Buffer.from('{"kind":"product","product":{"sku":"GC1-001","path":"/red-card-gc1-001/"}}');
  assert.equal(productSkuOf('red-card-gc1-001/_payload.json', payload), 'GC1-001');
  assert.equal(productSkuOf('outlet/r/balloons/_payload.json', Buffer.from('{"kind":"range","range":{}}')), null);
  assert.equal(productSkuOf('red-card-gc1-001/index.txt', payload), null);
  assert.equal(pagePathOf('index.html'), '/');
  assert.equal(pagePathOf('outlet/r/balloons/index.html'), '/outlet/r/balloons/');
  assert.equal(pagePathOf('404.html'), null);
});

/** A product page of an export: its HTML and its payload naming the SKU. */
const productPage = (/** @type {string} */ slug, /** @type {string} */ sku) => ({
  [`${slug}/index.html`]: `<h1>${slug}</h1>`,
  [`${slug}/_payload.json`]: JSON.stringify({ kind: 'product', product: { sku, path: `/${slug}/` } }),
});

test('a rename published to a dir target: the new meta file holds the 301, the record the products', async (t) => {
  const dir = scratch(t);
  const root = path.join(dir, 'release');
  const target = createDirTarget(root);
  const quiet = () => {};
  const a = { id: '20260101T000000Z-aaaaaa', timestamp: Date.UTC(2026, 0, 1), redirects: handWritten };
  const expA = writeExport(path.join(dir, 'a'), { ...a, files: { ...productPage('red-card-gc1-001', 'GC1-001'), ...productPage('pen-st1-001', 'ST1-001') } });
  const recA = await publishExport({ exportDir: expA.dir, target, log: quiet });
  assert.deepEqual(recA.products, { 'GC1-001': '/red-card-gc1-001/', 'ST1-001': '/pen-st1-001/' });
  assert.deepEqual(recA.redirects, handWritten);
  assert.equal(
    readFileSync(path.join(root, 'site', 'builds', 'meta', `${a.id}.json`), 'utf8'),
    expA.files[`builds/meta/${a.id}.json`],
    'nothing moved: the export meta as it is',
  );

  const b = { id: '20260102T000000Z-bbbbbb', timestamp: Date.UTC(2026, 0, 2), redirects: handWritten };
  const expB = writeExport(path.join(dir, 'b'), {
    ...b,
    files: { ...productPage('scarlet-card-gc1-001', 'GC1-001'), ...productPage('pen-st1-001', 'ST1-001') },
  });
  // The plan (a dry-run's too) puts the rule into the KeyValueStore as any other (aws).
  const plan = planRelease(await readExport(expB.dir), await target.state());
  const edge = plan.phases.find((ph) => ph.name === PHASE.edge);
  assert.ok(edge && 'rules' in edge);
  assert.deepEqual(
    edge.rules.find((r) => r.key === `r:${b.id}:/red-card-gc1-001/`),
    { key: `r:${b.id}:/red-card-gc1-001/`, value: '{"target":"/scarlet-card-gc1-001/","status":301}' },
  );
  assert.equal(
    readFileSync(path.join(expB.dir, 'builds', 'meta', `${b.id}.json`), 'utf8'),
    expB.files[`builds/meta/${b.id}.json`],
    'the export is not changed',
  );
  const recB = await publishExport({ exportDir: expB.dir, target, log: quiet });
  const moved = { source: '/red-card-gc1-001/', target: '/scarlet-card-gc1-001/', status: 301, sku: 'GC1-001' };
  assert.deepEqual(recB.redirects, [...handWritten, moved]);
  const meta = JSON.parse(readFileSync(path.join(root, 'site', 'builds', 'meta', `${b.id}.json`), 'utf8'));
  assert.deepEqual(meta.redirects, [...handWritten, moved]);
  assert.equal(meta.id, b.id);
  assert.deepEqual(JSON.parse(readFileSync(path.join(root, 'releases', `${b.id}.json`), 'utf8')).products, recB.products);
  // The record's entry for the meta file is the published bytes' (a rollback restores them).
  const published = readFileSync(path.join(root, 'site', 'builds', 'meta', `${b.id}.json`));
  assert.equal(recB.files[`builds/meta/${b.id}.json`].sha256, sha256(published));
});
