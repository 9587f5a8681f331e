// @ts-check
// Publishing in proportion to change (partial.mjs): which kind of build a release makes and
// which pages it renders, and the release of a partial export, which carries every other
// page from the target's current release (a rename among them).
// Run: node --test scripts/partial.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { writeSitemaps } from './build.mjs';
import { readExport, sha256, sitemapPages } from './export-manifest.mjs';
import { carriedDigest, describePages, inputsChange, pageDir, pageOfFile, planPages, siteInputs, withCarriedPages, withEveryRoute } from './partial.mjs';
import { publishExport } from './publish.mjs';
import { createDirTarget } from './target-dir.mjs';
import { read, recording, scratch, storedForm, writeExport } from './release-fixtures.mjs';

/** @typedef {import('./target-state.mjs').ReleaseRecord} ReleaseRecord */

const menu = {
  ranges: [{ name: 'Balloons', path: '/outlet/r/balloons/', products: 2 }],
  groups: [{ name: 'Party', categories: [{ id: 601, name: 'Foil Balloons', path: '/outlet/section/foil/601/', products: 2 }] }],
};
const inputs = siteInputs({ code: 'code-1', menu, now: new Date(Date.UTC(2026, 10, 27, 12)) });

/** A manifest entry with the given hash. */
const entry = (/** @type {string} */ sha) => ({
  sha256: sha,
  size: 1,
  cacheControl: 'public, max-age=0, s-maxage=60',
  contentType: 'text/html; charset=utf-8',
});

/** A current release of the given pages (path -> payload hash, filter hash), every page with its HTML. */
function release(/** @type {Record<string, [string, string | null]>} */ pages, extra = {}) {
  /** @type {ReleaseRecord['files']} */
  const files = { '404.html': entry('shell') };
  for (const [page, [payload, filter]] of Object.entries(pages)) {
    files[`${pageDir(page)}index.html`] = entry(`html of ${page}`);
    files[`${pageDir(page)}_payload.json`] = entry(payload);
    if (filter) files[`${pageDir(page)}_filter.json`] = entry(filter);
  }
  const products = Object.fromEntries(
    Object.keys(pages)
      .filter((p) => !p.startsWith('/outlet/') && p !== '/')
      .map((p) => [`SKU${p}`, p]),
  );
  return { id: 'r1', timestamp: 1, redirects: [], files, products, inputs, ...extra };
}

const current = release({
  '/': ['home', null],
  '/outlet/r/balloons/': ['range', 'rf'],
  '/outlet/section/foil/601/': ['cat', 'cf'],
  '/red-balloon-bl1/': ['red', null],
  '/blue-balloon-bl2/': ['blue', null],
  '/gone-bl3/': ['gone', null],
});

/** The snapshot's pages: path -> [payload hash, filter hash, forward dates]. */
const snapshot = (/** @type {Record<string, [string, string | null, ({ order_by: string } | null)?]>} */ pages) =>
  new Map(Object.entries(pages).map(([p, [payload, filter, forward]]) => [p, { payload, filter, forward: forward ?? null }]));

const same = {
  '/': /** @type {[string, null]} */ (['home2', null]),
  '/outlet/r/balloons/': /** @type {[string, string]} */ (['range', 'rf']),
  '/outlet/section/foil/601/': /** @type {[string, string]} */ (['cat', 'cf']),
  '/red-balloon-bl1/': /** @type {[string, null]} */ (['red', null]),
  '/blue-balloon-bl2/': /** @type {[string, null]} */ (['blue', null]),
  '/gone-bl3/': /** @type {[string, null]} */ (['gone', null]),
};

test('which kind of build, and why', () => {
  const cases = [
    { name: 'nothing changed: partial, the home page only', args: { pages: snapshot(same) }, kind: 'partial', render: ['/'], reason: '0 of 6 pages changed' },
    {
      name: 'a price: the product and its category',
      args: { pages: snapshot({ ...same, '/red-balloon-bl1/': ['red2', null], '/outlet/section/foil/601/': ['cat2', 'cf2'] }) },
      kind: 'partial',
      render: ['/', '/outlet/section/foil/601/', '/red-balloon-bl1/'],
      reason: '2 of 6 pages changed (1 product, 1 category)',
    },
    {
      name: 'a filter index alone',
      args: { pages: snapshot({ ...same, '/outlet/r/balloons/': ['range', 'rf2'] }) },
      kind: 'partial',
      render: ['/', '/outlet/r/balloons/'],
      reason: '1 of 6 pages changed (1 range)',
    },
    {
      name: 'a rename: a new page and a removed one',
      args: {
        pages: snapshot({ ...Object.fromEntries(Object.entries(same).filter(([p]) => p !== '/red-balloon-bl1/')), '/scarlet-balloon-bl1/': ['red', null] }),
      },
      kind: 'partial',
      render: ['/', '/scarlet-balloon-bl1/'],
      removed: ['/red-balloon-bl1/'],
      reason: '2 of 6 pages changed (1 product; 1 product removed)',
    },
    {
      name: 'a forward product whose pre-order closed since the current release',
      args: {
        pages: snapshot({ ...same, '/blue-balloon-bl2/': ['blue', null, { order_by: '2026-11-26' }] }),
        current: { ...current, inputs: { ...inputs, day: '2026-11-20' } },
      },
      kind: 'partial',
      render: ['/', '/blue-balloon-bl2/'],
    },
    {
      name: 'a forward product still open',
      args: {
        pages: snapshot({ ...same, '/blue-balloon-bl2/': ['blue', null, { order_by: '2026-12-31' }] }),
        current: { ...current, inputs: { ...inputs, day: '2026-11-20' } },
      },
      kind: 'partial',
      render: ['/'],
    },
    {
      name: 'more than half the pages',
      args: {
        pages: snapshot({
          ...same,
          '/red-balloon-bl1/': ['x', null],
          '/blue-balloon-bl2/': ['y', null],
          '/gone-bl3/': ['z', null],
          '/outlet/r/balloons/': ['w', 'rf'],
        }),
      },
      kind: 'full',
      reason: '4 of 6 pages changed (3 products, 1 range): more than 50% of the pages',
    },
    { name: '--full', args: { pages: snapshot(same), full: true }, kind: 'full', reason: '--full' },
    { name: 'no current release', args: { pages: snapshot(same), current: null }, kind: 'full', reason: 'the target has no current release' },
    {
      name: 'a record without inputs',
      args: { pages: snapshot(same), current: { ...current, inputs: undefined } },
      kind: 'full',
      reason: /records no site inputs/,
    },
    {
      name: 'a record without products',
      args: { pages: snapshot(same), current: { ...current, products: undefined } },
      kind: 'full',
      reason: /no product paths/,
    },
    {
      name: 'new code',
      args: { pages: snapshot(same), inputs: { ...inputs, code: 'code-2' } },
      kind: 'full',
      reason: 'the code version changed (code-1 to code-2)',
    },
    {
      name: 'a release that did not finish',
      args: { pages: snapshot(same), unfinished: 1 },
      kind: 'full',
      reason: '1 release to the target started and did not finish',
    },
  ];
  for (const c of cases) {
    const plan = planPages({ inputs, current, ...c.args });
    assert.equal(plan.kind, c.kind, c.name);
    if (c.reason instanceof RegExp) assert.match(plan.reason, c.reason, c.name);
    else if (c.reason) assert.equal(plan.reason, c.reason, c.name);
    if (plan.kind === 'partial') {
      assert.deepEqual([...plan.render].sort(), c.render, c.name);
      assert.deepEqual(plan.removed, c.removed ?? [], c.name);
      assert.equal(plan.render.length - 1 + plan.carried.length, c.args.pages.size - 1, `${c.name}: every page rendered or carried`);
    }
  }
});

test('site inputs: a count in the menu is not one, a name, a path or the year is', () => {
  const counted = { ...menu, ranges: [{ ...menu.ranges[0], products: 3 }] };
  assert.equal(inputsChange(inputs, siteInputs({ code: 'code-1', menu: counted, now: new Date(Date.UTC(2026, 10, 28)) })), null, 'another count, another day');
  const renamed = { ...menu, ranges: [{ ...menu.ranges[0], name: 'Party Balloons' }] };
  assert.equal(inputsChange(inputs, siteInputs({ code: 'code-1', menu: renamed })), "the header menu's ranges or categories changed");
  assert.equal(inputsChange(inputs, siteInputs({ code: 'code-1', menu, now: new Date(Date.UTC(2027, 0, 1, 12)) })), "the footer's year changed (2026 to 2027)");
  assert.equal(inputs.day, '2026-11-27');
});

test('page folders, page kinds and the routes a partial build must not leave empty', () => {
  assert.equal(pageOfFile('index.html'), '/');
  assert.equal(pageOfFile('outlet/section/foil/601/_filter.json'), '/outlet/section/foil/601/');
  assert.equal(pageOfFile('red-balloon-bl1/index.txt'), '/red-balloon-bl1/');
  assert.equal(describePages(['/a/', '/b/', '/outlet/section/x/1/', '/outlet/r/y/']), '2 products, 1 category, 1 range');
  const pages = ['/', '/outlet/r/b/', '/outlet/r/a/', '/outlet/section/x/1/', '/p/'];
  assert.deepEqual(withEveryRoute(['/', '/p/'], pages), ['/', '/p/', '/outlet/r/a/', '/outlet/section/x/1/']);
  assert.deepEqual(withEveryRoute(['/', '/outlet/r/b/', '/outlet/section/x/1/'], pages), ['/', '/outlet/r/b/', '/outlet/section/x/1/']);
});

test('sitemaps list every page and read back as written', (t) => {
  const dir = scratch(t);
  const pages = ['/', '/a-&-b/', '/outlet/section/x/1/'];
  writeSitemaps(dir, 'https://shop.example', pages, '2026-11-27', 2);
  const read = ['sitemaps/sitemap-1.xml', 'sitemaps/sitemap-2.xml'].flatMap((f) =>
    sitemapPages(readFileSync(path.join(dir, f), 'utf8'), 'https://shop.example'),
  );
  assert.deepEqual(read.sort(), [...pages].sort());
});

/** An export file set for a page: its HTML, RSC and payload. */
const pageFiles = (/** @type {string} */ page, /** @type {string} */ payload, html = `<h1>${page}</h1>`) => ({
  [`${pageDir(page)}index.html`]: html,
  [`${pageDir(page)}index.txt`]: `rsc ${page}`,
  [`${pageDir(page)}_payload.json`]: payload,
});
const product = (/** @type {string} */ sku, /** @type {string} */ page, price = 100) =>
  JSON.stringify({ kind: 'product', product: { sku, path: page, price } });
const siteUrl = 'http://127.0.0.1:8080';

/** A sitemap shard listing the pages, as build.mjs writes it. */
const sitemap = (/** @type {string[]} */ pages) => ({
  'sitemaps/sitemap-1.xml': `<urlset>${pages.map((p) => `<url><loc>${siteUrl}${p}</loc></url>`).join('')}</urlset>`,
});

test('a partial release carries the pages it did not render, removes the renamed one and writes its 301', async (t) => {
  const dir = scratch(t);
  const root = path.join(dir, 'release');
  const target = createDirTarget(root);
  const quiet = () => {};
  const fullPages = {
    ...pageFiles('/red-card-gc1-001/', product('GC1-001', '/red-card-gc1-001/')),
    ...pageFiles('/pen-st1-001/', product('ST1-001', '/pen-st1-001/')),
    ...pageFiles('/outlet/section/cards/101/', '{"kind":"category","cards":["GC1-001"]}'),
  };
  const a = { id: '20260101T000000Z-aaaaaa', timestamp: Date.UTC(2026, 0, 1) };
  const all = ['/', '/red-card-gc1-001/', '/pen-st1-001/', '/outlet/section/cards/101/'];
  const metaA = { ...a, redirects: [], siteUrl, inputs };
  const expA = writeExport(path.join(dir, 'a'), { ...a, files: { ...fullPages, ...sitemap(all), [`builds/meta/${a.id}.json`]: JSON.stringify(metaA) } });
  const recA = await publishExport({ exportDir: expA.dir, target, log: quiet });
  assert.deepEqual(recA.inputs, inputs, 'the record keeps the site inputs the next build compares');

  // The rename: GC1-001's page moves; its category page changes; the pen's page does not.
  const b = { id: '20260102T000000Z-bbbbbb', timestamp: Date.UTC(2026, 0, 2) };
  const allB = ['/', '/scarlet-card-gc1-001/', '/pen-st1-001/', '/outlet/section/cards/101/'];
  const carried = ['/pen-st1-001/'];
  const digest = carriedDigest(carried, (rel) => recA.files[rel]?.sha256);
  const metaB = { ...b, redirects: [], siteUrl, inputs, partial: { base: a.id, carried: 1, digest } };
  const expB = writeExport(path.join(dir, 'b'), {
    ...b,
    files: {
      ...pageFiles('/scarlet-card-gc1-001/', product('GC1-001', '/scarlet-card-gc1-001/')),
      ...pageFiles('/outlet/section/cards/101/', '{"kind":"category","cards":["GC1-001 scarlet"]}'),
      ...sitemap(allB),
      [`builds/meta/${b.id}.json`]: JSON.stringify(metaB),
    },
  });
  // The release stores pages gzip-compressed (target-dir.mjs: {path}.gz in the site folder).
  const siteDir = path.join(root, 'site');
  assert.equal(storedForm(siteDir, 'pen-st1-001/index.html'), 'gzip');
  const pen = readFileSync(path.join(siteDir, 'pen-st1-001', 'index.html.gz'));
  const rec = recording(target);
  const recB = await publishExport({ exportDir: expB.dir, target: rec.target, log: quiet });
  const site = (/** @type {string} */ rel) => path.join(siteDir, rel);
  assert.deepEqual(readFileSync(site('pen-st1-001/index.html.gz')), pen, 'a carried page keeps its bytes, compressed');
  assert.equal(read(siteDir, 'pen-st1-001/index.html'), '<h1>/pen-st1-001/</h1>');
  assert.equal(recB.files['pen-st1-001/index.txt'].sha256, recA.files['pen-st1-001/index.txt'].sha256, 'and every file of its folder is in the manifest');
  assert.deepEqual(recB.files['pen-st1-001/index.html'], recA.files['pen-st1-001/index.html'], 'as the current release stored it: gzip, its stored size');
  assert.equal(recB.files['pen-st1-001/index.html'].contentEncoding, 'gzip');
  const puts = rec.events.filter((e) => e.startsWith('end put ')).map((e) => e.slice(8));
  assert.deepEqual(
    puts.filter((p) => p.startsWith('pen-st1-001/')),
    [],
    'no carried file is written again',
  );
  assert.equal(storedForm(siteDir, 'scarlet-card-gc1-001/index.html'), 'gzip');
  assert.equal(storedForm(siteDir, 'red-card-gc1-001/index.html'), null, 'the old page is removed, in both forms');
  assert.deepEqual(recB.products, { 'GC1-001': '/scarlet-card-gc1-001/', 'ST1-001': '/pen-st1-001/' }, 'the record names every product, carried ones too');
  const meta = JSON.parse(readFileSync(site(`builds/meta/${b.id}.json`), 'utf8'));
  assert.deepEqual(meta.redirects, [{ source: '/red-card-gc1-001/', target: '/scarlet-card-gc1-001/', status: 301, sku: 'GC1-001' }]);
  assert.deepEqual(
    Object.keys(recB.files).filter((f) => !f.startsWith('builds/')),
    Object.keys(recB.files)
      .filter((f) => !f.startsWith('builds/'))
      .filter((f) => storedForm(siteDir, f) !== null),
    'the manifest is what the site holds',
  );
  assert.equal(recB.files['outlet/section/cards/101/_payload.json'].sha256, sha256(Buffer.from('{"kind":"category","cards":["GC1-001 scarlet"]}')));
});

test('a partial export is refused where the current release cannot supply its other pages', async (t) => {
  const dir = scratch(t);
  const id = '20260102T000000Z-bbbbbb';
  const cur = release({ '/': ['home', null], '/pen-st1-001/': ['pen', null] });
  const digest = carriedDigest(['/pen-st1-001/'], (rel) => cur.files[rel]?.sha256);
  const exportWith = async (/** @type {string} */ name, /** @type {object} */ partial, meta = {}) =>
    readExport(
      writeExport(path.join(dir, name), {
        id,
        timestamp: 2,
        files: {
          ...sitemap(['/', '/pen-st1-001/']),
          [`builds/meta/${id}.json`]: JSON.stringify({ id, timestamp: 2, redirects: [], siteUrl, inputs, partial, ...meta }),
        },
      }).dir,
    );
  const good = await exportWith('good', { base: 'r1', carried: 1, digest });
  assert.equal(Object.keys(withCarriedPages(good, cur).files).filter((f) => f.startsWith('pen-')).length, 2, 'carried: its HTML and payload');
  const cases = [
    { name: 'no current release', exp: good, current: null, error: /has no current release/ },
    {
      name: 'other inputs',
      exp: await exportWith('code', { base: 'r1', carried: 1, digest }, { inputs: { ...inputs, code: 'code-9' } }),
      current: cur,
      error: /code version changed/,
    },
    {
      name: 'another release since',
      exp: good,
      current: release({ '/': ['home', null], '/pen-st1-001/': ['pen2', null] }),
      error: /does not hold the pages the build left out/,
    },
    { name: 'a page missing', exp: good, current: release({ '/': ['home', null] }), error: /lacks 1 page/ },
    {
      name: 'a file a release that did not finish wrote',
      exp: good,
      current: cur,
      unfinished: [{ ...cur, id: 'r2', files: { 'pen-st1-001/_payload.json': entry('other') } }],
      error: /did not finish/,
    },
  ];
  for (const c of cases) assert.throws(() => withCarriedPages(c.exp, c.current, c.unfinished), c.error, c.name);
});
