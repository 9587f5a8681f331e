import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, screenshot, shopURL, signIn } from './browser';

/** Issue 23: a page that loads from the API shows what could not be loaded with Try again
 * when the load fails (the store's 503 included), never "Loading…" for ever; Try again
 * asks the server again. The 503 is the API's own answer when its store does not answer in
 * time (CONTRACT: STORE_TIMEOUT_MS); here the browser is given it for one request, as a
 * paused store would. */

const STORE_DOWN = {
  status: 503,
  contentType: 'application/json',
  body: JSON.stringify({ error: "The shop's database did not answer in time. Please try again in a moment." }),
};

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page);
  // Checkout steps need something in the basket.
  await page.goto(shopURL + '/outlet/section/photo-frames/803/');
  const form = page
    .locator('.grid .card form.add-to-basket')
    .filter({ has: page.getByRole('button', { name: 'Add', exact: true }) })
    .first();
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await form.locator('[role="status"]', { hasText: 'Added' }).waitFor();
});
afterAll(async () => {
  await browser?.close();
});

/** Makes the first request to path answer 503, loads url, and checks the page says what
 * failed with Try again; Try again asks again and the page then shows `then`. */
async function failsOnceThenLoads(url: string, path: string, what: string, then: () => Promise<unknown>, method = 'POST') {
  let asked = 0;
  await page.route(`**${path}`, (route) => {
    if (route.request().method() !== method) return route.continue();
    asked++;
    return asked === 1 ? route.fulfill(STORE_DOWN) : route.continue();
  });
  try {
    await page.goto(shopURL + url);
    const alert = page.locator('main [role="alert"]').filter({ hasText: what });
    await expect.poll(() => alert.textContent()).toBe(`${what} Try again`);
    await screenshot(page, `load-failed-${path.replace(/\W+/g, '-')}`);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(then).toBeTruthy();
    await expect.poll(() => alert.count()).toBe(0);
    expect(asked).toBe(2);
  } finally {
    await page.unroute(`**${path}`);
  }
}

describe('a failed load offers Try again', { timeout: 90_000 }, () => {
  it('billing', async () => {
    await failsOnceThenLoads('/checkout/billing/', '/api/checkout', 'Your saved details could not be loaded.', () => page.getByLabel('Company name').count());
  });

  it('delivery', async () => {
    // No billing saved yet: once loaded, the step says so.
    await failsOnceThenLoads('/checkout/delivery/', '/api/checkout', 'Your checkout could not be loaded.', () =>
      page.getByRole('link', { name: 'Go to billing' }).count(),
    );
  });

  it('a checkout step whose basket failed to load does not call it empty', async () => {
    await failsOnceThenLoads('/checkout/billing/', '/api/shoppingCartSmall', 'Your basket could not be loaded.', () => page.getByLabel('Company name').count());
  });

  it('the basket', async () => {
    await failsOnceThenLoads('/checkout/basket/', '/api/basket', 'There was a technical problem loading your basket.', () =>
      page.locator('.basket-table').count(),
    );
  });

  it('the order complete page', async () => {
    const id = 'TS-990077';
    await failsOnceThenLoads(
      `/checkout/complete/${id}/`,
      `/api/orders/${id}`,
      `Order ${id} could not be loaded.`,
      () => page.getByText(`We could not find order ${id} on your account.`).count(),
      'GET',
    );
  });

  it('the dashboard and the order history', async () => {
    await failsOnceThenLoads(
      '/account/dashboard/',
      '/api/orders',
      'Your orders could not be loaded.',
      () => page.getByText('You have not placed any orders yet.').count(),
      'GET',
    );
    await failsOnceThenLoads(
      '/account/orders/',
      '/api/orders',
      'Your orders could not be loaded.',
      () => page.getByText('You have not placed any orders yet.').count(),
      'GET',
    );
  });

  it('recommendations', async () => {
    await failsOnceThenLoads('/account/recommended/', '/api/recommended', 'Recommendations could not be loaded.', () =>
      page.locator('main .grid .card').count(),
    );
  });
});
