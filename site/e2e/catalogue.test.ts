import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, screenshot, shopURL } from './browser';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
afterAll(async () => {
  await browser?.close();
});

async function searchFor(q: string) {
  await page.goto(`${shopURL}/search/?q=${encodeURIComponent(q)}`);
  await page.waitForSelector('.grid .card, .no-results, [role="alert"]');
}

describe('catalogue', () => {
  // Every link is checked in its prerendered HTML (what a crawler and a first paint see: the
  // grid and one h1 are in it before any script runs), and a few are opened in the browser,
  // which renders the same page from that HTML: 62 full page loads took over a minute.
  it('every category link in the header menu shows products', { timeout: 120_000 }, async () => {
    await page.goto(shopURL + '/');
    const hrefs = await page.locator('.menu-categories a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    expect(hrefs.length).toBe(62);
    for (const href of hrefs) {
      const res = await page.request.get(shopURL + href);
      expect(res.status(), href).toBe(200);
      const html = await res.text();
      expect(html, href).toMatch(/class="grid"[^]*?class="card"/);
      expect(html.match(/<h1[\s>]/g)?.length, href).toBe(1);
    }
    for (const href of [hrefs[0], hrefs[Math.floor(hrefs.length / 2)], hrefs[hrefs.length - 1]]) {
      const res = await page.goto(shopURL + href);
      expect(res?.status(), href).toBe(200);
      expect(await page.locator('.grid .card').count(), href).toBeGreaterThan(0);
      expect(await page.locator('h1').count(), href).toBe(1);
    }
  });

  it('a product page opened from a category grid shows the same price', async () => {
    await page.goto(shopURL + '/outlet/section/female-birthday-cards/101/');
    const card = page.locator('.grid .card').nth(3);
    const price = await card.locator('.price').textContent();
    const name = await card.locator('.card-name').textContent();
    await card.locator('.card-name a').click();
    await page.waitForSelector('.product');
    await expect(page.locator('h1').textContent()).resolves.toBe(name);
    await expect(page.locator('.product .price').textContent()).resolves.toBe(price);
    await expect(page.locator('.product-facts').textContent()).resolves.toMatch(/Pack size.*VAT rate20%Availability/s);
    expect(await page.locator('section[aria-labelledby="related-title"] .card').count()).toBeGreaterThan(0);
    await screenshot(page, 'catalogue-product');
  });

  it('a big category pages its products 48 at a time, from its payload', async () => {
    await page.goto(shopURL + '/outlet/section/female-birthday-cards/101/');
    const first = await page.locator('.grid .card-name').allTextContents();
    expect(first).toHaveLength(48);
    await page.getByRole('link', { name: 'Page 2' }).click();
    await page.waitForURL(/\?page=2$/);
    await expect.poll(async () => (await page.locator('.grid .card-name').allTextContents())[0]).not.toBe(first[0]);
    const second = await page.locator('.grid .card-name').allTextContents();
    const payload = (await (await fetch(`${shopURL}/outlet/section/female-birthday-cards/101/_payload.json`)).json()) as { products: { name: string }[] };
    expect(second).toEqual(payload.products.slice(48, 96).map((p) => p.name));
    await screenshot(page, 'catalogue-category-page-2');
  });

  it('a search for a product name finds it first and keeps the query in the header', async () => {
    const payload = (await (await fetch(`${shopURL}/outlet/section/wedding-cards/110/_payload.json`)).json()) as { products: { name: string; sku: string }[] };
    const target = payload.products[5]!;
    await searchFor(target.name);
    await expect(page.locator('.grid .card').first().getAttribute('data-sku')).resolves.toBe(target.sku);
    await expect(page.locator('.header-search input[name="q"]').inputValue()).resolves.toBe(target.name);
    await screenshot(page, 'catalogue-search');
  });

  it('"birthdy" finds birthday cards', async () => {
    await searchFor('birthdy');
    const names = await page.locator('.grid .card-name').allTextContents();
    expect(names.length).toBeGreaterThan(10);
    for (const n of names) expect(n).toMatch(/Birthday/);
  });

  it('results filter by range and page', async () => {
    await searchFor('birthday');
    await page.getByLabel('Range', { exact: true }).selectOption('wholesale_balloons');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/range=wholesale_balloons/);
    await page.waitForSelector('.grid .card');
    const skus = await page.locator('.grid .card').evaluateAll((cs) => cs.map((c) => c.getAttribute('data-sku')!));
    for (const s of skus) expect(s).toMatch(/^BL/);
    await searchFor('card');
    await page.getByRole('link', { name: 'Page 2' }).click();
    await expect.poll(() => page.locator('[role="status"]').first().textContent()).toMatch(/page 2 of/);
  });

  it("a buyer's phrase finds what they meant: stop words, plurals and synonyms", async () => {
    // Typed into the header's search box, as a buyer does.
    await page.goto(shopURL + '/');
    await page.locator('.header-search input[name="q"]').fill('birthday cards for him');
    await page.locator('.header-search input[name="q"]').press('Enter');
    await page.waitForURL(/\/search\/\?q=birthday\+cards\+for\+him/);
    await page.waitForSelector('.grid .card, .no-results');
    await expect(page.locator('[role="status"]').first().textContent()).resolves.toMatch(/^\d+ results for “birthday cards for him”, page 1 of \d+$/);
    const names = await page.locator('.grid .card-name').allTextContents();
    expect(names).toHaveLength(24);
    for (const n of names) expect(n).toMatch(/\b(Dad|Grandad|Brother|Son|Uncle|Nephew|Husband) Birthday/);
    await screenshot(page, 'catalogue-search-buyer-phrase');

    // The results load after the page (searchFor's selector also takes any alert region),
    // so each read waits for the grid to be filled.
    const skus = () => page.locator('.grid .card').evaluateAll((cs) => cs.map((c) => c.getAttribute('data-sku')));
    await searchFor('xmas');
    await expect.poll(() => page.locator('.grid .card-name').count()).toBeGreaterThan(10);
    for (const n of await page.locator('.grid .card-name').allTextContents()) expect(n).toMatch(/Christmas/);
    await searchFor('cards');
    await expect.poll(() => page.locator('.grid .card').count()).toBe(24);
    const cards = await skus();
    await searchFor('card');
    await expect.poll(skus).toEqual(cards);
  });

  it('a search with no match says so', async () => {
    await searchFor('zzqxv');
    await expect(page.locator('.no-results').textContent()).resolves.toContain('No products match “zzqxv”');
  });
});
