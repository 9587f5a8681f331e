import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, screenshot, shopURL } from './browser';

// Issue 14 item 4: the one text rule as a buyer meets it. The server refuses a bidi
// override in the billing company and the delivery note and the page shows its sentence
// beside the field; the register form says the same before any account is made.

let browser: Browser;
let page: Page;
const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
const INVISIBLE = 'must not contain invisible characters such as zero-width spaces or text-direction controls.';

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
afterAll(async () => {
  await browser?.close();
});

describe('free text under the one text rule', { timeout: 120_000 }, () => {
  it("register refuses a business name with a right-to-left override, in the server's words", async () => {
    await page.goto(shopURL + '/account/register/');
    await page.getByLabel('Business name').fill('Harbour \u202Elive Gifts');
    await page.getByLabel('Email').fill(`text-rule-${stamp}@cardshop.test`);
    await page.getByLabel('Password').fill('correct-horse-1');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.locator('#business-error').textContent()).toBe(`Business name ${INVISIBLE}`);
    expect(page.url()).toMatch(/\/account\/register\/$/);
    await page.getByLabel('Business name').fill('Harbour Gifts');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/\/account\/dashboard\/$/);
  });

  it("billing shows the server's sentence beside the company name and saves nothing until it is fixed", async () => {
    // Mugs: a category no other end-to-end file orders from, so their stock is this file's.
    await page.goto(shopURL + '/outlet/section/mugs/801/');
    const forms = page.locator('.grid .card form.add-to-basket');
    await expect.poll(() => forms.count()).toBeGreaterThan(2);
    await forms.nth(0).locator('input').fill('5');
    await forms.nth(1).locator('input').fill('5');
    await page.getByRole('button', { name: 'Add all to basket' }).click();
    await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe('Basket (2)');
    await page.goto(shopURL + '/checkout/billing/');
    await page.getByLabel('Company name').fill('\u202Eevil Gifts Ltd');
    await page.getByLabel('Contact name').fill('Morgan Reed');
    await page.getByLabel('Address line 1').fill('4 Quay Street');
    await page.getByLabel('Town or city').fill('Exampleton');
    await page.getByLabel('Postcode').fill('EX1 2AB');
    await page.getByRole('button', { name: 'Continue to delivery' }).click();
    await expect.poll(() => page.locator('#company-error').textContent()).toBe(`Company name ${INVISIBLE}`);
    await expect(page.getByLabel('Company name').getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'text-rule-billing');
    expect(page.url()).toMatch(/\/checkout\/billing\/$/);
    await page.getByLabel('Company name').fill('Harbour Gifts Ltd');
    await page.getByRole('button', { name: 'Continue to delivery' }).click();
    await page.waitForURL(/\/checkout\/delivery\/$/);
  });

  it('the delivery note refuses a bidi override beside its box, keeps line breaks, and the order shows them', async () => {
    await page.getByLabel('Delivery note (optional)').fill('Side door \u202Eevil');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect.poll(() => page.locator('#note-error').textContent()).toBe(`Delivery note ${INVISIBLE}`);
    await expect(page.getByLabel('Delivery note (optional)').getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'text-rule-delivery-note');
    await page.getByLabel('Delivery note (optional)').fill('Side door\nRing twice');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL(/\/checkout\/complete\/TS-\d+\/$/);
    const note = page.locator('.invoice span', { hasText: 'Note:' });
    await expect.poll(() => note.textContent()).toBe('Note: Side door\nRing twice');
    await expect(note.innerText()).resolves.toBe('Note: Side door\nRing twice'); // shown on two lines
  });
});
