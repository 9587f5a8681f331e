import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, screenshot, shopURL } from './browser';
import { recordSecret } from './secrets';

// Layout a buyer sees (issue 12): the desktop dropdowns stay on screen and behave like
// menus, no page scrolls sideways on a phone with long names, every text field is a
// 44 px target, and the signed-out links do not wait for the sign-in SDK.

const phoneUA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36';
const desktopWidths = [1024, 1280, 1440, 1920];
const stamp = `${Date.now()}${Math.random().toString(36).slice(2, 7)}`;
const domain = '@cardshop.test';
/** A 60-character sign-in email with no hyphen (a browser may break a line there). */
const email = `layout${stamp}`.padEnd(60 - domain.length, 'x') + domain;
/** A 100-character business name with a 40-character word in it. */
const business = `Harbourside ${'Greetingcardsandgiftwrapwholesalers'.padEnd(40, 'z')} of the Long Name Trading Company Ltd`.padEnd(100, '.');
const password = 'correct-horse-1';
recordSecret('password', password);

let browser: Browser;
let buyer: BrowserContext;
/** The signed-in buyer's storage (IndexedDB holds the sign-in, localStorage the hint). */
let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;
let productPath = '';

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('the buyer', () => {
  it('registers with a 60-character email and a 100-character business name, fills a basket and saves billing', { timeout: 120_000 }, async () => {
    expect(email).toHaveLength(60);
    expect(business).toHaveLength(100);
    buyer = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await buyer.newPage();
    await page.goto(shopURL + '/account/register/');
    await page.getByLabel('Business name').fill(business);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/\/account\/dashboard\/$/);
    // A basket over the minimum order, and billing saved, so every checkout step has its content.
    await page.goto(shopURL + '/outlet/section/photo-frames/803/');
    const forms = page.locator('.grid .card form.add-to-basket');
    await expect.poll(() => forms.count()).toBeGreaterThan(2);
    productPath = (await page.locator('.grid .card .card-name a').first().getAttribute('href')) ?? '';
    await forms.nth(0).locator('input').fill('5');
    await forms.nth(1).locator('input').fill('5');
    await page.getByRole('button', { name: 'Add all to basket' }).click();
    await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe('Basket (2)');
    await page.goto(shopURL + '/checkout/billing/');
    await page.getByLabel('Company name').fill(business);
    await page.getByLabel('Contact name').fill('Morgan Reed');
    await page.getByLabel('Address line 1').fill('4 Quay Street');
    await page.getByLabel('Town or city').fill('Exampleton');
    await page.getByLabel('Postcode').fill('EX1 2AB');
    await page.getByRole('button', { name: 'Continue to delivery' }).click();
    await page.waitForURL(/\/checkout\/delivery\/$/);
    signedIn = await buyer.storageState({ indexedDB: true });
    await page.close();
  });
});

/** How far the page scrolls sideways (0 when it does not). */
const sideways = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The element at the centre of a locator's box, as "is it this element or inside it". */
async function hitsItself(p: Page, selector: string): Promise<boolean> {
  return p.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (el === hit || el.contains(hit));
  });
}

const isOpen = (p: Page, selector: string) => p.locator(selector).evaluate((d) => (d as HTMLDetailsElement).open);
const focusedIs = (p: Page, selector: string) => p.locator(selector).evaluate((el) => document.activeElement === el);

describe('desktop menus', { timeout: 60_000 }, () => {
  it('every width from 1024 to 1920 px: both open panels lie inside the screen, with no sideways scroll', { timeout: 120_000 }, async () => {
    const ctx = await browser.newContext({ viewport: { width: 1024, height: 900 } });
    const p = await ctx.newPage();
    try {
      await p.goto(shopURL + '/');
      await p.waitForSelector('.site-header[data-layout="desktop"]');
      for (const panel of ['.menu-categories', '.menu-panel:not(.menu-categories)']) {
        await p.locator(`${panel} > summary`).click();
        for (let width = 1024; width <= 1920; width += 16) {
          await p.setViewportSize({ width, height: 900 });
          const outside = () =>
            p.locator(`${panel} > summary + *`).evaluate((el) => {
              const r = el.getBoundingClientRect();
              const w = document.documentElement.clientWidth;
              return r.left < 0 || r.right > w || document.documentElement.scrollWidth > w;
            });
          await expect.poll(outside, { message: `${panel} at ${width}` }).toBe(false);
        }
        await p.keyboard.press('Escape');
        await p.setViewportSize({ width: 1024, height: 900 });
      }
    } finally {
      await ctx.close();
    }
  });

  for (const width of desktopWidths) {
    it(`${width} px: the open category and help panels keep every link on screen and reachable`, async () => {
      const ctx = await browser.newContext({ viewport: { width, height: 900 } });
      const p = await ctx.newPage();
      try {
        await p.goto(shopURL + '/');
        await p.waitForSelector('.site-header[data-layout="desktop"]');
        for (const panel of ['.menu-categories', '.menu-panel:not(.menu-categories)']) {
          await p.locator(`${panel} > summary`).click();
          expect(await isOpen(p, panel)).toBe(true);
          // Scrolled down to each link in turn (never sideways: a link off to the side is the fault).
          const measure = () =>
            p.locator(`${panel} a`).evaluateAll((as) =>
              as.map((a) => {
                window.scrollTo(0, Math.max(0, a.getBoundingClientRect().top + window.scrollY - window.innerHeight / 2));
                const r = a.getBoundingClientRect();
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return { text: a.textContent, left: r.left, right: r.right, reachable: !!hit && (hit === a || a.contains(hit)) };
              }),
            );
          expect((await measure()).length).toBeGreaterThan(panel === '.menu-categories' ? 50 : 4);
          const off = async () => (await measure()).filter((l) => l.left < 0 || l.right > width || !l.reachable).map((l) => l.text);
          await expect.poll(off, { message: `${panel} at ${width}` }).toEqual([]);
          expect(await sideways(p), `${panel} at ${width}`).toBe(0);
          if (panel === '.menu-categories') {
            await p.evaluate(() => window.scrollTo(0, 0));
            await screenshot(p, `layout-categories-${width}`);
          }
          await p.keyboard.press('Escape');
          expect(await isOpen(p, panel)).toBe(false);
        }
      } finally {
        await ctx.close();
      }
    });

    it(`${width} px: the account menu opens below its toggle; both dropdowns close on Escape and an outside click`, async () => {
      const ctx = await browser.newContext({ viewport: { width, height: 900 }, storageState: signedIn });
      const p = await ctx.newPage();
      try {
        await p.goto(shopURL + '/account/dashboard/');
        await expect.poll(() => p.locator('.basket-widget summary').textContent()).toBe('Basket (2)');
        await expect.poll(() => p.locator('.account-menu-signed-in summary').textContent()).toContain('Harbourside');
        const account = '.account-menu-signed-in';
        const basket = '.basket-widget';

        await p.locator(`${account} > summary`).click();
        expect(await isOpen(p, account)).toBe(true);
        const toggle = (await p.locator(`${account} > summary`).boundingBox())!;
        const list = (await p.locator(`${account} > ul`).boundingBox())!;
        expect(list.y).toBeGreaterThanOrEqual(toggle.y + toggle.height - 1);
        expect(list.x).toBeGreaterThanOrEqual(0);
        expect(list.x + list.width).toBeLessThanOrEqual(width);
        expect(await hitsItself(p, `${account} > summary`)).toBe(true);
        expect(await hitsItself(p, `${basket} > summary`)).toBe(true);
        await screenshot(p, `layout-account-menu-${width}`);
        // The toggle closes it again.
        await p.locator(`${account} > summary`).click();
        expect(await isOpen(p, account)).toBe(false);

        // Escape closes it and gives the toggle the focus.
        await p.locator(`${account} > summary`).click();
        await p.keyboard.press('Tab'); // into the list
        expect(await p.evaluate(() => !!document.activeElement?.closest('.account-menu-signed-in ul'))).toBe(true);
        await p.keyboard.press('Escape');
        expect(await isOpen(p, account)).toBe(false);
        expect(await focusedIs(p, `${account} > summary`)).toBe(true);

        // A click outside closes it; a click on Basket opens the basket instead.
        await p.locator(`${account} > summary`).click();
        await p.locator('main h1').click({ position: { x: 2, y: 2 } });
        expect(await isOpen(p, account)).toBe(false);
        await p.locator(`${account} > summary`).click();
        await p.locator(`${basket} > summary`).click();
        expect(await isOpen(p, account)).toBe(false);
        expect(await isOpen(p, basket)).toBe(true);

        // The basket dropdown: Escape, then an outside click.
        await p.keyboard.press('Escape');
        expect(await isOpen(p, basket)).toBe(false);
        expect(await focusedIs(p, `${basket} > summary`)).toBe(true);
        await p.locator(`${basket} > summary`).click();
        expect(await isOpen(p, basket)).toBe(true);
        await p.locator('main h1').click({ position: { x: 2, y: 2 } });
        expect(await isOpen(p, basket)).toBe(false);
      } finally {
        await ctx.close();
      }
    });
  }
});

describe('phones, 390 px, a 60-character email and a 100-character business name', { timeout: 90_000 }, () => {
  let ctx: BrowserContext;
  let p: Page;
  beforeAll(async () => {
    ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: phoneUA, isMobile: true, hasTouch: true, storageState: signedIn });
    p = await ctx.newPage();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** Each page with something that shows it has its content (and the long names). */
  const pages: [string, () => string, (p: Page) => Promise<unknown>][] = [
    ['dashboard', () => '/account/dashboard/', (p) => expect.poll(() => p.locator('.summary-list').textContent()).toContain(email)],
    ['update-details', () => '/account/change_email/', (p) => expect.poll(() => p.locator('#business').inputValue()).toBe(business)],
    ['basket', () => '/checkout/basket/', (p) => p.waitForSelector('.basket-table')],
    ['billing', () => '/checkout/billing/', (p) => expect.poll(() => p.locator('#company').inputValue()).toBe(business)],
    ['delivery', () => '/checkout/delivery/', (p) => expect.poll(() => p.locator('.review-lines li').count()).toBe(2)],
    ['home', () => '/', (p) => p.waitForSelector('main h1')],
    ['category', () => '/outlet/section/photo-frames/803/', (p) => p.waitForSelector('.grid .card')],
    ['product', () => productPath, (p) => p.waitForSelector('.product')],
    ['quick-order', () => '/account/quick-order/', (p) => p.waitForSelector('.qo-table')],
    ['saved-lists', () => '/account/lists/', (p) => expect.poll(() => p.locator('.lists-empty, .saved-lists').count()).toBeGreaterThan(0)],
  ];

  for (const [name, path, ready] of pages) {
    it(`${name}: no sideways scroll; every text field is styled and at least 44 px tall`, async () => {
      await p.goto(shopURL + path());
      await p.waitForSelector('.site-header[data-layout="compact"] .account-menu-signed-in');
      await ready(p);
      await expect.poll(() => p.locator('.account-menu-signed-in summary').textContent()).toContain('Harbourside');
      expect(await sideways(p), name).toBe(0);
      // With the menu open, too (it holds the search field).
      await p.getByRole('button', { name: 'Menu' }).click();
      const fields = await p
        .locator('input:not([type]), input[type="text"], input[type="email"], input[type="password"], input[type="tel"], input[type="search"], textarea')
        .evaluateAll((els) =>
          els
            .filter((el) => (el as HTMLElement).offsetParent !== null)
            .map((el) => {
              const s = getComputedStyle(el);
              return {
                id: el.id,
                height: Math.round(el.getBoundingClientRect().height),
                border: s.borderTopWidth,
                styled: s.borderTopStyle === 'solid' && s.fontSize === getComputedStyle(document.body).fontSize,
              };
            }),
        );
      expect(fields.length, name).toBeGreaterThan(0);
      for (const f of fields) {
        expect(f.height, `${name} #${f.id}`).toBeGreaterThanOrEqual(44);
        expect(f.styled, `${name} #${f.id}`).toBe(true);
      }
      expect(await sideways(p), `${name}, menu open`).toBe(0);
      await p.getByRole('button', { name: 'Close menu' }).click();
      await screenshot(p, `layout-phone-390-${name}`);
    });
  }

  it('the account menu closes on a tap outside and on Escape', async () => {
    await p.goto(shopURL + '/account/dashboard/');
    await expect.poll(() => p.locator('.account-menu-signed-in summary').textContent()).toContain('Harbourside');
    await p.locator('.account-menu-signed-in > summary').tap();
    expect(await isOpen(p, '.account-menu-signed-in')).toBe(true);
    expect(await sideways(p)).toBe(0);
    await screenshot(p, 'layout-phone-390-account-menu');
    // A tap below the open list, on the page.
    const list = (await p.locator('.account-menu-signed-in > ul').boundingBox())!;
    await p.touchscreen.tap(5, list.y + list.height + 20);
    expect(await isOpen(p, '.account-menu-signed-in')).toBe(false);
    await p.locator('.account-menu-signed-in > summary').tap();
    await p.keyboard.press('Escape');
    expect(await isOpen(p, '.account-menu-signed-in')).toBe(false);
  });

  it('register: the business name box (an input with no type) is styled and 44 px tall', async () => {
    const out = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: phoneUA, isMobile: true, hasTouch: true });
    const q = await out.newPage();
    try {
      await q.goto(shopURL + '/account/register/');
      const box = q.getByLabel('Business name');
      expect(await box.evaluate((el) => el.hasAttribute('type'))).toBe(false);
      expect((await box.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      expect(await box.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe(
        await q.getByLabel('Email').evaluate((el) => getComputedStyle(el).borderTopColor),
      );
      expect(await sideways(q)).toBe(0);
    } finally {
      await out.close();
    }
  });
});

describe('signed-out links do not wait for the sign-in SDK', { timeout: 60_000 }, () => {
  const registerLink = '.account-menu a[href="/account/register/"]';
  const signInLink = '.account-menu a[href="/account/login/"]';

  it('a browser with no sign-in hint gets Register / Sign In in the page itself, before any script runs', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const p = await ctx.newPage();
    try {
      await p.goto(shopURL + '/outlet/section/photo-frames/803/');
      await expect(p.locator(registerLink).isVisible()).resolves.toBe(true);
      await expect(p.locator(signInLink).isVisible()).resolves.toBe(true);
    } finally {
      await ctx.close();
    }
  });

  it('with scripts, they are visible as soon as the document has loaded, and stay once the SDK answers', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    try {
      await p.goto(shopURL + '/', { waitUntil: 'domcontentloaded' });
      await expect(p.locator(registerLink).isVisible()).resolves.toBe(true);
      await expect(p.locator(signInLink).isVisible()).resolves.toBe(true);
      // A catalogue page loads no SDK for a browser without the hint (e2e/signin-code.test.ts);
      // the sign-in page does and, finding nobody signed in, writes the hint '0'.
      await p.waitForLoadState('networkidle');
      await expect(p.locator(registerLink).isVisible()).resolves.toBe(true);
      await p.goto(shopURL + '/account/login/');
      await expect.poll(() => p.evaluate(() => localStorage.getItem('tradeshop:signed-in'))).toBe('0');
      await expect(p.locator(registerLink).isVisible()).resolves.toBe(true);
      // A later visit (hint '0') shows them at once too.
      await p.goto(shopURL + '/help/faq/', { waitUntil: 'domcontentloaded' });
      await expect(p.locator(signInLink).isVisible()).resolves.toBe(true);
    } finally {
      await ctx.close();
    }
  });

  it('a signed-in buyer (hint set) never sees them flash before the account menu', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: signedIn });
    // Every frame from the first paint, note whether Register or Sign In is visible.
    await ctx.addInitScript(() => {
      const w = window as unknown as { __flashed?: boolean };
      w.__flashed = false;
      const look = () => {
        for (const a of document.querySelectorAll<HTMLElement>('.account-menu a[href="/account/register/"], .account-menu a[href="/account/login/"]')) {
          if (a.checkVisibility({ visibilityProperty: true })) w.__flashed = true;
        }
        if (!document.querySelector('.account-menu-signed-in')) requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    const p = await ctx.newPage();
    try {
      for (const path of ['/', '/outlet/section/photo-frames/803/']) {
        await p.goto(shopURL + path);
        await p.waitForSelector('.account-menu-signed-in');
        expect(await p.evaluate(() => (window as unknown as { __flashed?: boolean }).__flashed), path).toBe(false);
        expect(await p.locator(registerLink).count()).toBe(0);
      }
    } finally {
      await ctx.close();
    }
  });
});
