import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIResponse, Browser, Page } from 'playwright-core';
import { launch, screenshot, shopURL, signIn } from './browser';

let browser: Browser;
let page: Page;

const pounds = (text: string | null) => Math.round(Number((text ?? '').replace(/[^0-9.-]/g, '')) * 100);

/** Holds the first answer to an API path: the request reaches the server at once, and its
 * answer reaches the page only on deliver(), which returns once the page has it and has had
 * a frame to act on it. Later requests pass straight through. */
async function holdFirstAnswer(p: Page, path: string) {
  const pattern = `**${path}`;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let taken = false;
  let answer: APIResponse | undefined;
  await p.route(pattern, async (route) => {
    if (taken) return route.continue();
    taken = true;
    answer = await route.fetch();
    await held;
    await route.fulfill({ response: answer });
  });
  return {
    /** The held answer, once the server has given it. */
    answer: () => answer,
    async deliver() {
      const finished = p.waitForEvent('requestfinished', (r) => r.url().endsWith(path));
      release();
      await finished;
      await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    },
    async stop() {
      release();
      await p.unroute(pattern);
    },
  };
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

describe('basket', { timeout: 90_000 }, () => {
  it('orders three products from a category grid with one "Add all to basket" and the widget counts them', async () => {
    await page.goto(shopURL + '/outlet/section/male-birthday-cards/102/');
    const forms = page.locator('.grid .card form.add-to-basket');
    await expect.poll(() => forms.count()).toBeGreaterThan(3);
    for (let i = 0; i < 3; i++)
      await forms
        .nth(i)
        .locator('input')
        .fill(String(i + 1));
    await page.getByRole('button', { name: 'Add all to basket' }).click();
    await expect.poll(() => page.locator('.add-all [role="status"]').textContent()).toBe('Added 3 lines to your basket.');
    await expect(forms.nth(0).locator('input').inputValue()).resolves.toBe('');
    await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe('Basket (3)');
    await page.locator('.basket-widget summary').click();
    expect(await page.locator('.basket-lines li').count()).toBe(3);
    await screenshot(page, 'basket-widget');
  });

  it('the basket page edits a quantity, applies a seeded coupon, and its totals add up', async () => {
    await page.goto(shopURL + '/checkout/basket/');
    await page.waitForSelector('.basket-table');
    const first = page.locator('.basket-table tbody tr').first();
    await first.locator('input[type="number"]').fill('99999');
    await first.getByRole('button', { name: 'Update' }).click();
    await expect.poll(() => page.locator('.form-error').textContent()).toBe('The quantity must be from 0 to 10000 units.');
    await expect(first.locator('input[type="number"]').inputValue()).resolves.toBe('99999'); // kept to correct
    await first.locator('input[type="number"]').fill('5');
    await first.getByRole('button', { name: 'Update' }).click();
    await expect.poll(() => page.locator('.form-ok').textContent()).toBe('Quantity updated.');
    await page.getByLabel('Coupon code').fill('trade10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('.coupon-code').textContent()).toBe('TRADE10');

    const lines = (await page.locator('.basket-table .line-amount').allTextContents()).map(pounds);
    const goods = pounds(await page.locator('[data-total="goods"]').textContent());
    const coupon = pounds(await page.locator('[data-total="coupon"]').textContent());
    const net = pounds(await page.locator('[data-total="net"]').textContent());
    const vat = pounds(await page.locator('[data-total="vat"]').textContent());
    const gross = pounds(await page.locator('[data-total="gross"]').textContent());
    expect(goods).toBe(lines.reduce((a, b) => a + b, 0));
    expect(Math.abs(coupon)).toBe(Math.floor((goods * 10 + 50) / 100)); // 10%, rounded half up
    expect(net).toBe(goods - Math.abs(coupon));
    expect(gross).toBe(net + vat);
    expect(Math.abs(vat - Math.round(net * 0.2))).toBeLessThanOrEqual(lines.length); // VAT per line, half up
    await screenshot(page, 'basket-page');
  });

  it('a quantity change keeps every line in its place', async () => {
    await page.goto(shopURL + '/checkout/basket/');
    await page.waitForSelector('.basket-table');
    const rows = page.locator('.basket-table tbody tr');
    expect(await rows.count()).toBeGreaterThan(2);
    const order = () => rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.sku!));
    const before = await order();
    const last = rows.last();
    const packs = Number(await last.locator('input[type="number"]').inputValue());
    await last.locator('input[type="number"]').fill(String(packs + 1));
    await last.getByRole('button', { name: 'Update' }).click();
    await expect.poll(() => page.locator('.form-ok').textContent()).toBe('Quantity updated.');
    expect(await order()).toEqual(before);
    await page.reload();
    await page.waitForSelector('.basket-table');
    expect(await order()).toEqual(before);
  });

  it("a part pack gets the shop's message beside its box, and the box shows the real packs again", async () => {
    await page.goto(shopURL + '/checkout/basket/');
    await page.waitForSelector('.basket-table');
    const row = page.locator('.basket-table tbody tr').first();
    const box = row.locator('input[type="number"]');
    const real = await box.inputValue();
    const writes: string[] = [];
    page.on('request', (r) => r.url().includes('/api/basket/') && writes.push(r.url()));
    await box.fill('1.5');
    await row.getByRole('button', { name: 'Update' }).click();
    const message = row.locator('.field-error');
    await expect.poll(() => message.textContent()).toBe('1.5 is not a whole number of packs. Enter a whole number (0 removes the line).');
    await expect(box.getAttribute('aria-describedby')).resolves.toBe(await message.getAttribute('id'));
    await expect(box.inputValue()).resolves.toBe(real);
    expect(writes).toEqual([]);
    await screenshot(page, 'basket-part-pack');
  });

  it('a basket that fails to load offers Try again', async () => {
    let failures = 1;
    await page.route('**/api/basket', (route) => (failures-- > 0 ? route.fulfill({ status: 503, body: '{"error":"unavailable"}' }) : route.continue()));
    try {
      await page.goto(shopURL + '/checkout/basket/');
      const alert = page.locator('main [role="alert"]');
      await expect.poll(() => alert.textContent()).toContain('There was a technical problem loading your basket.');
      await alert.getByRole('button', { name: 'Try again' }).click();
      await page.waitForSelector('.basket-table');
    } finally {
      await page.unroute('**/api/basket');
    }
  });

  it("after sign-in, prices switch to the buyer's own prices", async () => {
    await page.goto(shopURL + '/outlet/section/single-christmas-cards/202/');
    const first = page.locator('.grid .card').first();
    await expect.poll(() => first.locator('.own-price').count()).toBe(1);
    // The list price, struck through beside the buyer's own once it has arrived.
    const list = pounds(await first.locator('.own-price ~ .muted s').textContent());
    const own = Number(await first.locator('.own-price').getAttribute('data-pence'));
    expect(own).toBe(list - Math.floor((list * 5 + 50) / 100)); // the public 5% Christmas discount
    await expect(first.textContent()).resolves.toContain('your price, 5% off');
  });

  it('shows "(Showing Most Recent 10)" with 11 lines', async () => {
    await page.goto(shopURL + '/outlet/section/foil-balloons/601/');
    const forms = page.locator('.grid .card form.add-to-basket');
    for (let i = 0; i < 8; i++) {
      await forms.nth(i).getByRole('button', { name: 'Add' }).click();
      await expect.poll(() => forms.nth(i).locator('[role="status"]').textContent()).toMatch(/Added/);
    }
    await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe('Basket (11)');
    await page.locator('.basket-widget summary').click();
    expect(await page.locator('.basket-lines li').count()).toBe(10);
    await expect(page.locator('.basket-dropdown').textContent()).resolves.toContain('(Showing Most Recent 10)');
  });

  it('an add is kept when the basket load of the page answers after it', async () => {
    // The page loads the basket as the sign-in is restored; hold that answer (the basket
    // before the add) until the add's own reload has answered, then deliver it.
    const held = await holdFirstAnswer(page, '/api/shoppingCartSmall');
    try {
      await page.goto(shopURL + '/outlet/section/photo-frames/803/');
      await expect.poll(() => held.answer()).toBeTruthy();
      const before = ((await held.answer()!.json()) as { id: unknown }[]).filter((l) => l.id !== 1).length;
      const form = page.locator('.grid .card form.add-to-basket').first();
      await form.getByRole('button', { name: 'Add' }).click();
      await expect.poll(() => form.locator('[role="status"]').textContent()).toMatch(/Added/);
      await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe(`Basket (${before + 1})`);
      await held.deliver();
      await expect(page.locator('.basket-widget summary').textContent()).resolves.toBe(`Basket (${before + 1})`);
    } finally {
      await held.stop();
    }
  });

  it('the basket page shows the newest of two overlapping updates and keeps a box typed meanwhile', async () => {
    await page.goto(shopURL + '/checkout/basket/');
    await page.waitForSelector('.basket-table');
    const rows = page.locator('.basket-table tbody tr');
    expect(await rows.count()).toBeGreaterThan(2);
    // The first update's answer arrives last.
    const held = await holdFirstAnswer(page, '/api/basket/set');
    try {
      // Rows are found by SKU: an update may reorder them.
      const skus = await rows.evaluateAll((trs) => trs.slice(0, 3).map((tr) => (tr as HTMLElement).dataset.sku!));
      const row = (i: number) => page.locator(`.basket-table tbody tr[data-sku="${skus[i]}"]`);
      const box = (i: number) => row(i).locator('input[type="number"]');
      await box(0).fill('3');
      await row(0).getByRole('button', { name: 'Update' }).click();
      await expect.poll(() => held.answer()).toBeTruthy();
      await box(1).fill('4');
      await row(1).getByRole('button', { name: 'Update' }).click();
      await expect.poll(() => page.locator('.form-ok').textContent()).toBe('Quantity updated.');
      await box(2).fill('9'); // typed, not submitted
      await held.deliver();
      await expect(box(0).inputValue()).resolves.toBe('3');
      await expect(box(1).inputValue()).resolves.toBe('4');
      await expect(box(2).inputValue()).resolves.toBe('9');
      await page.reload();
      await page.waitForSelector('.basket-table');
      await expect(box(0).inputValue()).resolves.toBe('3');
      await expect(box(1).inputValue()).resolves.toBe('4');
    } finally {
      await held.stop();
    }
  });

  it('on a phone, signed in, the header tools and the basket fit the screen', async () => {
    const phone = await browser.newContext({
      storageState: await page.context().storageState({ indexedDB: true }), // the sign-in lives in IndexedDB
      viewport: { width: 360, height: 740 },
      userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36',
      isMobile: true,
      hasTouch: true,
    });
    const p = await phone.newPage();
    try {
      await p.goto(shopURL + '/outlet/section/photo-frames/803/');
      const form = p.locator('.grid .card form.add-to-basket').nth(2);
      await form.getByRole('button', { name: 'Add' }).click();
      await expect.poll(() => form.locator('[role="status"]').textContent()).toMatch(/Added/);
      await p.goto(shopURL + '/checkout/basket/');
      await p.waitForSelector('.site-header[data-layout="compact"] .account-menu-signed-in');
      await p.waitForSelector('.basket-table');
      const fit = await p.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const outside = ['.info-button', '.basket-widget summary', '.account-menu-signed-in summary', '.basket-table .qty-form button'].filter((s) => {
          const r = document.querySelector(s)!.getBoundingClientRect();
          return r.left < 0 || r.right > width;
        });
        return { sideways: document.documentElement.scrollWidth - width, outside };
      });
      expect(fit).toEqual({ sideways: 0, outside: [] });
      await p.locator('.basket-widget summary').click();
      const dropdown = await p.locator('.basket-dropdown').boundingBox();
      expect(dropdown!.x).toBeGreaterThanOrEqual(0);
      expect(dropdown!.x + dropdown!.width).toBeLessThanOrEqual(360);
      await screenshot(p, 'basket-phone-360');
    } finally {
      await phone.close();
    }
  });
});
