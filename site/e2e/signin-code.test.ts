import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { emulatorUser, launch, screenshot, shopURL } from './browser';

// Issue 21: a signed-out visitor on the catalogue runs no Firebase Auth code; it loads on the
// pages that need the account, and a signed-in browser has it at once (docs/accounts.md,
// "When the sign-in code loads").

/** The Auth API host the SDK calls: only its chunk names it. */
const AUTH_ENDPOINT = 'identitytoolkit.googleapis.com';

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
/** The scripts the page received whose text names the Auth endpoint. */
const authScripts: string[] = [];

beforeAll(async () => {
  browser = await launch();
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await ctx.newPage();
  page.on('response', async (r) => {
    if (r.request().resourceType() !== 'script' || !r.ok()) return;
    const body = await r.text().catch(() => '');
    if (body.includes(AUTH_ENDPOINT)) authScripts.push(new URL(r.url()).pathname);
  });
});
afterAll(async () => {
  await browser?.close();
});

/** Lets the page settle beyond the load: the in-view prefetch (1 s after the load, then at
 * idle) and anything else a page might start late. */
async function settle(p: Page) {
  await p.waitForLoadState('networkidle');
  await p.waitForTimeout(2500);
}

const category = '/outlet/section/single-christmas-cards/202/';

describe('the sign-in code loads only when needed', { timeout: 120_000 }, () => {
  it('a signed-out visit to home, a range, a category, a product, help and search loads no script naming the Auth endpoint', async () => {
    const payload = (await (await fetch(`${shopURL}${category}_payload.json`)).json()) as { products: { path: string }[] };
    const product = payload.products[0]!.path;
    for (const path of ['/', '/outlet/r/wholesale-christmas/', category, product, '/help/faq/', '/search/?q=card']) {
      await page.goto(shopURL + path);
      await settle(page);
      expect(authScripts, path).toEqual([]);
      // Counted signed out at once: the header's links show, not held back for the SDK.
      await expect(page.locator('header').getByRole('link', { name: 'Sign In', exact: true }).isVisible()).resolves.toBe(true);
      expect(await page.locator('.account-menu-pending').count(), path).toBe(0);
    }
    // A product page offers sign-in to order, with no SDK behind it.
    await page.goto(shopURL + product);
    await expect.poll(() => page.locator('.add-signin').textContent()).toBe('Sign in to order');
    expect(authScripts).toEqual([]);
  });

  it('a click on Sign In loads it; after sign-in the category page shows own prices and the signed-in header without a click', async () => {
    const user = await emulatorUser();
    await page.goto(shopURL + category);
    await settle(page);
    await page.locator('header').getByRole('link', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(`${shopURL}/account/login/`);
    // The sign-in page needs the account: the SDK comes as the page opens, before any typing.
    await expect.poll(() => authScripts.length).toBeGreaterThan(0);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/account/login'));

    // A fresh page load of the catalogue, on the same browser.
    authScripts.length = 0;
    await page.goto(shopURL + category);
    await expect.poll(() => page.locator('.account-menu-signed-in summary').count()).toBe(1);
    // Christmas lines carry the shop's public 5% discount, so every buyer has own prices.
    await expect.poll(() => page.locator('.grid .card .own-price').count()).toBeGreaterThan(0);
    expect(authScripts.length).toBeGreaterThan(0);
    await screenshot(page, 'signin-code-signed-in-category');

    // Signed out again, the catalogue is light again.
    await page.goto(shopURL + '/account/logout/');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('tradeshop:signed-in'))).toBe('0');
    authScripts.length = 0;
    await page.goto(shopURL + category);
    await settle(page);
    expect(authScripts).toEqual([]);
    await expect(page.locator('header').getByRole('link', { name: 'Sign In', exact: true }).isVisible()).resolves.toBe(true);
  });
});
