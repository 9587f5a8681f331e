import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launch, screenshot, shopURL, signInAs } from './browser';
import { csvLine, exportedProducts, parseCSV, publishCatalogue, slugify } from './catalogue-admin';
import { staffUser } from './staff';

/** The catalogue import end to end (docs/back-office.md "Catalogue", docs/catalogue-import.md):
 * staff open /admin/catalogue/, upload a file with one new product (and its picture) and one
 * price change, check it, see the review, apply it, then publish the catalogue and find the
 * new product's page with its picture and the new price on the category page. Its
 * products are in Blue Heron Art (135), a category no other e2e file reads. */

const CATEGORY = { id: 135, path: '/outlet/section/blue-heron-art/135/' };

let browser: Browser;
let page: Page;
let staffToken = '';

/** A PNG of side × side pixels, a diagonal blend of two colours (8-bit RGB). */
function picture(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows: Buffer[] = [];
  for (let y = 0; y < side; y++) {
    const row = Buffer.alloc(1 + 3 * side);
    for (let x = 0; x < side; x++) {
      const t = (x + y) / (2 * side);
      row.set([Math.round(20 + 200 * t), Math.round(110 - 60 * t), Math.round(190 - 150 * t)], 1 + 3 * x);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Pounds as the import reads them: 125 is "1.25". */
const pounds = (pence: number) => `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')}`;

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

describe('the catalogue import in the back office', () => {
  const sku = `E2E-${Date.now().toString(36).toUpperCase()}`;
  const name = 'Kingfisher Riverbank Art Card';
  const newPrice = 137; // £1.37 a unit
  let changed = { sku: '', name: '', before: 0, after: 0 };

  it('staff upload a new product with its picture and a price change, check it, review it and apply it', { timeout: 180_000 }, async () => {
    await page.goto(shopURL + '/admin/catalogue/');
    const products = page.getByLabel('Products file (.csv or .jsonl)');
    await expect.poll(() => products.count(), { timeout: 20_000 }).toBe(1);
    await expect(page.locator('.admin-nav').getByRole('link', { name: 'Catalogue', exact: true }).getAttribute('aria-current')).resolves.toBe('page');

    // The file: the export's header, the new product, and a product of the category with
    // its price moved (its stock cell left empty: the stock stays as it is).
    const [header, ...rows] = parseCSV(await exportedProducts(page, staffToken));
    if (!header) throw new Error('the export is empty');
    const col = (k: string) => header.indexOf(k);
    const row = rows.find((r) => r[col('category')] === String(CATEGORY.id) && r[col('status')] === 'active');
    if (!row) throw new Error(`no active product in category ${CATEGORY.id}`);
    const before = Math.round(Number(row[col('unit_price')]) * 100);
    changed = { sku: row[col('sku')]!, name: row[col('name')]!, before, after: before + 11 };
    row[col('unit_price')] = pounds(changed.after);
    row[col('stock')] = '';
    const added = header.map(
      (k) =>
        ({
          sku,
          name,
          description: 'A kingfisher on a riverbank, printed on recycled board.',
          category: String(CATEGORY.id),
          pack_size: '6',
          unit_price: pounds(newPrice),
          vat_rate: '20',
          stock: '120',
          status: 'active',
          image: 'kingfisher.png',
        })[k] ?? '',
    );
    const file = [csvLine(header), csvLine(added), csvLine(row)].join('\n') + '\n';

    await products.setInputFiles({ name: 'e2e-products.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await page.getByLabel('Pictures (JPEG, PNG or WebP; optional)').setInputFiles([{ name: 'kingfisher.png', mimeType: 'image/png', buffer: picture(400) }]);
    await page.getByRole('button', { name: 'Check file' }).click();

    // The review: 1 new, 1 changed, the price change shown; nothing written yet.
    const review = page.getByRole('heading', { name: /^Review: 2 rows/ });
    await expect.poll(() => review.count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toMatch(/^Review: 2 rows/);
    await expect(page.locator('main [role="status"]').filter({ hasText: 'The import would make' }).textContent()).resolves.toBe(
      'The import would make 1 new, 1 changed, 0 discontinued, 0 unchanged.',
    );
    const changeRow = page.getByRole('row').filter({ hasText: changed.sku });
    await expect(changeRow.textContent()).resolves.toContain(`unit price: ${pounds(changed.before)} → ${pounds(changed.after)}`);
    await expect(page.getByRole('row').filter({ hasText: sku }).textContent()).resolves.toContain('New');
    await screenshot(page, 'catalogue-import-review');
    expect(await axeViolations(page)).toEqual([]);

    // Apply, from the keyboard: the result's heading takes the focus.
    await page.getByRole('button', { name: 'Apply import' }).focus();
    await page.keyboard.press('Enter');
    const result = page.getByRole('heading', { name: 'Import applied' });
    await expect.poll(() => result.count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toBe('Import applied');
    await expect(page.locator('.form-ok').filter({ hasText: 'Applied:' }).textContent()).resolves.toBe(
      'Applied: 1 new, 1 changed, 0 discontinued, 0 unchanged.',
    );
    await screenshot(page, 'catalogue-import-applied');
  });

  it(
    "Publish catalogue builds and publishes the site: the new product's page has its name, price and picture; the category page the new price",
    { timeout: 900_000 },
    async () => {
      expect(changed.sku, 'the import above ran').not.toBe('');
      await publishCatalogue(page);
      await screenshot(page, 'catalogue-import-published');
      // A second build of the same code: no page names the build, so the pages whose data
      // did not change are byte-identical and the release skips them; it uploads the ones
      // the import (and earlier tests' orders) changed: 1,499 of 9,300 files on 27 November
      // 2026. A build id or time in every page would upload them all. The publish's last
      // lines hold the release's count, as in
      // release: 3/9 pages and payloads: 24 files, 637.8 kB uploaded, 9,272 unchanged (0.0s)
      const log = (await page.locator('.publish-log').textContent()) ?? '';
      const pages = log.match(/pages and payloads: ([\d,]+) files?, [^,\n]* uploaded(?:, ([\d,]+) unchanged)?/);
      expect(pages, log).not.toBeNull();
      const uploaded = Number(pages![1]!.replace(/,/g, ''));
      const skipped = Number((pages![2] ?? '0').replace(/,/g, ''));
      expect(uploaded).toBeGreaterThan(0); // the new product's page at least
      expect(skipped).toBeGreaterThan(6000);

      const product = await browser.newPage();
      try {
        const res = await product.goto(`${shopURL}/${slugify(name)}-${sku.toLowerCase()}/`);
        expect(res?.status()).toBe(200);
        await expect(product.locator('h1').textContent()).resolves.toBe(name);
        await expect(product.locator('.product .price').first().textContent()).resolves.toBe('£1.37 each');
        const img = product.locator('.product img[src*="/media/products/"]').first();
        await expect.poll(() => img.count(), { timeout: 10_000 }).toBe(1);
        await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0);
        await screenshot(product, 'catalogue-import-new-product');

        // A buyer can order it: its SKU (E2E-…, not the seed's shape) goes into a basket.
        // (The staff member's tab is signed in, as any trade account is.)
        await page.goto(`${shopURL}/${slugify(name)}-${sku.toLowerCase()}/`);
        const form = page.locator(`form.add-to-basket[data-sku="${sku}"]`);
        await expect.poll(() => form.count(), { timeout: 10_000 }).toBe(1);
        await form.locator('input').fill('1');
        const added = page.waitForResponse((r) => r.url().endsWith('/api/basket/add'));
        await form.getByRole('button', { name: 'Add' }).click();
        const answer = await added;
        expect(answer.status(), await answer.text()).toBe(200);

        await product.goto(shopURL + CATEGORY.path);
        const card = product.locator(`.grid .card[data-sku="${changed.sku}"]`);
        await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(1);
        await expect(card.locator('.price').getAttribute('data-pence')).resolves.toBe(String(changed.after));
      } finally {
        await product.close();
      }
    },
  );
});
