// @ts-check
// The figures of issue 39's sort and filter (docs/sort-and-filter.md): what each listing's
// filter index (_filter.json) weighs, and how long filtering takes in the browser under
// Lighthouse's mobile CPU slowdown (4x), for the engine alone on a 2,000-product index and
// for a buyer's click on a real range page (the count's text changing).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { capture, root } from './lib.mjs';

/** Median of numbers (the mean of the middle two for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Every _filter.json under dir/pages, with its page path, products, raw and gzip bytes. */
export function indexSizes(snapshotDir) {
  const pagesDir = path.join(snapshotDir, 'pages');
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === '_filter.json') {
        const raw = readFileSync(p);
        const products = JSON.parse(raw.toString('utf8')).products.sku.length;
        out.push({ page: `/${path.relative(pagesDir, dir).split(path.sep).join('/')}/`, products, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length });
      }
    }
  };
  walk(pagesDir);
  return out;
}

/** gzip bytes per hundred products of an index. */
export const per100 = (s) => Math.round((s.gzip / Math.max(1, s.products)) * 100);

/** A filter index of n products made from a real one by repeating its products (each
 * copy's SKU and slug suffixed), so its facets, prices and names are the catalogue's own. */
export function grownIndex(index, n) {
  const cols = index.products;
  const size = cols.sku.length;
  const out = { ...index, products: { ...cols } };
  const grown = /** @type {Record<string, unknown[]>} */ ({});
  for (const [name, col] of Object.entries(cols)) {
    if (!Array.isArray(col)) continue;
    grown[name] = Array.from({ length: n }, (_, i) => {
      const v = col[i % size];
      const copy = Math.floor(i / size);
      return copy > 0 && (name === 'sku' || name === 'slug') ? `${v}-${copy + 1}` : v;
    });
  }
  out.products = { ...cols, ...grown };
  return out;
}

const chromiumFlags = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Times the site's engine (site/lib/listing.ts, bundled by esbuild) in Chromium at 4x CPU
 * slowdown on index: decoding it, the first name sort, then each scenario's applyListing
 * and first page after the sort orders are made, as the page makes them at idle: the first
 * call (a buyer's first click, before the engine is warm), the median and the max of
 * `runs`. Answers ms figures. */
export async function engineTimes(index, { runs = 25 } = {}) {
  const bundle = await capture(path.join(root, 'node_modules', '.bin', 'esbuild'), [
    path.join(root, 'site', 'lib', 'listing.ts'),
    '--bundle',
    '--format=iife',
    '--global-name=Listing',
    '--log-level=error',
  ]);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumFlags });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>filter bench</title>');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.addScriptTag({ content: bundle });
    return await page.evaluate(
      ({ index, runs }) => {
        const L = /** @type {any} */ (globalThis).Listing;
        const now = () => performance.now();
        const facet = (key) => index.facets.find((f) => f.key === key);
        const first = (key, i = 0) => facet(key)?.values[i]?.id;
        const t0 = now();
        const listing = L.decodeListing(index);
        const decode = now() - t0;
        const t1 = now();
        L.sortOrder(listing, 'name');
        const nameSort = now() - t1;
        for (const s of ['newest', 'price', 'price-desc']) L.sortOrder(listing, s);
        const state = (over) => ({ ...L.UNFILTERED, ...over });
        const scenarios = {
          'no filter, featured': state({}),
          'one facet (occasion)': state({ selected: { occasion: [first('occasion')] } }),
          'two facets and a price range, by price': state({
            sort: 'price',
            selected: { occasion: [first('occasion'), first('occasion', 1)], style: [first('style')] },
            min: index.prices[1]?.id ?? '',
            max: index.prices[index.prices.length - 2]?.id ?? '',
          }),
          'three facets, by name': state({ sort: 'name', selected: { recipient: [first('recipient')], pack: [first('pack')], band: [first('band', 1)] } }),
        };
        const out = {};
        for (const [name, s] of Object.entries(scenarios)) {
          const times = [];
          let shown = 0;
          let firstTime = 0;
          for (let i = 0; i < runs; i++) {
            const t = now();
            const r = L.applyListing(listing, s, null);
            L.resultPage(r.order, 1);
            times.push(now() - t);
            if (i === 0) firstTime = times[0];
            shown = r.order.length;
          }
          times.sort((a, b) => a - b);
          out[name] = { first: firstTime, median: times[times.length >> 1], max: times[times.length - 1], shown };
        }
        return { decode, nameSort, scenarios: out };
      },
      { index, runs },
    );
  } finally {
    await browser.close();
  }
}

/** Times a buyer's filter click on a live listing page at 4x CPU slowdown: from the click
 * on a facet's first enabled checkbox to the count's text changing (the grid is drawn in
 * the same commit), median of `runs` clicks, each on a fresh load once the index is in. */
export async function clickTimes(url, { runs = 5 } = {}) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumFlags });
  const times = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const cdp = await page.context().newCDPSession(page);
    for (let i = 0; i < runs; i++) {
      await page.goto(url, { waitUntil: 'load' });
      // The index loads at idle after load; wait for it (the count then names every line).
      await page.waitForResponse((r) => r.url().includes('_filter.json'), { timeout: 30_000 }).catch(() => null);
      await page.waitForTimeout(1000);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const box = page.locator('.listing-filters input[type=checkbox]:not([disabled])').nth(i % 3);
      const ms = await box.evaluate((/** @type {any} */ el) => {
        // Runs in the page: its globals through globalThis (scripts are checked without the DOM types).
        const w = /** @type {any} */ (globalThis);
        const count = w.document.querySelector('[data-testid=listing-count]');
        const before = count?.textContent;
        return new Promise((resolve) => {
          const t = performance.now();
          const obs = new w.MutationObserver(() => {
            if (count?.textContent !== before) {
              obs.disconnect();
              // The next frame: the change painted.
              w.requestAnimationFrame(() => resolve(performance.now() - t));
            }
          });
          if (count) obs.observe(count, { childList: true, characterData: true, subtree: true });
          el.click();
        });
      });
      times.push(/** @type {number} */ (ms));
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    }
  } finally {
    await browser.close();
  }
  return { median: median(times), max: Math.max(...times), runs: times };
}
