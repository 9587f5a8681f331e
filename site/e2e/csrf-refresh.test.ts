import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, shopURL, signIn } from './browser';

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await signIn(page);
  await page.waitForURL(/\/account\/dashboard\/$/);
});
afterAll(async () => {
  await browser?.close();
});

/** A token of the shop's shape (random.expiry.signature), unexpired, signed with a secret
 * the shop no longer has: what a tab holds after the secret is rotated. */
function tokenOfARotatedSecret(): string {
  const random = Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url');
  const expiry = Math.floor(Date.now() / 1000) + 6 * 3600;
  return `${random}.${expiry}.${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`;
}

describe('CSRF token refresh', { timeout: 90_000 }, () => {
  it('a basket change made with a stale token succeeds without a reload: one 403, a new token, the call again', async () => {
    await page.goto(shopURL + '/outlet/section/male-birthday-cards/102/');
    const forms = page.locator('.grid .card form.add-to-basket');
    await expect.poll(() => forms.count()).toBeGreaterThan(1);
    await forms.nth(0).locator('input').fill('1');
    await page.getByRole('button', { name: 'Add all to basket' }).click();
    await expect.poll(() => page.locator('.add-all [role="status"]').textContent()).toBe('Added 1 line to your basket.');

    await page.goto(shopURL + '/checkout/basket/');
    await page.waitForSelector('.basket-table');
    // The tab and the browser's cookie both hold a token the shop no longer accepts.
    const stale = tokenOfARotatedSecret();
    await context.addCookies([{ name: 'tradeshop_csrf', value: stale, url: shopURL, httpOnly: true, sameSite: 'Strict' }]);
    await page.evaluate((t) => {
      document.querySelector('meta[name="csrf-token"]')!.setAttribute('content', t);
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    }, stale);

    const seen: string[] = [];
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/basket/set') || path === '/api/csrf') seen.push(`${r.request().method()} ${path} ${r.status()}`);
    });
    // The answers pass through unchanged; the codes of the 403s are noted on the way.
    const codes: unknown[] = [];
    await page.route('**/api/basket/set', async (route) => {
      const answer = await route.fetch();
      if (answer.status() === 403) codes.push(((await answer.json()) as { code?: unknown }).code);
      await route.fulfill({ response: answer });
    });
    const first = page.locator('.basket-table tbody tr').first();
    const twice = String(2 * Number(await first.locator('input[type="number"]').inputValue())); // whole packs
    await first.locator('input[type="number"]').fill(twice);
    await first.getByRole('button', { name: 'Update' }).click();
    await expect.poll(() => page.locator('.form-ok').textContent()).toBe('Quantity updated.');
    await page.unroute('**/api/basket/set');
    expect(codes).toEqual(['csrf_token']);
    expect(seen).toEqual(['POST /api/basket/set 403', 'GET /api/csrf 200', 'POST /api/basket/set 200']);
    await expect(page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).resolves.toBe(true);
    const meta = await page.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.getAttribute('content'));
    expect(meta).not.toBe(stale);
    await expect(first.locator('input[type="number"]').inputValue()).resolves.toBe(twice);
  });
});
