import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations, emulatorUser, launch, screenshot, shopURL, signIn, signInAs } from './browser';
import { fillBasketFrom, placeBasket } from './orders';
import { grantStaff, staffStock } from './staff';
import { inbox, maildev, type Email } from './mail';

/** The back office end to end (docs/back-office.md): a buyer's order is confirmed by
 * email through the local inbox (maildev), staff granted by scripts/staff confirm, mark
 * paid and dispatch it with a tracking reference from /admin/, the buyer sees it
 * dispatched and gets the dispatch email; a second order is cancelled by staff and its
 * stock is back, with a VAT credit note the buyer sees, downloads and is emailed. */

let browser: Browser;
let buyerContext: BrowserContext;
let staffContext: BrowserContext;
let buyerPage: Page;
let staffPage: Page;
let buyer: Awaited<ReturnType<typeof signIn>>;
let staffToken = '';

/** The one email to address whose subject holds each of words, once it has arrived. */
async function emailTo(address: string, ...words: string[]): Promise<Email> {
  await expect
    .poll(async () => (await inbox(address)).filter((m) => words.every((w) => m.subject.includes(w))).length, { timeout: 30_000, interval: 500 })
    .toBe(1);
  return (await inbox(address)).find((m) => words.every((w) => m.subject.includes(w)))!;
}

/** Pounds as the shop writes them: £1,234.56. */
const pounds = (pence: number) => `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Fills the buyer's basket to the minimum order with a pack each of the dearest in-stock
 * plush toys (a category no other e2e file orders from); answers the SKUs and units added. */
async function fillBasket(p: Page, token: string): Promise<Map<string, number>> {
  return fillBasketFrom(p, token, '/outlet/section/plush/805');
}

/** A product's stock as staff see it. */
function stockOf(sku: string): Promise<number> {
  return staffStock(staffPage, staffToken, sku);
}

beforeAll(async () => {
  expect(maildev, 'MAILDEV_URL: run the e2e tests through scripts/test').not.toBe('');
  browser = await launch();
  buyerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  buyerPage = await buyerContext.newPage();
  staffPage = await staffContext.newPage();
  buyer = await signIn(buyerPage);
  await buyerPage.waitForURL(/\/account\/dashboard\/$/);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('the back office', { timeout: 180_000 }, () => {
  let first = '';
  let firstTotal = 0;

  it('a buyer who is not staff opening /admin/ sees "Staff only" and nothing of the back office', async () => {
    await buyerPage.goto(shopURL + '/admin/');
    await expect.poll(() => buyerPage.getByRole('heading', { name: 'Staff only' }).count(), { timeout: 20_000 }).toBe(1);
    await expect(buyerPage.getByRole('link', { name: 'Accounts' }).count()).resolves.toBe(0);
    await expect(buyerPage.locator('meta[name="robots"]').getAttribute('content')).resolves.toContain('noindex');
  });

  it('a buyer places an order through checkout; the confirmation email with its number and total arrives in the local inbox', async () => {
    await fillBasket(buyerPage, buyer.idToken);
    await buyerPage.goto(shopURL + '/checkout/basket/');
    await buyerPage.getByRole('link', { name: 'Continue to billing' }).click();
    await buyerPage.waitForURL(/\/checkout\/billing\/$/);
    await buyerPage.getByLabel('Company name').fill('Counter Cards Ltd');
    await buyerPage.getByLabel('Contact name').fill('Alex Till');
    await buyerPage.getByLabel('Address line 1').fill('3 Market Row');
    await buyerPage.getByLabel('Town or city').fill('Exampleton');
    await buyerPage.getByLabel('Postcode').fill('EX1 2AB');
    await buyerPage.getByLabel('Your PO reference (optional)').fill('PO-BACK-1');
    await buyerPage.getByLabel('Pro-forma: pay by bank transfer before we dispatch').check();
    await buyerPage.getByRole('button', { name: 'Continue to delivery' }).click();
    await buyerPage.waitForURL(/\/checkout\/delivery\/$/);
    await buyerPage.getByRole('button', { name: 'Place Order' }).click();
    await buyerPage.waitForURL(/\/checkout\/complete\/TS-\d+\/$/);
    first = buyerPage.url().split('/').filter(Boolean).pop()!;
    const order = await buyerPage.evaluate(
      async ({ id, token }) => {
        const res = await fetch(`/api/orders/${id}`, { headers: { Authorization: `Bearer ${token}` } });
        return (await res.json()) as { total_inc_vat: number; status: string };
      },
      { id: first, token: buyer.idToken },
    );
    firstTotal = order.total_inc_vat;
    expect(order.status).toBe('placed');

    const mail = await emailTo(buyer.email, `Your order ${first} with`);
    const body = mail.text ?? '';
    expect(body).toContain(first);
    expect(body).toContain(pounds(firstTotal));
    expect(body).toContain('PO-BACK-1');
    expect(mail.html ?? '').toContain(pounds(firstTotal));
  });

  it('staff granted by scripts/staff sign in, find the order and confirm it; the audit trail names them', async () => {
    const staff = await emulatorUser();
    await grantStaff(staff.email);
    await signInAs(staffPage, staff);
    // A token minted after the grant carries the claim (for the stock reads below).
    const res = await fetch(`http://${process.env.AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: staff.email, password: staff.password, returnSecureToken: true }),
    });
    staffToken = ((await res.json()) as { idToken: string }).idToken;

    await staffPage.goto(shopURL + '/admin/');
    const search = staffPage.getByLabel('Order number, business or PO reference');
    await expect.poll(() => search.count(), { timeout: 20_000 }).toBe(1);
    await search.fill(first);
    await staffPage.getByRole('button', { name: 'Find orders' }).click();
    const link = staffPage.getByRole('link', { name: first });
    await expect.poll(() => link.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await link.first().click();
    await staffPage.waitForURL(/\/admin\/orders\/\?id=/);
    await expect.poll(() => staffPage.getByRole('heading', { name: `Order ${first}` }).count()).toBe(1);
    await expect.poll(() => staffPage.getByRole('button', { name: 'Confirm', exact: true }).count(), { timeout: 20_000 }).toBe(1);
    await screenshot(staffPage, 'back-office-order');
    expect(await axeViolations(staffPage)).toEqual([]);

    await staffPage.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect.poll(() => staffPage.locator('.admin-facts .status').first().textContent(), { timeout: 20_000 }).toBe('Confirmed');
    await expect.poll(() => staffPage.locator('.audit-list').first().textContent()).toContain(staff.email);
  });

  it('a pro-forma order is marked paid, then dispatched with carrier and tracking reference', async () => {
    await staffPage.getByRole('button', { name: 'Mark paid' }).click();
    await expect.poll(() => staffPage.getByRole('button', { name: 'Dispatch…' }).isDisabled(), { timeout: 20_000 }).toBe(false);
    await staffPage.getByRole('button', { name: 'Dispatch…' }).click();
    await staffPage.getByLabel('Carrier').fill('Royal Mail');
    await staffPage.getByLabel('Tracking reference').fill('RM987654321GB');
    await staffPage.getByRole('button', { name: 'Dispatch order' }).click();
    await expect.poll(() => staffPage.locator('.admin-facts .status').first().textContent(), { timeout: 20_000 }).toBe('Dispatched');
    await screenshot(staffPage, 'back-office-dispatched');
  });

  it('the buyer\'s order page shows "Dispatched" and the tracking reference, and the dispatch email arrives', async () => {
    await buyerPage.goto(`${shopURL}/account/orders/?id=${encodeURIComponent(first)}`);
    await expect.poll(() => buyerPage.locator('.order-status .status').first().textContent(), { timeout: 20_000 }).toBe('Dispatched');
    await expect(buyerPage.locator('.order-dispatch .tracking').textContent()).resolves.toBe('RM987654321GB');
    await expect(buyerPage.locator('.order-dispatch').textContent()).resolves.toContain('Royal Mail');
    await screenshot(buyerPage, 'back-office-buyer-dispatched');

    const mail = await emailTo(buyer.email, `Your order ${first} has been dispatched`);
    expect(mail.text ?? '').toContain('RM987654321GB');
    expect(mail.text ?? '').toContain('Royal Mail');
  });

  it('a second order cancelled by staff gives its stock back, and the buyer is told', async () => {
    const added = await fillBasket(buyerPage, buyer.idToken);
    const entry = [...added.entries()][0];
    if (!entry) throw new Error('the basket was not filled');
    const [sku, units] = entry;
    const o = await placeBasket(buyerPage, buyer.idToken);
    expect(o.status).toBe(201);
    const second = o.data.id;
    await staffPage.goto(`${shopURL}/admin/orders/?id=${encodeURIComponent(second)}`);
    await expect.poll(() => staffPage.getByRole('button', { name: 'Cancel order…' }).count(), { timeout: 20_000 }).toBe(1);
    const before = await stockOf(sku);
    await staffPage.getByRole('button', { name: 'Cancel order…' }).click();
    await staffPage.getByLabel('Reason (optional, the buyer sees it)').fill('Ordered twice by mistake');
    await staffPage.getByRole('button', { name: `Yes, cancel order ${second}` }).click();
    await expect.poll(() => staffPage.locator('.admin-facts .status').first().textContent(), { timeout: 20_000 }).toBe('Cancelled');
    expect(await stockOf(sku)).toBe(before + units);

    await buyerPage.goto(`${shopURL}/account/orders/?id=${encodeURIComponent(second)}`);
    await expect.poll(() => buyerPage.locator('.order-cancelled').count(), { timeout: 20_000 }).toBe(1);
    await expect(buyerPage.locator('.order-cancelled').textContent()).resolves.toContain('Ordered twice by mistake');
    const mail = await emailTo(buyer.email, `Your order ${second} has been cancelled`);
    expect(mail.text ?? '').toContain(second);
  });

  it('the cancellation issues a VAT credit note: staff and the buyer see it, the buyer downloads its PDF and is emailed its number', async () => {
    // The order cancelled by the test above (the buyer's page is still on it).
    const heading = buyerPage.getByRole('heading', { name: /^VAT credit note CN-\d{6}$/ });
    await expect.poll(() => heading.count(), { timeout: 20_000 }).toBe(1);
    const number = ((await heading.textContent()) ?? '').replace('VAT credit note ', '');
    const second = new URL(buyerPage.url()).searchParams.get('id')!;
    const note = buyerPage.locator('.credit-note');
    await expect(note.textContent()).resolves.toContain('Order cancelled: Ordered twice by mistake');
    await expect(note.textContent()).resolves.toMatch(/INV-\d{6} of /);
    await expect(note.textContent()).resolves.toContain('Total credited inc VAT');
    const button = buyerPage.getByRole('button', { name: `Download credit note ${number} (PDF)` });
    const [download] = await Promise.all([buyerPage.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    expect(
      readFileSync(await download.path())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    await screenshot(buyerPage, 'credit-note');

    const mail = await emailTo(buyer.email, `Your order ${second} has been cancelled`);
    expect(mail.text ?? '').toContain(`VAT credit note ${number}`);

    await staffPage.goto(`${shopURL}/admin/orders/?id=${encodeURIComponent(second)}`);
    await expect.poll(() => staffPage.locator('.admin-facts .credit-note-fact').count(), { timeout: 20_000 }).toBe(1);
    await expect(staffPage.locator('.admin-facts .credit-note-fact').textContent()).resolves.toContain(number);
  });
});
