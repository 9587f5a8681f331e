import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { emulatorUser, launch, shopURL, signInAs } from './browser';

// The local edge sends production's security headers (functions/internal/edge/security-headers.json,
// also CloudFront's response headers policy), so a page that needs something the policy
// forbids fails here, not after a deploy.

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const violations: string[] = [];

beforeAll(async () => {
  browser = await launch();
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await ctx.exposeFunction('__reportCSP', (v: string) => violations.push(v));
  await ctx.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportCSP: (v: string) => void }).__reportCSP(`${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI}`);
    });
  });
  page = await ctx.newPage();
});
afterAll(async () => {
  await browser?.close();
});

describe('security headers', () => {
  it('every response carries HSTS, CSP with frame-ancestors, and nosniff', async () => {
    for (const path of ['/', '/outlet/r/wholesale_balloons/', '/no/such/page/', '/builds/latest.json']) {
      const res = await fetch(shopURL + path);
      expect(res.headers.get('strict-transport-security'), path).toMatch(/^max-age=\d+/);
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('the policy blocks nothing the shop needs: browsing, signing in, the basket', async () => {
    const user = await emulatorUser();
    for (const path of ['/', '/outlet/r/wholesale_balloons/', '/search/?q=balloon', '/help/contact-us/']) {
      await page.goto(shopURL + path);
      await page.waitForLoadState('networkidle');
    }
    await signInAs(page, user);
    await page.goto(shopURL + '/checkout/basket/');
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
  });

  it('a page cannot be framed by another site', async () => {
    const res = await fetch(shopURL + '/');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});
