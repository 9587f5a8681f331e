import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, axeViolations, launch, screenshot, shopURL, signIn } from './browser';

let browser: Browser;
let page: Page;
let token = '';

interface Checked {
  sku: string;
  quantity: number;
  product: { sku: string; pack_size: number; availability: { status: string }; line_limit: number } | null;
  problem: { code: string } | null;
}
interface BasketAnswer {
  lines: { sku: string; quantity: number }[];
}

/** Seed SKUs by category and how many products each category has (functions/internal/seed). */
const CATEGORIES: [string, number][] = [
  ['GC101', 119],
  ['GC102', 102],
  ['GC103', 85],
  ['GC104', 85],
  ['GC106', 102],
];

/** Products that can be bought now, in SKU order, and one that is out of stock: looked up
 * through the API, so what earlier files ordered does not matter. */
let buyable: { sku: string; pack: number }[] = [];
let outOfStock = { sku: '', pack: 0 };

const rows = () => page.locator('.qo-table tbody tr');
const row = (sku: string) => page.locator(`.qo-table tbody tr[data-sku="${sku}"]`);
const skuBox = (line: number) => page.getByLabel(`SKU, line ${line}`, { exact: true });
const withStatus = (s: string) => page.locator(`.qo-table tbody tr[data-status="${s}"]`);
const basket = async () => (await api<BasketAnswer>(page, '/api/basket', { token })).data.lines;
/** What the focused element is called: its aria-label, its label's text, or its own text. */
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.getAttribute('aria-label') || el?.labels?.[0]?.textContent || el?.textContent;
  });
const csvOf = (lines: string[]) => Buffer.from(lines.join('\r\n') + '\r\n');

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  token = (await signIn(page)).idToken;
  await page.waitForURL(/\/account\/dashboard\/$/);

  const skus = CATEGORIES.flatMap(([cat, n]) => Array.from({ length: n }, (_, i) => `${cat}-${String(i + 1).padStart(5, '0')}`));
  const looked = await api<{ lines: Checked[] }>(page, '/api/skus', { token, lines: skus.map((sku) => ({ sku, quantity: 0 })) });
  expect(looked.status).toBe(200);
  for (const l of looked.data.lines) {
    const p = l.product;
    if (!p) continue;
    if (l.problem?.code === 'out_of_stock') outOfStock = outOfStock.sku ? outOfStock : { sku: p.sku, pack: p.pack_size };
    else if (!l.problem && p.availability.status === 'in_stock' && p.line_limit >= 2 * p.pack_size) buyable.push({ sku: p.sku, pack: p.pack_size });
  }
  expect(outOfStock.sku).not.toBe('');
  expect(buyable.length).toBeGreaterThan(240);
});
afterAll(async () => {
  await browser?.close();
});

describe('quick order', { timeout: 120_000 }, () => {
  it('is linked from the header for a signed-in buyer', async () => {
    await page.locator('.site-header').getByRole('link', { name: 'Quick order' }).click();
    await page.waitForURL(/\/account\/quick-order\/$/);
    await expect.poll(() => rows().count()).toBe(1);
  });

  it('30 lines pasted from a spreadsheet: 27 go in the basket, the 3 that cannot stay with their reasons', async () => {
    const good = buyable.slice(0, 27);
    const part = buyable.find((b, i) => i >= 27 && b.pack > 1)!;
    buyable = buyable.filter((b) => !good.includes(b) && b !== part);
    // Units, as a spreadsheet counts them: one or two packs.
    const units = (b: { pack: number }, i: number) => b.pack * (1 + (i % 2));
    const lines = [
      'SKU\tQTY',
      ...good.slice(0, 10).map((b, i) => `${b.sku}\t${units(b, i)}`),
      'ZZ999-99999\t6',
      ...good.slice(10, 20).map((b, i) => `${b.sku.toLowerCase()}\t${units(b, i + 10)}`),
      `${outOfStock.sku}\t${outOfStock.pack}`,
      ...good.slice(20).map((b, i) => `${b.sku}\t${units(b, i + 20)}`),
      `${part.sku}\t${part.pack + 1}`,
    ];
    await page.getByLabel('SKU and quantity in units, one line each').fill(lines.join('\n'));
    await page.getByRole('button', { name: 'Add to rows' }).click();
    await expect.poll(() => page.locator('.qo-paste .form-ok').textContent()).toBe('30 lines put on the rows.');
    await expect.poll(() => withStatus('good').count()).toBe(27);
    await expect.poll(() => withStatus('problem').count()).toBe(3);
    // A row shows its product: name, pack size, stock and the buyer's pack price.
    const first = row(good[0]!.sku);
    await expect(first.locator('.qo-product a').textContent()).resolves.not.toBe('');
    await expect(first.locator('.qo-product').textContent()).resolves.toContain(`Packs of ${good[0]!.pack}`);
    await expect(first.locator('.pack-price').textContent()).resolves.toMatch(/^£\d/);
    // Its line total, from the API (one pack here: the pack price).
    await expect.poll(() => first.locator('.qo-line-amount strong').textContent()).toBe(await first.locator('.pack-price').textContent());
    // Units pasted show as packs.
    await expect(first.getByLabel('Packs, line 1', { exact: true }).inputValue()).resolves.toBe('1');

    await expect(row('ZZ999-99999').locator('[data-problem]').getAttribute('data-problem')).resolves.toBe('unknown');
    await expect(row(outOfStock.sku).locator('[data-problem]').getAttribute('data-problem')).resolves.toBe('out_of_stock');
    const partRow = row(part.sku);
    await expect(partRow.locator('[data-problem]').getAttribute('data-problem')).resolves.toBe('packs');
    await expect(partRow.locator('.qo-units').textContent()).resolves.toBe(`${part.pack + 1} units as given`);
    await expect(partRow.getByRole('button', { name: `1 pack (${part.pack})` }).count()).resolves.toBe(1);

    await page.getByRole('button', { name: 'Add 27 lines to basket' }).click();
    await expect.poll(() => page.locator('.qo-notice').textContent()).toBe('27 lines added to your basket. View your basket');
    const inBasket = await basket();
    expect(inBasket.map((l) => [l.sku, l.quantity]).sort()).toEqual(good.map((b, i) => [b.sku, units(b, i)]).sort());
    // The lines added leave the page; the three stay, each with its reason, and the empty row.
    await expect.poll(() => rows().count()).toBe(4);
    for (const sku of ['ZZ999-99999', outOfStock.sku, part.sku]) await expect(row(sku).locator('.field-error').textContent()).resolves.not.toBe('');
    await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe('Basket (27)');
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('.qo-lines').scrollIntoViewIfNeeded();
    await screenshot(page, 'quick-order-paste');

    // Fixed in place: the nearest whole pack, then added; the others removed.
    await partRow.getByRole('button', { name: `1 pack (${part.pack})` }).click();
    await expect.poll(() => partRow.getAttribute('data-status')).toBe('good');
    await page.getByRole('button', { name: 'Add 1 line to basket' }).click();
    await expect.poll(() => page.locator('.qo-notice').textContent()).toBe('1 line added to your basket. View your basket');
    await row('ZZ999-99999')
      .getByRole('button', { name: /^Remove/ })
      .click();
    await row(outOfStock.sku)
      .getByRole('button', { name: /^Remove/ })
      .click();
    await expect.poll(() => rows().count()).toBe(1);
  });

  it('a CSV file of 200 lines goes in the basket whole', async () => {
    const lines = buyable.slice(0, 200);
    buyable = buyable.slice(200);
    // Quoted fields for some lines, as spreadsheets write them.
    const csv = csvOf(['SKU,QTY', ...lines.map((b, i) => (i % 3 === 0 ? `"${b.sku}","${b.pack}"` : `${b.sku},${b.pack}`))]);
    await page.getByLabel('CSV file of SKU and quantity').setInputFiles({ name: 'reorder.csv', mimeType: 'text/csv', buffer: csv });
    await expect.poll(() => page.locator('.qo-upload .form-ok').textContent()).toBe('200 lines put on the rows.');
    await expect.poll(() => withStatus('good').count(), { timeout: 20_000 }).toBe(200);
    await page.getByRole('button', { name: 'Add 200 lines to basket' }).click();
    await expect.poll(() => page.locator('.qo-notice').textContent(), { timeout: 20_000 }).toBe('200 lines added to your basket. View your basket');
    const inBasket = new Map((await basket()).map((l) => [l.sku, l.quantity]));
    expect(inBasket.size).toBe(228);
    for (const b of lines) expect(inBasket.get(b.sku), b.sku).toBe(b.pack);
    await expect.poll(() => rows().count()).toBe(1);
  });

  it('a CSV file of more than 500 lines is refused whole, saying why', async () => {
    const csv = csvOf(Array.from({ length: 501 }, (_, i) => `GC101-${String(i + 1).padStart(5, '0')},6`));
    await page.getByLabel('CSV file of SKU and quantity').setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: csv });
    await expect.poll(() => page.locator('.qo-upload .form-error').textContent()).toContain('big.csv has 501 lines: a quick order takes at most 500.');
    expect(await rows().count()).toBe(1);
  });

  it('keyboard only: a suggestion picked with the arrow keys, Enter for the next row, Tab to the add button', async () => {
    const [a, b] = buyable;
    await skuBox(1).focus();
    await page.keyboard.type(a!.sku);
    const options = page.locator('.qo-table tbody tr').first().getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThan(0);
    await expect(skuBox(1).getAttribute('aria-expanded')).resolves.toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'quick-order-suggestions');
    await page.keyboard.press('ArrowDown');
    await expect(skuBox(1).getAttribute('aria-activedescendant')).resolves.toBe(await options.first().getAttribute('id'));
    await page.keyboard.press('Enter');
    await expect(skuBox(1).inputValue()).resolves.toBe(a!.sku);
    await expect.poll(focused).toBe('Packs, line 1');
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('SKU, line 2');

    await page.keyboard.type(b!.sku);
    await expect.poll(() => skuBox(2).getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await expect(skuBox(2).getAttribute('aria-expanded')).resolves.toBe('false');
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('Packs, line 2');
    await page.keyboard.type('1');
    // Tab on through the rows to the add button.
    const seen: (string | null | undefined)[] = [];
    for (let i = 0; i < 8 && !/^Add \d+ lines? to basket$/.test(String(seen.at(-1))); i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused());
    }
    expect(seen).toEqual(['Remove line 2', 'SKU, line 3', 'Packs, line 3', expect.stringMatching(/^Add \d+ lines? to basket$/)]);
    await expect.poll(focused).toBe('Add 2 lines to basket');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.qo-notice').textContent()).toBe('2 lines added to your basket. View your basket');
    const inBasket = new Map((await basket()).map((l) => [l.sku, l.quantity]));
    expect(inBasket.get(a!.sku)).toBe(2 * a!.pack);
    expect(inBasket.get(b!.sku)).toBe(b!.pack);
  });
});
