import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { emulatorUser, launch, screenshot, shopURL, signInAs } from './browser';
import { grantStaff } from './staff';

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

/** One CSV line of the file: quoted cells where needed, as the export writes them. */
const csvLine = (row: string[]) => row.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',');

/** The rows of a CSV file with quoted cells (no line breaks inside cells in this category). */
function parseCSV(text: string): string[][] {
  return text
    .split(/\r?\n/)
    .filter((l) => l !== '')
    .map((line) => {
      const cells: string[] = [];
      let cell = '';
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        const c = line[i]!;
        if (quoted && c === '"' && line[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (c === '"') quoted = !quoted;
        else if (c === ',' && !quoted) {
          cells.push(cell);
          cell = '';
        } else cell += c;
      }
      cells.push(cell);
      return cells;
    });
}

/** Catalogue.Slugify: lower case, & as "and", anything else not a letter or digit a hyphen. */
const slugify = (s: string) =>
  s
    .toLowerCase()
    .replaceAll('&', '-and-')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

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
  const staff = await emulatorUser();
  await grantStaff(staff.email);
  await signInAs(page, staff);
  const res = await fetch(`http://${process.env.AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: staff.email, password: staff.password, returnSecureToken: true }),
  });
  staffToken = ((await res.json()) as { idToken: string }).idToken;
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

    const got = await page.evaluate(async (token) => {
      const csrf = (await (await fetch('/api/csrf')).json()) as { token: string; header: string };
      const res = await fetch('/api/admin/catalogue/export?file=products', { headers: { Authorization: `Bearer ${token}`, [csrf.header]: csrf.token } });
      return { status: res.status, text: await res.text() };
    }, staffToken);
    expect(got.status, got.text.slice(0, 200)).toBe(200);
    const [header, ...rows] = parseCSV(got.text);
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
      await page.getByRole('button', { name: 'Publish catalogue' }).click();
      const done = page.locator('[role="status"]').filter({ hasText: /^Published: / });
      const failed = page.locator('[role="status"]').filter({ hasText: /^The publish failed/ });
      await expect
        .poll(
          async () =>
            (await failed.count())
              ? `failed: ${await failed.textContent()} ${await page
                  .locator('.publish-log')
                  .textContent()
                  .catch(() => '')}`
              : await done.count(),
          { timeout: 840_000, interval: 5_000 },
        )
        .toBe(1);

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
