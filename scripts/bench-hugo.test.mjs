// @ts-check
// The Hugo yardstick of the bench (scripts/bench-hugo.mjs): the content files made from a
// snapshot and, where hugo is installed, the pages its templates make from them.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { contentFile, contentName, lowerKeys, writeHugoSite } from './bench-hugo.mjs';
import { SNOW_FLAKES } from '../site/lib/snow-flakes.mjs';
import { readShopConfig } from './build.mjs';
import { scratch } from './release-fixtures.mjs';

const range = {
  url_text: 'wholesale_balloons',
  name: 'Balloons',
  description: 'Foil and latex balloons.',
  path: '/outlet/r/wholesale_balloons/',
  products: 50,
};
const category = {
  id: 601,
  slug: 'foil-balloons',
  name: 'Foil Balloons',
  group: 'Balloons',
  range_url_text: 'wholesale_balloons',
  path: '/outlet/section/foil-balloons/601/',
  products: 50,
};
const card = (i) => ({
  sku: `BL601-${String(i).padStart(5, '0')}`,
  path: `/balloon-${i}/`,
  slug: `balloon-${i}`,
  name: `Balloon ${i}`,
  pack_size: 6,
  unit_price: 95 + i,
  vat_rate: 20,
  in_stock: true,
  small_img: i === 2 ? '' : `/media/products/bl601-${i}-s.svg`,
});
const cards = Array.from({ length: 50 }, (_, i) => card(i + 1));
const product = { ...card(1), description: 'A <b>big</b> balloon.', large_img: '/media/products/bl601-1-l.svg', stock_state: 'low-stock' };
const pages = {
  '/': { kind: 'home', ranges: [range], products: 1234 },
  [range.path]: { kind: 'range', range, categories: [category], featured: cards.slice(0, 8) },
  [category.path]: { kind: 'category', range, category, products: cards },
  [product.path]: { kind: 'product', product, range, category, related: cards.slice(1, 7) },
};

function writeSnapshot(dir) {
  writeFileSync(
    path.join(dir, 'catalogue.json'),
    JSON.stringify({
      products: 50,
      pages: Object.keys(pages),
      product_paths: [product.path],
      menu: { ranges: [range], groups: [{ name: 'Balloons', categories: [category] }] },
    }),
  );
  for (const [p, payload] of Object.entries(pages)) {
    mkdirSync(path.join(dir, 'pages', p), { recursive: true });
    writeFileSync(path.join(dir, 'pages', p, '_payload.json'), JSON.stringify(payload));
  }
}

test('content file names from page paths', () => {
  assert.equal(contentName('/'), '_index.md');
  assert.equal(contentName('/outlet/section/foil-balloons/601/'), 'outlet-section-foil-balloons-601.md');
  assert.equal(contentName('/balloon-1/'), 'balloon-1.md');
  assert.throws(() => contentName('/a b/'), /plain file name/);
});

test('a content file is the payload as JSON front matter, keys in lower case, with the URL and template', () => {
  assert.deepEqual(lowerKeys({ unitPrice: 1, related: [{ smallImg: 'x', packSize: 6 }], n: null }), {
    unitprice: 1,
    related: [{ smallimg: 'x', packsize: 6 }],
    n: null,
  });
  const front = JSON.parse(contentFile(product.path, pages[product.path]));
  assert.equal(front.url, product.path);
  assert.equal(front.layout, 'product');
  assert.equal(front.title, 'Balloon 1');
  assert.equal(front.shop.product.unit_price, 96);
  assert.equal(front.shop.related[0].pack_size, 6);
  const home = JSON.parse(contentFile('/', pages['/']));
  assert.equal(home.url, undefined, "home is Hugo's own home page");
  assert.throws(() => contentFile('/x/', { kind: 'mystery' }), /no template/);
});

test("the logo's snow circles (the site's and the Hugo site's one list) are where the exported header has them", () => {
  const f = SNOW_FLAKES;
  assert.equal(f.length, 50);
  // The first two circles of the exported header: cx 42 cy 36 r 2 a 2.54s, cx 50 cy 37 r 2 b 2.70s.
  assert.deepEqual(f[0], { x: 42, y: 36, size: 2, speed: 'a', delay: '2.54' });
  assert.deepEqual(f[1], { x: 50, y: 37, size: 2, speed: 'b', delay: '2.70' });
});

test('the Hugo site: one content file per page, the menu, the shop details, css and templates', (t) => {
  const snap = scratch(t);
  writeSnapshot(snap);
  const dir = path.join(scratch(t), 'hugo');
  const n = writeHugoSite({ snapshotDir: snap, dir, siteUrl: 'https://shop.example', shop: readShopConfig() });
  assert.equal(n, 4);
  for (const rel of [
    'hugo.toml',
    'content/_index.md',
    'content/outlet-r-wholesale_balloons.md',
    'content/outlet-section-foil-balloons-601.md',
    'content/balloon-1.md',
    'data/menu.json',
    'data/shop.json',
    'assets/globals.css',
    'static/icon.svg',
    'layouts/_default/baseof.html',
  ]) {
    assert.ok(existsSync(path.join(dir, rel)), rel);
  }
  assert.match(readFileSync(path.join(dir, 'hugo.toml'), 'utf8'), /baseURL = "https:\/\/shop\.example\/"/);
});

const hasHugo = (() => {
  try {
    execFileSync('hugo', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test('hugo builds the pages with the shop markup', { skip: !hasHugo && 'no hugo on PATH (scripts/bench hugo installs it)' }, (t) => {
  const snap = scratch(t);
  writeSnapshot(snap);
  const dir = path.join(scratch(t), 'hugo');
  writeHugoSite({ snapshotDir: snap, dir, siteUrl: 'https://shop.example', shop: readShopConfig() });
  execFileSync('hugo', ['--quiet'], { cwd: dir, stdio: 'inherit' });
  const read = (p) => readFileSync(path.join(dir, 'public', p, 'index.html'), 'utf8');
  const lds = (html) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));

  const cat = read(category.path);
  assert.match(cat, /<title>Wholesale Foil Balloons \| TradeShop Wholesale<\/title>/);
  assert.match(cat, /<link rel="canonical" href="https:\/\/shop\.example\/outlet\/section\/foil-balloons\/601\/">/);
  assert.equal(cat.match(/<li class="card"/g)?.length, 48, 'the first 48 cards');
  assert.match(cat, /Showing 1 to 48 of 50 lines/);
  assert.match(
    cat,
    /<span aria-current="page">1<\/span><\/li><li><a aria-label="Page 2" href="\/outlet\/section\/foil-balloons\/601\/\?page=2">2<\/a><\/li><li><a href="[^"]+\?page=2">Next<\/a>/,
  );
  assert.match(cat, /<span class="price" data-pence="96">£0\.96 each \(96p\)<\/span>/);
  assert.match(cat, /data-pence="576">£5\.76<\/span> a pack/);
  assert.match(cat, /alt="No picture" class="no-picture"/, 'a product without a picture gets the placeholder');
  assert.match(cat, /aria-labelledby="menu-601">.*Foil Balloons/, 'the header menu');
  assert.match(cat, /company number 00000000/, 'the footer');
  assert.deepEqual(
    lds(cat)[0].itemListElement.map((i) => i.item),
    ['https://shop.example/', range.path, category.path].map((p) => (p.startsWith('http') ? p : `https://shop.example${p}`)),
  );

  const prod = read(product.path);
  assert.match(prod, /<h1>Balloon 1<\/h1>/);
  assert.match(prod, /<dd>£5\.76 ex VAT \(£6\.91 inc VAT\)<\/dd>/);
  assert.match(prod, /<dd class="stock stock-low-stock">Low stock: order soon<\/dd>/);
  assert.match(prod, /A &lt;b&gt;big&lt;\/b&gt; balloon\./, 'text is escaped');
  assert.equal(prod.match(/<li class="card"/g)?.length, 6, '6 related cards');
  const ld = lds(prod).find((x) => x['@type'] === 'Product');
  assert.equal(ld.offers.price, '0.96');
  assert.equal(ld.offers.availability, 'https://schema.org/LimitedAvailability');
  assert.deepEqual(ld.image, ['https://shop.example/media/products/bl601-1-l.svg']);

  assert.match(read('/'), /1,234 lines in trade packs/);
  assert.equal(read(range.path).match(/<li class="card"/g)?.length, 8);
  // Only the shop's pages: no list, feed or sitemap pages of Hugo's own.
  assert.ok(!existsSync(path.join(dir, 'public', 'index.xml')));
  assert.ok(!existsSync(path.join(dir, 'public', 'sitemap.xml')));
});
