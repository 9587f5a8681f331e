import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, axeViolations, emulatorUser, launch, screenshot, shopURL, signIn, signInAs } from './browser';
import { dearestInStock, fillToMinimum, placeBasket } from './orders';
import { grantStaff } from './staff';

/** Payments on the back office's account page (docs/back-office.md "Payments", issue 35
 * item 3): staff record a bank payment for a buyer's two invoices, allocated oldest
 * first, and the ledger shows the balance; a paid order cancelled leaves its credit note's
 * gross as credit on account, which staff refund. */

let browser: Browser;
let buyerPage: Page;
let staffPage: Page;
let buyer: Awaited<ReturnType<typeof signIn>>;
let orders: { id: string; total: number }[] = [];

/** Pounds as the shop writes them: £1,234.56. */
const pounds = (pence: number) => `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Pounds as staff type them into a form: 1234.56. */
const typed = (pence: number) => (pence / 100).toFixed(2);

/** Places n pro-forma orders for the signed-in buyer through the API, oldest first, each
 * a pack each of the dearest in-stock diaries (a category no other e2e file orders from)
 * up to the minimum order; answers their numbers and totals. */
async function placeOrders(p: Page, token: string, n: number): Promise<{ id: string; total: number }[]> {
  const dear = await dearestInStock(p, token, '/outlet/section/diaries/301');
  const billing = {
    company: 'Ledger Cards Ltd',
    contact: 'Robin Books',
    address: { line1: '9 Counting House Lane', line2: '', town: 'Exampleton', postcode: 'EX1 2AB' },
    vat_number: '',
    po_ref: '',
    payment_method: 'proforma',
  };
  expect((await api(p, '/api/billing', { token, billing })).status).toBe(200);
  const out: { id: string; total: number }[] = [];
  for (let i = 0; i < n; i++) {
    await fillToMinimum(p, token, dear);
    const o = await placeBasket<{ id: string; total_inc_vat: number }>(p, token);
    expect(o.status).toBe(201);
    out.push({ id: o.data.id, total: o.data.total_inc_vat });
  }
  return out;
}

/** The ledger's row for a document (its reference: INV-…, PAY-…, CN-…, REF-…). */
const row = (reference: string) => staffPage.locator(`tr.ledger-row[data-reference="${reference}"]`);

/** The text of one of the ledger's figures (balance, due, overdue, unallocated). */
const figure = (name: 'balance' | 'due' | 'overdue' | 'unallocated') => staffPage.locator(`.ledger-figures .ledger-${name}`).textContent();

beforeAll(async () => {
  browser = await launch();
  buyerPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  staffPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  buyer = await signIn(buyerPage);
  await buyerPage.waitForURL(/\/account\/dashboard\/$/);
  orders = await placeOrders(buyerPage, buyer.idToken, 2);

  const staff = await emulatorUser();
  await grantStaff(staff.email);
  await signInAs(staffPage, staff);
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

describe('payments on the account page', { timeout: 180_000 }, () => {
  const both = () => orders[0]!.total + orders[1]!.total;

  it('staff record a bank payment for two invoices, oldest first, and the ledger shows the balance', async () => {
    await staffPage.goto(`${shopURL}/admin/accounts/?uid=${encodeURIComponent(buyer.uid)}`);
    await expect.poll(() => staffPage.getByRole('heading', { name: 'Ledger' }).count(), { timeout: 20_000 }).toBe(1);
    // Both invoices are issued when the orders are placed (or by the sweep within a
    // minute): read the ledger again until both are on it.
    const invoices = staffPage.locator('tr.ledger-row[data-reference^="INV-"]');
    await expect
      .poll(
        async () => {
          if ((await invoices.count()) === 2) return 2;
          await staffPage.reload();
          await staffPage.getByRole('heading', { name: 'Ledger' }).waitFor({ timeout: 20_000 });
          await staffPage.locator('.ledger-figures').waitFor({ timeout: 20_000 });
          return invoices.count();
        },
        { timeout: 90_000, interval: 2_000 },
      )
      .toBe(2);
    await expect.poll(() => figure('balance')).toBe(pounds(both()));
    await expect(figure('due')).resolves.toBe(pounds(both()));

    const form = staffPage.locator('form[aria-labelledby="record-payment"]');
    await expect(form.getByLabel('Method').inputValue()).resolves.toBe('bank_transfer');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    await expect(form.getByLabel('Date received').inputValue()).resolves.toBe(today);
    // A problem sits beside its field, and nothing is sent.
    await form.getByRole('button', { name: 'Record payment' }).click();
    await expect.poll(() => form.locator('#payment-amount-error').count()).toBe(1);

    await form.getByLabel('Amount in pounds').fill(typed(both()));
    await form.getByLabel('Reference').fill('BACS E2E TWO');
    await expect(form.getByLabel('Oldest invoices first').isChecked()).resolves.toBe(true);
    await form.getByRole('button', { name: 'Record payment' }).click();
    await expect
      .poll(() => form.locator('.form-ok').textContent(), { timeout: 20_000 })
      .toMatch(new RegExp(`^Payment PAY-[0-9A-F]{12} of ${pounds(both()).replace(/[£.,]/g, '\\$&')} is recorded`));
    await expect.poll(() => figure('balance')).toBe('£0.00');
    await expect(figure('due')).resolves.toBe('£0.00');
    await expect(figure('unallocated')).resolves.toBe('£0.00');
    await expect(staffPage.locator('tr.ledger-row[data-reference^="PAY-"]').count()).resolves.toBe(1);
    for (const inv of await invoices.all()) await expect(inv.textContent()).resolves.toContain('Paid');
    await screenshot(staffPage, 'payments-recorded');
    expect(await axeViolations(staffPage)).toEqual([]);
  });

  it('a paid order cancelled leaves its credit on account, which staff refund by bank transfer', async () => {
    const second = orders[1]!;
    await staffPage.goto(`${shopURL}/admin/orders/?id=${encodeURIComponent(second.id)}`);
    await expect.poll(() => staffPage.getByRole('button', { name: 'Cancel order…' }).count(), { timeout: 20_000 }).toBe(1);
    await staffPage.getByRole('button', { name: 'Cancel order…' }).click();
    await staffPage.getByLabel('Reason (optional, the buyer sees it)').fill('Paid for twice by mistake');
    await staffPage.getByRole('button', { name: `Yes, cancel order ${second.id}` }).click();
    await expect.poll(() => staffPage.locator('.admin-facts .status').first().textContent(), { timeout: 20_000 }).toBe('Cancelled');

    await staffPage.goto(`${shopURL}/admin/accounts/?uid=${encodeURIComponent(buyer.uid)}`);
    const note = staffPage.locator('tr.ledger-row[data-reference^="CN-"]');
    await expect.poll(() => note.count(), { timeout: 20_000 }).toBe(1);
    const number = (await note.getAttribute('data-reference'))!;
    // The invoice was paid, so all of the note's gross is credit on account.
    await expect(note.textContent()).resolves.toContain(`Credit on account ${pounds(second.total)} left`);
    await expect(figure('balance')).resolves.toBe(`-${pounds(second.total)}`);
    await expect(figure('unallocated')).resolves.toBe(pounds(second.total));

    await staffPage.getByRole('button', { name: `Refund ${number}` }).click();
    const form = staffPage.locator('form[aria-labelledby="refund-form"]');
    await expect.poll(() => staffPage.evaluate(() => document.activeElement?.id)).toBe('refund-form');
    // More than it holds is the server's 409, said with Reload.
    await form.getByLabel('Amount in pounds').fill(typed(second.total + 1));
    await form.getByLabel('Reference').fill('BACS REFUND E2E');
    await form.getByRole('button', { name: 'Record refund' }).click();
    await expect
      .poll(() => form.locator('.form-error').textContent(), { timeout: 20_000 })
      .toContain(`has only ${pounds(second.total)} left: refund at most that.`);
    await expect(form.getByRole('button', { name: 'Reload' }).count()).resolves.toBe(1);

    await form.getByLabel('Amount in pounds').fill(typed(second.total));
    await form.getByRole('button', { name: 'Record refund' }).click();
    await expect.poll(() => form.locator('.form-ok').textContent(), { timeout: 20_000 }).toContain(`of ${number} is refunded`);
    const refund = staffPage.locator('tr.ledger-row[data-reference^="REF-"]');
    await expect.poll(() => refund.count()).toBe(1);
    await expect(refund.textContent()).resolves.toContain(`Bank transfer from ${number}`);
    await expect(figure('balance')).resolves.toBe('£0.00');
    await expect(figure('unallocated')).resolves.toBe('£0.00');
    await expect(staffPage.getByRole('button', { name: `Refund ${number}` }).count()).resolves.toBe(0);
    // The form stays to show what was done, but offers nothing more to refund.
    await expect(form.textContent()).resolves.toContain('Nothing is left to refund.');
    await expect(form.getByLabel('Amount in pounds').count()).resolves.toBe(0);
    await screenshot(staffPage, 'payments-refund');
  });
});
