import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, launch, screenshot, shopURL, signIn } from './browser';
import { dearestInStock, fillToMinimum, placeBasket } from './orders';

/** Issue 14 item 6: the order history comes 20 at a time; "Show more orders" on the
 * dashboard appends the next page. */

let browser: Browser;
let page: Page;
let placed: string[] = [];

/** Places n small orders for the signed-in buyer through the API, oldest first: each
 * one a pack each of the dearest in-stock products until the minimum order is reached,
 * from a category no other e2e file orders from, so their stock stays as they expect. */
async function placeOrders(p: Page, token: string, n: number): Promise<string[]> {
  const dear = await dearestInStock(p, token, '/outlet/section/glassware/953');
  const billing = {
    company: 'Pages Cards Ltd',
    contact: 'Sam Page',
    address: { line1: '4 Quay Street', line2: '', town: 'Exampleton', postcode: 'EX1 2AB' },
    vat_number: '',
    po_ref: '',
    payment_method: 'proforma',
  };
  expect((await api(p, '/api/billing', { token, billing })).status).toBe(200);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    await fillToMinimum(p, token, dear);
    const o = await placeBasket(p, token);
    expect(o.status).toBe(201);
    ids.push(o.data.id);
  }
  return ids;
}

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const user = await signIn(page);
  await page.waitForURL(/\/account\/dashboard\/$/);
  placed = await placeOrders(page, user.idToken, 22);
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

describe('order history pages', { timeout: 90_000 }, () => {
  it('the dashboard shows the newest 20; "Show more orders" fails once, offers Try again, then appends the rest and goes', async () => {
    const newest = [...placed].reverse();
    await page.goto(shopURL + '/account/dashboard/');
    const links = page.locator('.order-list li a');
    await expect.poll(() => links.count()).toBe(20);
    await expect(links.allTextContents()).resolves.toEqual(newest.slice(0, 20));
    const more = page.getByRole('button', { name: 'Show more orders' });
    await expect(more.isVisible()).resolves.toBe(true);

    // The next page's first request fails: the page says so and offers Try again.
    let failures = 1;
    let held: () => void = () => {};
    const holding = new Promise<void>((r) => (held = r));
    await page.route('**/api/orders?cursor=*', async (route) => {
      if (failures-- > 0)
        return route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"error":"The shop\'s database did not answer in time. Please try again in a moment."}',
        });
      await holding; // the second is held, to see its loading state
      return route.continue();
    });
    try {
      // By keyboard: focus the button and press Enter.
      await more.focus();
      await page.keyboard.press('Enter');
      const alert = page.locator('main [role="alert"]');
      await expect.poll(() => alert.textContent()).toBe('More orders could not be loaded. Try again');
      await expect(links.count()).resolves.toBe(20);
      await alert.getByRole('button', { name: 'Try again' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('button', { name: 'Loading more orders…' }).getAttribute('aria-busy')).toBe('true');
      await screenshot(page, 'order-history-loading-more');
      held();
      await expect.poll(() => links.count()).toBe(22);
    } finally {
      held();
      await page.unroute('**/api/orders?cursor=*');
    }
    await expect(links.allTextContents()).resolves.toEqual(newest);
    // The focus moved to the first order appended, and the button is gone: no more pages.
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(newest[20]);
    await expect(page.getByRole('button', { name: /Show more|Loading more/ }).count()).resolves.toBe(0);
    await screenshot(page, 'order-history-all');
  });
});
