import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launch, screenshot, shopURL, signIn } from './browser';

let browser: Browser;
let page: Page;

const shop = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', 'functions', 'config', 'shop.json'), 'utf8')) as {
  bankTransfer: { accountName: string; sortCode: string; accountNumber: string };
};

/** The first amount of money in a text, in pence ("£2.85 list £3.00" → 285). */
const firstPence = (text: string | null) => {
  const m = /£([\d,]+)\.(\d\d)/.exec(text ?? '');
  if (!m) throw new Error(`no amount in ${JSON.stringify(text)}`);
  return Number(m[1]!.replace(/,/g, '')) * 100 + Number(m[2]);
};
const whole = (text: string | null) => Number(/\d+/.exec(text ?? '')?.[0] ?? NaN);

/** Each line of a table as {units, unit, line}: the cells are found by their column labels. */
async function tableLines(rows: Locator, labels: { units: string; unit: string; line: string }) {
  const out: { text: string; units: number; unit: number; line: number }[] = [];
  for (const row of await rows.all()) {
    const cell = (label: string) => row.locator(`td[data-label="${label}"]`).textContent();
    const unitsText = await cell(labels.units);
    // The basket's packs cell holds the box and "N units"; an invoice's holds the units.
    const units = whole(/(\d+) units/.exec(unitsText ?? '')?.[1] ?? unitsText);
    out.push({ text: (await row.textContent()) ?? '', units, unit: firstPence(await cell(labels.unit)), line: firstPence(await cell(labels.line)) });
  }
  return out;
}

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page);
  await page.waitForURL(/\/account\/dashboard\/$/);
});
afterAll(async () => {
  await browser?.close();
});

describe('prices that add up', { timeout: 120_000 }, () => {
  let orderId = '';

  it("signed in, a card's pack price is the pack size times the buyer's unit price, and the product page gives it too", async () => {
    await page.goto(shopURL + '/outlet/section/single-christmas-cards/202/');
    const card = page.locator('.grid .card').first();
    await expect.poll(() => card.locator('.own-price').count()).toBe(1);
    const own = Number(await card.locator('.own-price').getAttribute('data-pence'));
    const list = Number(
      await card
        .locator('s')
        .textContent()
        .then((t) => firstPence(t)),
    );
    const packSize = whole(/Pack of (\d+)/.exec((await card.locator('.card-meta').textContent()) ?? '')?.[1] ?? null);
    expect(own).toBeLessThan(list);
    const packText = /(£[\d,.]+) a pack/.exec((await card.locator('.card-price').textContent()) ?? '')?.[1] ?? null;
    expect(firstPence(packText)).toBe(packSize * own);
    await screenshot(page, 'prices-card-pack');

    await card.locator('.card-name a').click();
    await page.waitForSelector('.product-facts');
    await expect.poll(() => page.locator('.product-facts').textContent()).toContain('Your pack price');
    const facts = (await page.locator('.product-facts').textContent()) ?? '';
    const yours = /Your pack price(£[\d,.]+)/.exec(facts)?.[1] ?? null;
    expect(firstPence(yours)).toBe(packSize * own);
  });

  it("every basket line is unit price × units, with a discounted line; the coupon box gives the coupon's terms", async () => {
    // Christmas lines carry the shop's public 5% discount; photo frames carry none.
    for (const [section, packs] of [
      ['/outlet/section/single-christmas-cards/202/', 1],
      ['/outlet/section/photo-frames/803/', 5],
    ] as const) {
      await page.goto(shopURL + section);
      const forms = page.locator('.grid .card form.add-to-basket');
      await expect.poll(() => forms.count()).toBeGreaterThan(2);
      for (let i = 0; i < 3; i++) await forms.nth(i).locator('input').fill(String(packs));
      await page.getByRole('button', { name: 'Add all to basket' }).click();
      await expect.poll(() => page.locator('.add-all [role="status"]').textContent()).toBe('Added 3 lines to your basket.');
    }
    await page.goto(shopURL + '/checkout/basket/');
    await page.waitForSelector('.basket-table');
    const lines = await tableLines(page.locator('.basket-table tbody tr'), { units: 'Packs', unit: 'Unit price ex VAT', line: 'Line ex VAT' });
    expect(lines).toHaveLength(6);
    for (const l of lines) expect(l.unit * l.units, l.text).toBe(l.line);
    expect(lines.filter((l) => l.text.includes('5% off'))).toHaveLength(3);

    const getCoupon = page.waitForRequest((r) => r.url().endsWith('/api/getCoupon'));
    await page.getByLabel('Coupon code').fill('welcome5');
    await page.getByRole('button', { name: 'Apply' }).click();
    await getCoupon;
    await expect
      .poll(() => page.locator('.coupon-terms').textContent())
      .toMatch(/^Terms: £5\.00 off orders of £50\.00 or more ex VAT, valid until the end of \d{1,2} [A-Z][a-z]+ \d{4}\.$/);
    await screenshot(page, 'prices-basket');
  });

  it('every line of the placed order and of its invoice is unit price × units, and the complete page says only what is true', async () => {
    await page.getByRole('link', { name: 'Continue to billing' }).click();
    await page.waitForURL(/\/checkout\/billing\/$/);
    await page.getByLabel('Company name').fill('Prism Cards Ltd');
    await page.getByLabel('Contact name').fill('Avery Lane');
    await page.getByLabel('Address line 1').fill('9 Mill Row');
    await page.getByLabel('Town or city').fill('Exampleton');
    await page.getByLabel('Postcode').fill('EX1 2AB');
    await page.getByRole('button', { name: 'Continue to delivery' }).click();
    await page.waitForURL(/\/checkout\/delivery\/$/);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL(/\/checkout\/complete\/TS-\d+\/$/);
    orderId = page.url().split('/').filter(Boolean).pop()!;
    await expect.poll(() => page.locator('.order-number').textContent()).toBe(orderId);

    const labels = { units: 'Units', unit: 'Unit ex VAT', line: 'Line ex VAT' };
    const placed = await tableLines(page.locator('.invoice .order-lines tbody tr'), labels);
    expect(placed).toHaveLength(6);
    for (const l of placed) expect(l.unit * l.units, l.text).toBe(l.line);
    expect(placed.filter((l) => l.text.includes('5% off'))).toHaveLength(3);

    const main = (await page.locator('main').textContent()) ?? '';
    expect(main).not.toMatch(/email/i);
    const { accountName, sortCode, accountNumber } = shop.bankTransfer;
    await expect(page.locator('.payment-instructions').textContent()).resolves.toContain(`${accountName}, sort code ${sortCode}, account ${accountNumber}`);
    await screenshot(page, 'prices-complete');

    await page.goto(`${shopURL}/account/orders/?id=${orderId}`);
    await expect.poll(() => page.locator('.order-number').textContent()).toBe(orderId);
    const invoice = await tableLines(page.locator('.invoice .order-lines tbody tr'), labels);
    expect(invoice).toEqual(placed);
  });
});
