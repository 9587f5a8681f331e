import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, screenshot, shopURL } from './browser';
import { recordSecret } from './secrets';

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
const email = `buyer-${stamp}@cardshop.test`;
const password = 'correct-horse-1';
recordSecret('password', password);
const business = 'Meadow Cards & Gifts';

beforeAll(async () => {
  browser = await launch();
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await ctx.newPage();
});
afterAll(async () => {
  await browser?.close();
});

const accountMenu = () => page.locator('.account-menu-signed-in summary');

describe('accounts', { timeout: 60_000 }, () => {
  it('refuses a bad registration with messages beside the fields', async () => {
    await page.goto(shopURL + '/account/register/');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.locator('#business-error').textContent()).resolves.toContain('business name');
    await expect(page.locator('#email-error').textContent()).resolves.toContain('email address');
    await expect(page.locator('#password-error').textContent()).resolves.toContain('at least 6 characters');
  });

  it('registers and shows the business name on the dashboard', async () => {
    await page.goto(shopURL + '/account/register/');
    await page.getByLabel('Business name').fill(business);
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${shopURL}/account/dashboard/`);
    await expect.poll(() => page.locator('.dashboard-business').textContent()).toBe(business);
    await expect.poll(() => accountMenu().textContent()).toContain(business);
    await screenshot(page, 'accounts-dashboard');
  });

  it('a second registration with the same email is refused in plain English', async () => {
    const other = await browser.newContext();
    const p = await other.newPage();
    await p.goto(shopURL + '/account/register/');
    await p.getByLabel('Business name').fill('Copycat Ltd');
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => p.locator('.form-error').textContent()).toContain('already exists');
    await other.close();
  });

  it('the signed-in account menu has its items', async () => {
    await accountMenu().click();
    const items = await page.locator('.account-menu-signed-in ul a').allTextContents();
    expect(items).toEqual(expect.arrayContaining(['Dashboard', 'Update Your Details', 'View Basket', 'Recommended Products', 'Sign Out']));
  });

  it('signs out with a toast', async () => {
    await page.goto(shopURL + '/account/logout/');
    await expect.poll(() => page.locator('.toast .toast-header').textContent()).toBe('Account Signed Out');
    await expect(page.locator('.toast .toast-message').textContent()).resolves.toBe('You have logged out');
    await screenshot(page, 'accounts-signed-out-toast');
    await page.goto(shopURL + '/account/dashboard/');
    await expect.poll(() => page.locator('main').textContent()).toContain('No user is currently signed in');
    await expect(page.locator('header').getByRole('link', { name: 'Sign In', exact: true }).isVisible()).resolves.toBe(true);
  });

  it('a wrong password is a clear error; signing in returns to the page visited before', async () => {
    await page.goto(shopURL + '/outlet/r/wholesale_balloons/');
    const archUrl = async () => (await ctx.cookies()).find((c) => c.name === 'archUrl')?.value;
    await expect.poll(archUrl).toBe(encodeURIComponent('/outlet/r/wholesale_balloons/'));
    await page.goto(shopURL + '/account/login/');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-my-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.locator('.form-error').textContent()).toMatch(/password is not right/);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${shopURL}/outlet/r/wholesale_balloons/`);
    await expect.poll(() => accountMenu().textContent()).toContain(business);
  });

  it('Update Your Details shows its fields only once the profile is here, so typing is never overwritten', async () => {
    let release = () => undefined as void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/getProfile', async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto(shopURL + '/account/change_email/');
      await page.getByLabel('New email').waitFor(); // signed in: the page is past its first loading line
      await expect(page.locator('main').textContent()).resolves.toContain('Loading your details…');
      expect(await page.locator('#business').count()).toBe(0);
      release();
      await expect.poll(() => page.getByLabel('Business name').inputValue()).toBe(business);
    } finally {
      release();
      await page.unroute('**/api/getProfile');
    }
  });

  it('updates details', async () => {
    await page.goto(shopURL + '/account/change_email/');
    await page.getByLabel('Business name').fill('Meadow Cards Ltd');
    await page.getByLabel('Telephone').fill('call me');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect(page.locator('#telephone-error').textContent()).resolves.toContain('telephone number');
    await page.getByLabel('Telephone').fill('01632 960 123');
    await page.getByLabel('Email me new ranges and trade offers').check();
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect.poll(() => page.locator('.form-ok').first().textContent()).toBe('Your details are saved.');
    await page.goto(shopURL + '/account/dashboard/');
    await expect.poll(() => page.locator('.summary-list').textContent()).toMatch(/Meadow Cards Ltd.*01632 960 123.*Yes/s);
  });

  it('changing email needs the right current password', async () => {
    const newEmail = `renamed-${stamp}@cardshop.test`;
    await page.goto(shopURL + '/account/change_email/');
    await page.getByLabel('New email').fill(newEmail);
    await page.getByLabel('Current password').fill('wrong-password');
    await page.getByRole('button', { name: 'Change email' }).click();
    await expect.poll(() => page.locator('.form-error').textContent()).toMatch(/not right/);
    await page.getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Change email' }).click();
    await expect.poll(() => page.locator('.form-ok').textContent()).toBe(`Your sign-in email is now ${newEmail}.`);
    await page.goto(shopURL + '/account/dashboard/');
    await expect.poll(() => page.locator('.summary-list').textContent()).toContain(newEmail);
    await screenshot(page, 'accounts-updated');
  });

  it('shows recommended products', async () => {
    await page.goto(shopURL + '/account/recommended/');
    await expect.poll(() => page.locator('.grid .card').count()).toBeGreaterThan(0);
  });

  it('requesting a password reset always says it was sent', async () => {
    await page.goto(shopURL + '/account/password_reset/');
    await page.getByLabel('Email').fill(`nobody-${stamp}@cardshop.test`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.locator('.toast .toast-header').textContent()).toBe('Password Reset Sent to Email');
  });

  it('Update Your Details while signed out says no user is signed in', async () => {
    const other = await browser.newContext();
    const p = await other.newPage();
    await p.goto(shopURL + '/account/change_email/');
    await expect.poll(() => p.locator('main').textContent()).toContain('No user is currently signed in');
    await other.close();
  });
});
