import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, screenshot, shopURL, signIn } from './browser';

// Issue 40 "Hydrate less": a signed-out visitor's catalogue page loads and runs none of the
// signed-in islands' code (Add and the quantity boxes, Add all, Add to list, the
// back-in-stock alert, the buyer's own prices: components/catalogue/buyer-islands.tsx); a
// signed-in buyer's page loads it and works as before; the header menu's links work before
// any script runs.

const category = '/outlet/section/female-birthday-cards/101/';

/** Strings only the signed-in islands' code holds, one from each part: Add's and Add all's
 * messages, the alert's error and the own-prices call. */
const islandMarkers = [
  'Enter a whole number of packs.',
  'Type a number of packs against the products you want first.',
  'Your alert could not be saved. Try again.',
  '/api/prices',
];

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Every script the page loads, with its text, from the moment it is opened. */
function scriptsOf(page: Page): Map<string, string> {
  const scripts = new Map<string, string>();
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    void res.text().then(
      (t) => scripts.set(res.url(), t),
      () => {},
    );
  });
  return scripts;
}

/** The markers found in the scripts, each with the script that holds it. */
const markersIn = (scripts: Map<string, string>) =>
  islandMarkers.flatMap((m) => [...scripts].filter(([, text]) => text.includes(m)).map(([url]) => `${m} in ${new URL(url).pathname}`));

/** Waits until the page has loaded, the app has hydrated, the provider has said who is
 * signed in, and the idle work after load (prefetch from 1 s, the filter index) is done. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1_500);
  await page.waitForLoadState('networkidle');
}

describe('signed-in islands', { timeout: 120_000 }, () => {
  it('a signed-out category page loads none of their code, shows list prices and the one sign-in note, and still loads it nowhere after a scroll and a hover', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    const scripts = scriptsOf(page);
    await page.goto(shopURL + category);
    await settle(page);
    // The grid as a signed-out visitor sees it: list prices, the build's stock, one sign-in note.
    await expect.poll(() => page.locator('.grid-order .add-signin').textContent()).toContain('Sign in to order from this page');
    expect(await page.locator('.grid .card').count()).toBe(48);
    expect(await page.locator('.grid .card .price').first().textContent()).toMatch(/^£\d+\.\d\d each$/);
    expect(await page.locator('.grid .card .own-price').count()).toBe(0);
    expect(await page.locator('form.add-to-basket').count()).toBe(0);
    // Interacting as a visitor does (scroll through the grid, hover a card, open a filter
    // group) loads nothing of the islands either.
    await page.mouse.wheel(0, 3000);
    await page.locator('.grid .card a').nth(10).hover();
    await settle(page);
    expect(scripts.size).toBeGreaterThan(3);
    expect(markersIn(scripts)).toEqual([]);
    await ctx.close();
  });

  it("a signed-in buyer's category page loads them, and Add and own prices work", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signIn(page);
    const scripts = scriptsOf(page);
    const priceCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/prices') priceCalls.push(r.url());
    });
    await page.goto(shopURL + category);
    const card = page.locator('.grid .card').first();
    await expect.poll(() => card.locator('form.add-to-basket').count()).toBe(1);
    await expect.poll(() => priceCalls.length).toBeGreaterThan(0);
    await settle(page);
    expect(markersIn(scripts).length).toBeGreaterThan(0);
    // The islands work: one pack of the first card goes into the basket.
    await card.locator('form.add-to-basket button').click();
    await expect.poll(() => card.locator('form.add-to-basket .add-ok').textContent()).toBe('Added 1 pack');
    await screenshot(page, 'islands-signed-in');
    await ctx.close();
  });

  it('without script, the menu opens and its category links lead to their pages, on a phone and on a desktop', async () => {
    const check = async (ctx: BrowserContext, open: (p: Page) => Promise<void>) => {
      const page = await ctx.newPage();
      await page.goto(shopURL + '/');
      await open(page);
      const link = page.locator('#site-menu .menu-categories a', { hasText: 'Female Birthday Cards' });
      await expect.poll(() => link.isVisible()).toBe(true);
      expect(await page.locator('#site-menu .menu-categories a').count()).toBe(62);
      await link.click();
      await page.waitForURL((u) => u.pathname === category);
      expect(await page.locator('h1').textContent()).toBe('Female Birthday Cards');
      await ctx.close();
    };
    // A phone: the header's plain Menu link opens the menu (:target), then the category panel.
    await check(await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, isMobile: true }), async (page) => {
      await page.getByRole('link', { name: 'Menu', exact: true }).click();
      await page.locator('#site-menu .menu-categories summary').click();
    });
    // A desktop: the category panel is a <details>, which opens without script.
    await check(await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1440, height: 900 } }), async (page) => {
      await page.locator('#site-menu .menu-categories summary').click();
    });
  });

  it('with script, a menu link and a card name navigate in the app, without a full page load', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(shopURL + '/');
    await settle(page);
    // A full page load would make a new window object, and lose this mark.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.locator('#site-menu .menu-categories summary').click();
    await page.locator('#site-menu .menu-categories a', { hasText: 'Female Birthday Cards' }).click();
    await page.waitForURL((u) => u.pathname === category);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Female Birthday Cards');
    const name = page.locator('.grid .card .card-name a').first();
    const href = await name.getAttribute('href');
    await name.click();
    await page.waitForURL((u) => u.pathname === href);
    await expect.poll(() => page.locator('.product h1').count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await ctx.close();
  });
});
