import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, axeViolations, launch, screenshot, shopURL, signIn, signInAs } from './browser';
import { inbox, maildev } from './mail';
import { staffStock, staffUser } from './staff';

/** Issue 38, item 5: back-in-stock alerts (docs/alerts.md). Staff sell a product out in
 * the back office; a signed-in buyer on its page asks "Email me when it is back" (asking
 * twice keeps one alert), sees it on the dashboard; staff set the stock back, and the
 * email with the product's link arrives once; the dashboard's list is empty after. The
 * product comes from a category no other e2e file orders from, and its stock is put back
 * as it was. */

let browser: Browser;
let buyerPage: Page;
let staffPage: Page;
let buyer: Awaited<ReturnType<typeof signIn>>;
let staffToken = '';

const ALERT_CATEGORY = '/outlet/section/helium-accessories/604/';

type Card = { sku: string; name: string; path: string };
type Priced = { availability?: { status: string } };
type Alerts = { alerts: { sku: string; name: string; path: string; in_stock: boolean }[] };

/** The buyer's alerts, as GET /api/alerts answers them. */
function alertsOf(p: Page, token: string): Promise<Alerts> {
  return p.evaluate(async (token) => {
    const res = await fetch('/api/alerts', { headers: { Authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`GET /api/alerts answered ${res.status}`);
    return (await res.json()) as Alerts;
  }, token);
}

/** Sets sku's stock to units in the back office's Stock page, as staff do. */
async function setStock(sku: string, units: number, reason: string) {
  await staffPage.goto(`${shopURL}/admin/stock/?sku=${encodeURIComponent(sku)}`);
  await expect.poll(() => staffPage.locator('.stock-units').count(), { timeout: 20_000 }).toBe(1);
  await staffPage.getByLabel('Set the stock to').check();
  await staffPage.getByLabel('Units in stock').fill(String(units));
  await staffPage.getByLabel('Reason').fill(reason);
  await staffPage.getByRole('button', { name: 'Save stock' }).click();
  await expect.poll(() => staffPage.locator('.stock-units').textContent(), { timeout: 20_000 }).toBe(`${units} units`);
}

/** The emails to the buyer whose subject is subject. */
const emailsTitled = async (subject: string) => (await inbox(buyer.email)).filter((m) => m.subject === subject);

beforeAll(async () => {
  expect(maildev, 'MAILDEV_URL: run the e2e tests through scripts/test').not.toBe('');
  browser = await launch();
  buyerPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  staffPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  buyer = await signIn(buyerPage);
  await buyerPage.waitForURL(/\/account\/dashboard\/$/);
  const staff = await staffUser();
  staffToken = staff.idToken;
  await signInAs(staffPage, staff);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('back-in-stock alerts', { timeout: 180_000 }, () => {
  let product: Card;
  let stock = 0;

  it('staff sell a product out; on its page the buyer asks to be emailed, once however often they ask', async () => {
    const payload = (await (await fetch(`${shopURL}${ALERT_CATEGORY}_payload.json`)).json()) as { products: Card[] };
    const cards = payload.products.slice(0, 24);
    const { data } = await api<{ prices: Record<string, Priced> }>(buyerPage, '/api/prices', { token: buyer.idToken, skus: cards.map((c) => c.sku) });
    product = cards.find((c) => data.prices[c.sku]?.availability?.status === 'in_stock')!;
    expect(product, `an in-stock product in ${ALERT_CATEGORY}`).toBeDefined();
    stock = await staffStock(staffPage, staffToken, product.sku);
    await setStock(product.sku, 0, 'Sold out (e2e alerts)');

    await buyerPage.goto(shopURL + product.path);
    const ask = buyerPage.getByRole('button', { name: 'Email me when it is back' });
    await expect.poll(() => ask.count(), { timeout: 20_000 }).toBe(1);
    await ask.click();
    await expect.poll(() => buyerPage.locator('.stock-alert').textContent()).toContain('We will email you when it is back in stock.');
    const remove = buyerPage.getByRole('button', { name: `Remove alert: ${product.name}` });
    await expect(remove.count()).resolves.toBe(1);
    // The focus follows the pressed button to the one in its place.
    await expect(remove.evaluate((b) => b === document.activeElement)).resolves.toBe(true);
    expect(await axeViolations(buyerPage)).toEqual([]);
    await screenshot(buyerPage, 'alert-asked');

    // Asking again (another tab) keeps the one alert.
    const again = await api<Alerts>(buyerPage, '/api/alerts', { token: buyer.idToken, sku: product.sku });
    expect(again.status).toBe(200);
    expect(again.data.alerts.map((a) => a.sku)).toEqual([product.sku]);
  });

  it('the dashboard lists the alert with the product link', async () => {
    await buyerPage.goto(shopURL + '/account/dashboard/');
    const section = buyerPage.getByRole('region', { name: 'Stock alerts' });
    await expect.poll(() => section.getByRole('link', { name: product.name }).count(), { timeout: 20_000 }).toBe(1);
    await expect(section.getByRole('link', { name: product.name }).getAttribute('href')).resolves.toBe(product.path);
    await expect(section.getByRole('button', { name: `Remove alert: ${product.name}` }).count()).resolves.toBe(1);
  });

  it('staff set the stock back: the email with the product link arrives once, and the alert is gone', async () => {
    await setStock(product.sku, stock, 'Reprinted (e2e alerts)');
    const subject = `Back in stock: ${product.name}`;
    await expect.poll(async () => (await emailsTitled(subject)).length, { timeout: 30_000, interval: 500 }).toBe(1);
    const [email] = await emailsTitled(subject);
    expect(email!.text).toContain(product.path);
    expect(email!.text).toContain('the alert is now removed');
    expect(email!.html).toContain(`${product.path}"`);
    // The alert went in the transaction that wrote the email, so no later send (another
    // stock change, the edge's sweep) can find it again: once under races is the Go test's
    // (TestAlertNotifyRace); here the count is read again at the end.
    await expect(alertsOf(buyerPage, buyer.idToken)).resolves.toEqual({ alerts: [] });

    await buyerPage.goto(shopURL + '/account/dashboard/');
    const section = buyerPage.getByRole('region', { name: 'Stock alerts' });
    await expect.poll(() => section.locator('.stock-alerts-empty').textContent(), { timeout: 20_000 }).toContain('You have no stock alerts.');
    // In stock again, the product page offers no alert.
    await buyerPage.goto(shopURL + product.path);
    await expect.poll(() => buyerPage.locator('.product .add-to-basket button').textContent(), { timeout: 20_000 }).toBe('Add');
    await expect(buyerPage.getByRole('button', { name: 'Email me when it is back' }).count()).resolves.toBe(0);
    expect(await emailsTitled(subject)).toHaveLength(1);
  });
});
