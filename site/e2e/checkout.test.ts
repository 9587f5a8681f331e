import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { emulatorUser, launch, screenshot, shopURL } from './browser';

let browser: Browser;
let page: Page;
const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
afterAll(async () => {
  await browser?.close();
});

describe('checkout journey', { timeout: 120_000 }, () => {
  let orderId = '';

  it('register, browse, add, basket', async () => {
    await page.goto(shopURL + '/account/register/');
    await page.getByLabel('Business name').fill('Harbour Gifts');
    await page.getByLabel('Email').fill(`checkout-${stamp}@cardshop.test`);
    await page.getByLabel('Password').fill('correct-horse-1');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/\/account\/dashboard\/$/);

    await page.goto(shopURL + '/outlet/section/photo-frames/803/');
    const forms = page.locator('.grid .card form.add-to-basket');
    await expect.poll(() => forms.count()).toBeGreaterThan(2);
    await forms.nth(0).locator('input').fill('5');
    await forms.nth(1).locator('input').fill('5');
    await page.getByRole('button', { name: 'Add all to basket' }).click();
    await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe('Basket (2)');

    await page.goto(shopURL + '/checkout/basket/');
    await page.getByRole('link', { name: 'Continue to billing' }).click();
    await page.waitForURL(/\/checkout\/billing\/$/);
  });

  it('billing keeps what was entered across a refresh, and checks the postcode', async () => {
    await page.getByLabel('Company name').fill('Harbour Gifts Ltd');
    await page.getByLabel('Contact name').fill('Morgan Reed');
    await page.getByLabel('Address line 1').fill('4 Quay Street');
    await page.getByLabel('Town or city').fill('Exampleton');
    await page.getByLabel('Postcode').fill('NOT A CODE');
    await page.reload();
    await expect.poll(() => page.getByLabel('Company name').inputValue()).toBe('Harbour Gifts Ltd');
    await page.getByRole('button', { name: 'Continue to delivery' }).click();
    await expect.poll(() => page.locator('#billing-postcode-error').textContent()).toContain('UK postcode');
    await page.getByLabel('Postcode').fill('ex1 2ab');
    await page.getByLabel('Your PO reference (optional)').fill('PO-7781');
    await page.getByRole('button', { name: 'Continue to delivery' }).click();
    await page.waitForURL(/\/checkout\/delivery\/$/);
  });

  it('delivery reviews the order and places it; the complete page shows its number', async () => {
    await page.getByLabel('Delivery note (optional)').fill('Side door, please');
    await expect.poll(() => page.locator('.review-lines li').count()).toBe(2);
    await screenshot(page, 'checkout-delivery');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL(/\/checkout\/complete\/TS-\d+\/$/);
    orderId = page.url().split('/').filter(Boolean).pop()!;
    await expect.poll(() => page.locator('.order-number').textContent()).toBe(orderId);
    await expect(page.locator('.payment-instructions').textContent()).resolves.toContain(`quoting ${orderId}`);
    await expect(page.locator('.invoice').textContent()).resolves.toContain('Side door, please');
    await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe('Basket');
    await screenshot(page, 'checkout-complete');
  });

  it('the dashboard lists the order; reorder fills the basket', async () => {
    await page.goto(shopURL + '/account/dashboard/');
    await expect.poll(() => page.locator('.order-list').textContent()).toContain(orderId);
    await page.locator('.order-list').getByRole('link', { name: orderId }).click();
    await expect.poll(() => page.locator('.order-number').textContent()).toBe(orderId);
    await page.getByRole('button', { name: 'Reorder' }).click();
    await expect.poll(() => page.locator('.form-ok').first().textContent()).toContain('2 lines are back in your basket');
    await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe('Basket (2)');
  });

  it('checkout steps need a basket: billing with an empty basket says so', async () => {
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    await p.goto(shopURL + '/checkout/billing/');
    await expect.poll(() => p.locator('main').textContent()).toContain('No user is currently signed in');
    await ctx.close();
  });
});

describe('checkout below the minimum order', { timeout: 120_000 }, () => {
  let p: Page;
  let short = '';

  beforeAll(async () => {
    p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('one pack in the basket is below the minimum order', async () => {
    const user = await emulatorUser();
    await p.goto(shopURL + '/account/login/');
    await p.getByLabel('Email').fill(user.email);
    await p.getByLabel('Password').fill(user.password);
    await p.getByRole('button', { name: 'Sign In' }).click();
    await p.waitForURL(/\/account\/dashboard\/$/);
    await p.goto(shopURL + '/outlet/section/photo-frames/803/');
    const form = p.locator('.grid .card form.add-to-basket').first();
    await form.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => form.locator('[role="status"]').textContent()).toMatch(/Added/);
    await p.goto(shopURL + '/checkout/basket/');
    const reason = await p.locator('#minimum-reason').textContent();
    short = /add (£[\d,.]+) more/.exec(reason ?? '')?.[1] ?? '';
    expect(short).toMatch(/^£/);
  });

  /** The notice a step shows at once: how far below the minimum, and a way back. */
  async function expectMinimumNotice() {
    const notice = p.locator('main .minimum-notice');
    await expect.poll(() => notice.textContent()).toBe(`Your basket is ${short} below the minimum order of £100.00 ex VAT. Back to your basket to add more.`);
    await expect(notice.getByRole('link', { name: 'Back to your basket' }).getAttribute('href')).resolves.toBe('/checkout/basket/');
  }

  it('billing says at once how far below the minimum the basket is, and shows a VAT-number problem once', async () => {
    await p.goto(shopURL + '/checkout/billing/');
    await expectMinimumNotice();
    await p.getByLabel('Company name').fill('Small Shop Ltd');
    await p.getByLabel('Contact name').fill('Jo Small');
    await p.getByLabel('Address line 1').fill('1 High Street');
    await p.getByLabel('Town or city').fill('Exampleton');
    await p.getByLabel('Postcode').fill('EX1 2AB');
    await p.getByLabel('VAT number (optional)').fill('GB123');
    await p.getByRole('button', { name: 'Continue to delivery' }).click();
    await expect.poll(() => p.locator('#vat-error').textContent()).toBe('Enter a UK VAT number such as GB123456789, or leave it empty.');
    const text = (await p.locator('main').textContent()) ?? '';
    expect(text.split('UK VAT number').length - 1).toBe(1);
    await screenshot(p, 'checkout-billing-minimum');
  });

  it('delivery says so too, and Place Order waits for a basket at the minimum', async () => {
    await p.getByLabel('VAT number (optional)').fill('');
    await p.getByRole('button', { name: 'Continue to delivery' }).click();
    await p.waitForURL(/\/checkout\/delivery\/$/);
    await expectMinimumNotice();
    await expect(p.getByRole('button', { name: 'Place Order' }).isDisabled()).resolves.toBe(true);
    await p.locator('.minimum-notice').getByRole('link', { name: 'Back to your basket' }).click();
    await p.waitForURL(/\/checkout\/basket\/$/);
  });
});
