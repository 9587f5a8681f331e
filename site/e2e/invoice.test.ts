import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launch, screenshot, shopURL, signIn } from './browser';
import { fillBasketFrom } from './orders';

/** Every order has a UK VAT invoice: on the order page, printable, and as a PDF. */

let browser: Browser;
let page: Page;

const shop = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', 'functions', 'config', 'shop.json'), 'utf8')) as {
  business: { tradingName: string; legalName: string; registeredIn: string; registeredAddress: string; companyNumber: string; vatNumber: string };
};

/** Fills the buyer's basket to the minimum order, a pack each of the dearest in-stock
 * products of a category no other e2e file orders from, so their stock stays as they expect. */
async function fillBasket(p: Page, token: string): Promise<void> {
  await fillBasketFrom(p, token, '/outlet/section/novelty-gifts/804');
}

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const user = await signIn(page);
  await page.waitForURL(/\/account\/dashboard\/$/);
  await fillBasket(page, user.idToken);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('the VAT invoice of an order', { timeout: 120_000 }, () => {
  let orderId = '';
  let invoiceNumber = '';
  const orderPage = () => `${shopURL}/account/orders/?id=${encodeURIComponent(orderId)}`;
  const heading = () => page.getByRole('heading', { name: 'VAT invoice', exact: true });

  it('a pro-forma order placed through checkout shows its VAT invoice on the complete page, with a way to the PDF', async () => {
    await page.goto(shopURL + '/checkout/basket/');
    await page.getByRole('link', { name: 'Continue to billing' }).click();
    await page.waitForURL(/\/checkout\/billing\/$/);
    await page.getByLabel('Company name').fill('Ledger Cards Ltd');
    await page.getByLabel('Contact name').fill('Robin Vale');
    await page.getByLabel('Address line 1').fill('12 Mint Street');
    await page.getByLabel('Town or city').fill('Exampleton');
    await page.getByLabel('Postcode').fill('EX1 2AB');
    await page.getByLabel('VAT number (optional)').fill('GB123456789');
    await page.getByLabel('Your PO reference (optional)').fill('PO-INV-1');
    await page.getByLabel('Pro-forma: pay by bank transfer before we dispatch').check();
    await page.getByRole('button', { name: 'Continue to delivery' }).click();
    await page.waitForURL(/\/checkout\/delivery\/$/);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL(/\/checkout\/complete\/TS-\d+\/$/);
    orderId = page.url().split('/').filter(Boolean).pop()!;
    // The invoice is issued with the order, or a moment after: the page asks again until it is.
    await expect.poll(() => heading().count()).toBe(1);
    await expect(page.locator('.order-number').textContent()).resolves.toBe(orderId);
    const link = page.getByRole('link', { name: `order ${orderId}` });
    await expect(link.getAttribute('href')).resolves.toBe(`/account/orders/?id=${orderId}`);
    await screenshot(page, 'invoice-complete');
  });

  it('the order page is a UK VAT invoice: supplier and its VAT number, invoice number, dates, buyer, VAT summary and terms', async () => {
    await page.goto(orderPage());
    await expect.poll(() => heading().count()).toBe(1);
    const head = (await page.locator('.invoice-head').textContent()) ?? '';
    const b = shop.business;
    expect(head).toContain(b.legalName);
    expect(head).toContain(b.registeredAddress);
    expect(head).toContain(`Registered in ${b.registeredIn}, company number ${b.companyNumber}`);
    expect(head).toContain(`VAT registration number ${b.vatNumber}`);
    await expect(page.locator('.supplier-vat-number').textContent()).resolves.toBe(b.vatNumber);

    invoiceNumber = ((await page.locator('.invoice-number').textContent()) ?? '').trim();
    expect(invoiceNumber).toMatch(/^INV-\d{6}$/);
    const date = /^\d{1,2} [A-Z][a-z]+ \d{4}$/;
    const fact = (name: string) => page.locator('.invoice-facts dt', { hasText: name }).locator('xpath=following-sibling::dd[1]').textContent();
    await expect(fact('Invoice date')).resolves.toMatch(date);
    await expect(fact('Tax point')).resolves.toMatch(date);
    await expect(fact('Order number')).resolves.toBe(orderId);
    await expect(fact('Your PO reference')).resolves.toBe('PO-INV-1');
    await expect(page.locator('.addresses').textContent()).resolves.toContain('VAT number GB123456789');

    const summary = page.getByRole('table', { name: 'VAT summary' });
    const row20 = summary.locator('tbody tr', { has: page.locator('th', { hasText: /^20%$/ }) });
    await expect(row20.count()).resolves.toBe(1);
    await expect(row20.locator('td[data-label="Net ex VAT"]').textContent()).resolves.toMatch(/^£[\d,]+\.\d\d$/);
    await expect(row20.locator('td[data-label="VAT"]').textContent()).resolves.toMatch(/^£[\d,]+\.\d\d$/);

    const terms = (await page.locator('.payment-instructions').textContent()) ?? '';
    expect(terms).toContain(orderId);
    expect(terms).not.toMatch(/invoice you on dispatch/);
    await screenshot(page, 'invoice-order-page');
  });

  it('axe-core finds no violations on the invoice, and on a phone it fits the width', async () => {
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      // The header folds its menu by script after the resize: measure once it has.
      await page.waitForSelector('.site-header[data-layout="compact"]');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, 'invoice-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('Download PDF saves INV-xxxxxx.pdf, a PDF', async () => {
    const button = page.getByRole('button', { name: 'Download PDF' });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^INV-\d{6}\.pdf$/);
    expect(download.suggestedFilename()).toBe(`${invoiceNumber}.pdf`);
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect.poll(() => button.textContent()).toBe('Download PDF');
    await expect(page.locator('.order-actions [role="alert"]').count()).resolves.toBe(0);
  });

  it('from the keyboard: Download PDF says it is preparing, and a refused PDF is said in an alert', async () => {
    let held: () => void = () => {};
    const holding = new Promise<void>((r) => (held = r));
    await page.route('**/api/orders/*/invoice', async (route) => {
      await holding; // held, to see the loading state
      return route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: '{"error":"The VAT invoice for this order is still being issued: try again in a minute."}',
      });
    });
    try {
      await page.getByRole('button', { name: 'Download PDF' }).focus();
      await page.keyboard.press('Enter');
      const preparing = page.getByRole('button', { name: 'Preparing PDF…' });
      await expect.poll(() => preparing.getAttribute('aria-busy')).toBe('true');
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Preparing PDF…');
      held();
      const alert = page.locator('.order-actions [role="alert"]');
      await expect.poll(() => alert.textContent()).toBe('The VAT invoice for this order is still being issued: try again in a minute.');
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Download PDF');
      await screenshot(page, 'invoice-download-failed');
    } finally {
      held();
      await page.unroute('**/api/orders/*/invoice');
    }
  });

  it('while the invoice is being issued the page says so, and shows it once issued', async () => {
    // The order's first answer is as it is in the moment before the invoice is issued.
    let first = true;
    await page.route(`**/api/orders/${orderId}`, async (route) => {
      const res = await route.fetch();
      if (!first) return route.fulfill({ response: res });
      first = false;
      return route.fulfill({ response: res, json: { ...(await res.json()), invoice: null } });
    });
    try {
      await page.goto(orderPage());
      await expect.poll(() => page.locator('.invoice [role="status"]').textContent()).toBe('Your VAT invoice is being issued: it will be here in a moment.');
      await expect(page.getByRole('button', { name: 'Download PDF' }).count()).resolves.toBe(0);
      await expect.poll(() => heading().count()).toBe(1);
      await expect(page.locator('.invoice-number').textContent()).resolves.toBe(invoiceNumber);
      await expect(page.getByRole('button', { name: 'Download PDF' }).count()).resolves.toBe(1);
    } finally {
      await page.unroute(`**/api/orders/${orderId}`);
    }
  });

  it('prints the invoice alone: no buttons, no page heading', async () => {
    await expect(page.locator('main > h1').isVisible()).resolves.toBe(true);
    await page.emulateMedia({ media: 'print' });
    try {
      await expect(page.locator('.invoice').isVisible()).resolves.toBe(true);
      await expect(heading().isVisible()).resolves.toBe(true);
      await expect(page.locator('.order-actions').isVisible()).resolves.toBe(false);
      // Hidden by the print stylesheet, so found by its place rather than its role.
      await expect(page.locator('main > h1').isVisible()).resolves.toBe(false);
      await expect(page.locator('.site-header').isVisible()).resolves.toBe(false);
      await screenshot(page, 'invoice-print');
    } finally {
      await page.emulateMedia({ media: null });
    }
  });
});
