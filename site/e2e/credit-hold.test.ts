import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, emulatorUser, launch, screenshot, shopURL, signInAs } from './browser';
import { fillBasketFrom } from './orders';
import { staffUser } from './staff';
import { backdateInvoice } from './store';

/** Credit hold end to end (docs/back-office.md "Credit hold", issue 35 item 5): a buyer on
 * account whose invoice is overdue past shop.json's grace (14 days; the invoice is moved
 * back 60 days in the store, so 30 days past its 30 days' terms) is refused on account at
 * checkout with the sentence naming the invoice, and places the same order pro-forma with
 * one press; staff see "On credit hold" on the account and lift it with a reason. Its
 * products are mugs (801), a category no other e2e file orders from. */

let browser: Browser;
let buyerPage: Page;
let staffPage: Page;
let buyer: Awaited<ReturnType<typeof emulatorUser>>;
let staff: Awaited<ReturnType<typeof staffUser>>;

const emulator = () => `http://${process.env.AUTH_EMULATOR_HOST}`;

/** Marks the emulator user's email verified (an order on account needs it), as its link would. */
async function verifyEmail(uid: string): Promise<void> {
  const res = await fetch(`${emulator()}/identitytoolkit.googleapis.com/v1/accounts:update?key=local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ localId: uid, emailVerified: true }),
  });
  expect(res.status).toBe(200);
}

/** A staff call from the staff page: reads with the ID token as bearer, writes with it in
 * the body, the CSRF header on both (docs/back-office.md "Roles"). */
async function staffCall<T>(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<{ status: number; data: T }> {
  return staffPage.evaluate(
    async ({ method, path, body, token }) => {
      const csrf = (await (await fetch('/api/csrf')).json()) as { token: string; header: string };
      const res = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, [csrf.header]: csrf.token },
        ...(method === 'POST' && { body: JSON.stringify({ token, ...body }) }),
      });
      return { status: res.status, data: (await res.json()) as T };
    },
    { method, path, body, token: staff.idToken },
  );
}

/** Fills the buyer's basket to the minimum order with packs of in-stock mugs. */
async function fillBasket(p: Page, token: string): Promise<void> {
  await fillBasketFrom(p, token, '/outlet/section/mugs/801');
}

/** The buyer's order as the API answers it. */
async function orderOf(id: string): Promise<{ status: string; billing?: { payment_method: string }; invoice: { number: string } | null }> {
  return buyerPage.evaluate(
    async ({ id, token }) => {
      const res = await fetch(`/api/orders/${id}`, { headers: { Authorization: `Bearer ${token}` } });
      return (await res.json()) as { status: string; billing?: { payment_method: string }; invoice: { number: string } | null };
    },
    { id, token: buyer.idToken },
  );
}

beforeAll(async () => {
  browser = await launch();
  buyerPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  staffPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  buyer = await emulatorUser();
  await verifyEmail(buyer.uid);
  await signInAs(buyerPage, buyer);
  await buyerPage.waitForURL(/\/account\/dashboard\/$/);
  staff = await staffUser();
  await signInAs(staffPage, staff);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('credit hold', { timeout: 180_000 }, () => {
  let first = '';
  let invoice = '';

  it('staff approve the buyer for credit, and the buyer places an order on account', async () => {
    const read = await staffCall<{ account: { version: number } }>('GET', `/api/admin/accounts/${buyer.uid}`);
    expect(read.status).toBe(200);
    const approve = await staffCall<{ error?: string }>('POST', `/api/admin/accounts/${buyer.uid}`, {
      version: read.data.account.version,
      approved_for_credit: true,
      credit_limit: 10_000_000,
      dsc: '',
    });
    expect(approve.status, approve.data.error).toBe(200);

    await fillBasket(buyerPage, buyer.idToken);
    await buyerPage.goto(shopURL + '/checkout/basket/');
    await buyerPage.getByRole('link', { name: 'Continue to billing' }).click();
    await buyerPage.waitForURL(/\/checkout\/billing\/$/);
    await buyerPage.getByLabel('Company name').fill('Overdue Cards Ltd');
    await buyerPage.getByLabel('Contact name').fill('Sam Late');
    await buyerPage.getByLabel('Address line 1').fill('9 Slow Lane');
    await buyerPage.getByLabel('Town or city').fill('Exampleton');
    await buyerPage.getByLabel('Postcode').fill('EX1 2AB');
    await buyerPage.getByLabel('Pay on account (30 days)').check();
    await buyerPage.getByRole('button', { name: 'Continue to delivery' }).click();
    await buyerPage.waitForURL(/\/checkout\/delivery\/$/);
    await buyerPage.getByRole('button', { name: 'Place Order' }).click();
    await buyerPage.waitForURL(/\/checkout\/complete\/TS-\d+\/$/);
    first = buyerPage.url().split('/').filter(Boolean).pop()!;
    await expect.poll(async () => (await orderOf(first)).invoice?.number ?? '', { timeout: 20_000 }).toMatch(/^INV-\d{6}$/);
    const o = await orderOf(first);
    expect(o.billing?.payment_method).toBe('account');
    invoice = o.invoice!.number;
  });

  it('with that invoice 30 days overdue, checkout refuses the next order on account with the sentence, and places it pro-forma', async () => {
    await backdateInvoice(buyer.uid, first, 60);
    await fillBasket(buyerPage, buyer.idToken);
    await buyerPage.goto(shopURL + '/checkout/delivery/');
    await buyerPage.getByRole('button', { name: 'Place Order' }).click();
    const refusal = buyerPage.locator('.form-error[role="alert"]');
    await expect.poll(() => refusal.textContent(), { timeout: 20_000 }).toContain('Your account is on credit hold');
    const sentence = (await refusal.textContent()) ?? '';
    expect(sentence).toContain(`invoice ${invoice} (order ${first}) is 30 days overdue`);
    expect(sentence).toContain('pay pro-forma instead');
    expect(buyerPage.url()).toMatch(/\/checkout\/delivery\/$/);
    await screenshot(buyerPage, 'credit-hold-checkout');
    expect(await axeViolations(buyerPage)).toEqual([]);

    await buyerPage.getByRole('button', { name: 'Pay pro-forma and place the order' }).click();
    await buyerPage.waitForURL(/\/checkout\/complete\/TS-\d+\/$/, { timeout: 30_000 });
    const second = buyerPage.url().split('/').filter(Boolean).pop()!;
    expect(second).not.toBe(first);
    expect((await orderOf(second)).billing?.payment_method).toBe('proforma');
  });

  it('staff see "On credit hold" on the account, lift it with a reason, and the trail names it', async () => {
    await staffPage.goto(`${shopURL}/admin/accounts/?uid=${encodeURIComponent(buyer.uid)}`);
    const status = staffPage.locator('.credit-hold-status');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toContain(`On credit hold: invoice ${invoice} (order ${first}) is 30 days overdue`);
    await screenshot(staffPage, 'credit-hold-account');
    await staffPage.getByLabel('Reason').fill('Cheque promised for Friday');
    await staffPage.getByRole('button', { name: 'Lift credit hold' }).click();
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toContain(`by ${staff.email}: Cheque promised for Friday`);
    await expect(status.textContent()).resolves.toMatch(/^Hold lifted until /);
    await expect.poll(() => staffPage.locator('.audit-list').first().textContent(), { timeout: 20_000 }).toContain('Lift credit hold');
  });
});
