import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { launch, screenshot, shopURL, signIn } from './browser';

/** The signed-in buyer's side of the app shell: the CSRF token on every API call, a failed
 * sign-in SDK chunk, natural account URLs, Try again on the order pages and the profile
 * fallback. */

let browser: Browser;
let ctx: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await ctx.newPage();
  await signIn(page);
});
afterAll(async () => {
  await browser?.close();
});

// The error reports' beacon (POST /api/errors, sent as a page goes) is no API call of the
// page's: a beacon can carry no header, and the endpoint needs no token.
const isApi = (r: Request) => new URL(r.url()).pathname.startsWith('/api/') && new URL(r.url()).pathname !== '/api/errors';
const apiPath = (r: Request) => new URL(r.url()).pathname;
const category = '/outlet/section/male-birthday-cards/102/';

describe('signed-in app shell', { timeout: 90_000 }, () => {
  it('a signed-in page load fills the csrf-token meta tag and every /api/* request carries it', async () => {
    const seen: Request[] = [];
    const onRequest = (r: Request) => isApi(r) && seen.push(r);
    page.on('request', onRequest);
    try {
      await page.goto(shopURL + category);
      // The loads of a signed-in category page: basket widget, profile and the buyer's prices.
      await expect
        .poll(() => seen.map(apiPath), { timeout: 15_000 })
        .toEqual(expect.arrayContaining(['/api/shoppingCartSmall', '/api/getProfile', '/api/prices']));
      await page.waitForLoadState('networkidle');
    } finally {
      page.off('request', onRequest);
    }
    const meta = await page.locator('meta[name="csrf-token"]').getAttribute('content');
    expect(meta).toMatch(/^[\w-]+\.\d+\.[\w-]+$/); // random.expiry.signature
    // One request issues the token; it is the only one that cannot carry it.
    expect(seen.filter((r) => apiPath(r) === '/api/csrf')).toHaveLength(1);
    const calls = seen.filter((r) => apiPath(r) !== '/api/csrf');
    expect(calls.map((r) => [apiPath(r), r.headers()['x-csrf-token']])).toEqual(calls.map((r) => [apiPath(r), meta]));
  });

  it("loading a page in a second tab does not break the first tab's next write", async () => {
    const addOne = async (p: Page) => {
      const form = p.locator('.grid .card form.add-to-basket').first();
      await form.locator('input').fill('1');
      const answered = p.waitForResponse((r) => r.url().endsWith('/api/basket/add'));
      await form.getByRole('button', { name: 'Add' }).click();
      return answered;
    };
    await page.goto(shopURL + category);
    expect((await addOne(page)).status()).toBe(200);
    const second = await ctx.newPage();
    await second.goto(shopURL + category);
    expect((await addOne(second)).status()).toBe(200);
    await second.close();
    // The first answer, not a repeat after a 403: the first tab's token still matches the
    // shared cookie.
    expect((await addOne(page)).status()).toBe(200);
    await expect.poll(() => page.locator('.grid .card form.add-to-basket').first().locator('[role="status"]').textContent()).toBe('Added 1 pack');
  });

  it('/account/ goes to the dashboard, by address and by a link', async () => {
    await page.goto(shopURL + '/account/');
    await page.waitForURL(`${shopURL}/account/dashboard/`);
    await page.goto(shopURL + '/help/faq/');
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => {
      const a = document.createElement('a');
      a.href = '/account/';
      a.textContent = 'My account';
      document.querySelector('main')!.append(a);
    });
    await page.getByText('My account').click();
    await page.waitForURL(`${shopURL}/account/dashboard/`);
  });

  it('/account/orders/ without an id is the order history, and a failed load offers Try again', async () => {
    // Leave the dashboard first: its own order history load, still in flight, would take
    // the one failure meant for this page.
    await page.goto('about:blank');
    let failures = 1;
    await page.route('**/api/orders', (route) =>
      route.request().method() === 'GET' && failures-- > 0
        ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"sign-in service temporarily unavailable; try again shortly"}' })
        : route.continue(),
    );
    try {
      await page.goto(shopURL + '/account/orders/');
      await expect.poll(() => page.locator('main h1').textContent()).toBe('Your orders');
      // Polls main's whole text (not a locator that waits for a missing element), so a
      // failure shows what the page said instead.
      await expect
        .poll(async () => (await page.locator('main').textContent()) ?? '', { timeout: 20_000 })
        .toContain('Your orders could not be loaded. Try again');
      const alert = page.locator('main [role="alert"]');
      expect(await alert.textContent()).toBe('Your orders could not be loaded. Try again');
      await screenshot(page, 'account-orders-try-again');
      await alert.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => page.locator('main').textContent()).toContain('You have not placed any orders yet.');
    } finally {
      await page.unroute('**/api/orders');
    }
  });

  it('an order page whose load fails offers Try again, which asks the server again', async () => {
    const id = 'TS-990001';
    let asked = 0;
    await page.route(`**/api/orders/${id}`, (route) => {
      asked++;
      return asked === 1 ? route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' }) : route.continue();
    });
    try {
      await page.goto(`${shopURL}/account/orders/?id=${id}`);
      await expect.poll(() => page.locator('main h1').textContent()).toBe('Your order');
      const alert = page.locator('main [role="alert"]');
      await expect.poll(() => alert.textContent()).toBe(`Order ${id} could not be loaded. Try again`);
      await alert.getByRole('button', { name: 'Try again' }).click();
      // The server's own answer this time: this account has no such order.
      await expect.poll(() => alert.textContent()).toBe(`We could not find order ${id} on your account.`);
      expect(asked).toBe(2);
    } finally {
      await page.unroute(`**/api/orders/${id}`);
    }
  });

  it('when the profile fetch fails, the profile is still had from the server (created from the sign-in if missing)', async () => {
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const user = await signIn(p);
    let failures = 1;
    await p.route('**/api/getProfile', (route) => (failures-- > 0 ? route.abort('failed') : route.continue()));
    await p.goto(shopURL + '/account/dashboard/');
    await expect.poll(() => p.locator('.summary-list').textContent()).toContain(user.email);
    expect(failures).toBe(-1); // the first fetch did fail
    await p.close();
  });

  it('a failed sign-in SDK chunk reloads the page; the reloaded page signs the buyer in', async () => {
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(p);
    await p.goto(shopURL + '/help/faq/');
    await expect.poll(() => p.locator('.account-menu-signed-in summary').count()).toBe(1);
    // Every request for it fails on the first document (the chunk loader asks twice), none
    // on the reloaded one.
    let aborted = 0;
    const loads = countLoads(p);
    await failAuthChunk(p, () => loads() === 1 && ++aborted > 0);
    await p.goto(shopURL + '/outlet/r/wholesale_balloons/');
    await expect.poll(loads, { timeout: 15_000 }).toBe(2);
    expect(aborted).toBeGreaterThan(0);
    await expect.poll(() => p.locator('.account-menu-signed-in summary').count(), { timeout: 15_000 }).toBe(1);
    await p.close();
  });

  it('a sign-in SDK chunk that fails again within 10 s does not reload twice, and says why there is no sign-in', async () => {
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(p);
    await failAuthChunk(p, () => true);
    const loads = countLoads(p);
    await p.goto(shopURL + '/outlet/r/wholesale_giftware/');
    await expect.poll(() => p.locator('.toast .toast-header').textContent(), { timeout: 15_000 }).toBe('Sign-in could not load');
    expect(loads()).toBe(2); // the first failure reloaded; the second was guarded
    await p.waitForTimeout(1500);
    expect(loads()).toBe(2);
    await expect(p.locator('header').getByRole('link', { name: 'Sign In', exact: true }).isVisible()).resolves.toBe(true);
    await screenshot(p, 'account-sdk-chunk-failed');
    await p.close();
  });
});

describe('archUrl after sign-in', { timeout: 90_000 }, () => {
  // A cookie a browser would read as another site must not send the buyer there: a
  // backslash reads as a slash, and a tab is dropped, so both become //evil.example/.
  for (const evil of ['/\\evil.example/', '/\t/evil.example/']) {
    it(`a remembered page of ${JSON.stringify(evil)} signs in to the dashboard, on the shop`, async () => {
      const own = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        await own.addCookies([{ name: 'archUrl', value: encodeURIComponent(evil), url: shopURL }]);
        const p = await own.newPage();
        await signIn(p);
        await p.waitForURL(`${shopURL}/account/dashboard/`);
        expect(new URL(p.url()).origin).toBe(new URL(shopURL).origin);
      } finally {
        await own.close();
      }
    });
  }
});

/** Counts the page's document loads: a reload can start before the first load's load
 * event, so the documents asked for are counted rather than load events. */
function countLoads(p: Page): () => number {
  let n = 0;
  p.on('request', (r) => r.isNavigationRequest() && r.frame() === p.mainFrame() && n++);
  return () => n;
}

/** Makes the script chunk that holds the Firebase Auth SDK fail to load while fail()
 * says so (the chunk's file name is a hash: it is known by the Auth API host it names). */
async function failAuthChunk(p: Page, fail: () => boolean) {
  await p.route('**/_next/static/chunks/*.js', async (route) => {
    try {
      const res = await route.fetch();
      const body = await res.text();
      if (body.includes('identitytoolkit.googleapis.com') && fail()) return await route.abort('failed');
      return await route.fulfill({ response: res, body });
    } catch (err) {
      // The chunk's document went while the chunk was on its way: the test ended and closed
      // its page (a signed-in page loads its islands' chunk late), or the page reloaded
      // after the failed chunk, which disposes the old document's responses. Nothing is
      // left to answer.
      if (!p.isClosed() && !/Response has been disposed/.test(String(err))) throw err;
    }
  });
}
