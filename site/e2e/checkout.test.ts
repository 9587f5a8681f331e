import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, screenshot, shopURL } from './browser';

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
    await page.getByRole('link', { name: orderId }).click();
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
