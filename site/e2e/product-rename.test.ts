import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, screenshot, shopURL, signInAs } from './browser';
import { exportedProducts, parseCSV, csvLine, publishCatalogue, slugify } from './catalogue-admin';
import { staffUser } from './staff';

/** Renamed products keep their address (issue 40, docs/catalogue-import.md "Renaming a
 * product"): staff rename a product through the catalogue import and publish; the product's
 * old address then answers a permanent redirect to its new one at the local edge (the
 * release wrote it into the build's route rules, which the CloudFront function applies the
 * same way: builds/edge-test-vectors.json), the new page shows the new name, and the sitemap
 * lists the new address and not the old. Its product is in Meadow Lane Cards (133), a
 * category no other e2e file reads. */

const CATEGORY = 133;

let browser: Browser;
let page: Page;
let staffToken = '';

/** A product's page path: its name's slug and its SKU (catimport's productOf). */
const productPath = (name: string, sku: string) => `/${slugify(name)}-${sku.toLowerCase()}/`;

/** Every page path the sitemap lists: the index's shards, read through the local edge. */
async function sitemapPaths(): Promise<Set<string>> {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!.replaceAll('&amp;', '&')).pathname);
  const index = await fetch(`${shopURL}/sitemap.xml`);
  expect(index.status).toBe(200);
  const paths = new Set<string>();
  for (const shard of locs(await index.text())) {
    const res = await fetch(shopURL + shard);
    expect(res.status, shard).toBe(200);
    for (const p of locs(await res.text())) paths.add(p);
  }
  return paths;
}

beforeAll(async () => {
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const staff = await staffUser();
  staffToken = staff.idToken;
  await signInAs(page, staff);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('a product renamed through the catalogue import', () => {
  let product = { sku: '', oldName: '', newName: '', oldPath: '', newPath: '' };

  it('staff rename a product in a one-row import and apply it', { timeout: 180_000 }, async () => {
    await page.goto(shopURL + '/admin/catalogue/');
    const products = page.getByLabel('Products file (.csv or .jsonl)');
    await expect.poll(() => products.count(), { timeout: 20_000 }).toBe(1);

    const [header, ...rows] = parseCSV(await exportedProducts(page, staffToken));
    if (!header) throw new Error('the export is empty');
    const col = (k: string) => header.indexOf(k);
    const row = rows.find((r) => r[col('category')] === String(CATEGORY) && r[col('status')] === 'active');
    if (!row) throw new Error(`no active product in category ${CATEGORY}`);
    const sku = row[col('sku')]!;
    const oldName = row[col('name')]!;
    const newName = `${oldName} Renamed`;
    product = { sku, oldName, newName, oldPath: productPath(oldName, sku), newPath: productPath(newName, sku) };

    // The product's page is where its name says, before the rename.
    const before = await fetch(shopURL + product.oldPath, { redirect: 'manual' });
    expect(before.status, product.oldPath).toBe(200);

    row[col('name')] = newName;
    row[col('stock')] = ''; // the stock stays as it is
    await products.setInputFiles({ name: 'e2e-rename.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csvLine(header)}\n${csvLine(row)}\n`) });
    await page.getByRole('button', { name: 'Check file' }).click();
    const review = page.getByRole('heading', { name: /^Review: 1 row/ });
    await expect.poll(() => review.count(), { timeout: 60_000 }).toBe(1);
    await expect(page.getByRole('row').filter({ hasText: sku }).textContent()).resolves.toContain(newName);

    await page.getByRole('button', { name: 'Apply import' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Import applied' }).count(), { timeout: 60_000 }).toBe(1);
    await expect(page.locator('.form-ok').filter({ hasText: 'Applied:' }).textContent()).resolves.toBe(
      'Applied: 0 new, 1 changed, 0 discontinued, 0 unchanged.',
    );
  });

  it(
    'after Publish catalogue the old address answers 301 to the new one, the new page shows, and the sitemap lists only the new',
    { timeout: 900_000 },
    async () => {
      expect(product.sku, 'the import above ran').not.toBe('');
      await publishCatalogue(page);

      // A permanent redirect straight to the new address, with or without the slash, the
      // query kept: the edge applies the build's route rules before its trailing-slash rule.
      const moved = await fetch(shopURL + product.oldPath, { redirect: 'manual' });
      expect(moved.status).toBe(301);
      expect(moved.headers.get('location')).toBe(product.newPath);
      const bare = await fetch(`${shopURL}${product.oldPath.slice(0, -1)}?ref=mail`, { redirect: 'manual' });
      expect(bare.status).toBe(301);
      expect(bare.headers.get('location')).toBe(`${product.newPath}?ref=mail`);

      // The browser follows it to the new page, which shows the new name.
      const buyer = await browser.newPage();
      try {
        const res = await buyer.goto(shopURL + product.oldPath);
        expect(res?.status()).toBe(200);
        expect(new URL(buyer.url()).pathname).toBe(product.newPath);
        await expect(buyer.locator('h1').textContent()).resolves.toBe(product.newName);
        await screenshot(buyer, 'product-rename-new-page');
      } finally {
        await buyer.close();
      }

      const listed = await sitemapPaths();
      expect(listed.has(product.newPath), `${product.newPath} in the sitemap`).toBe(true);
      expect(listed.has(product.oldPath), `${product.oldPath} not in the sitemap`).toBe(false);
    },
  );
});
