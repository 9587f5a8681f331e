import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, axeViolations, launch, screenshot, shopURL, signIn, signInAs } from './browser';
import { dearestInStock, fillToMinimum, placeBasket } from './orders';
import { staffStock, staffUser } from './staff';
import { inbox, maildev } from './mail';

/** Part of an order (docs/invoices.md "Part of an order") end to end: staff take one line
 * off a confirmed order from /admin/ with Credit lines; the credit note covers exactly that
 * line (its units, its amount and VAT), its stock is back, the buyer's order page shows the
 * line ordered, credited and none to be sent with the note, downloads the note's PDF and is
 * emailed its number. */

type Line = { sku: string; quantity: number; line_amount: number; vat: number; credited: number; to_send: number };
type CreditNote = { number: string; net_ex_vat: number; vat: number; lines: { line: number; sku: string; units: number }[]; delivery_ex_vat: number };
type Order = { id: string; lines: Line[]; credit_notes: CreditNote[]; coupon_discount: number };

/** A category no other e2e file orders from. */
const CATEGORY = '/outlet/section/latex-balloons/602';

let browser: Browser;
let buyerContext: BrowserContext;
let staffContext: BrowserContext;
let buyerPage: Page;
let staffPage: Page;
let buyer: Awaited<ReturnType<typeof signIn>>;
let staff: Awaited<ReturnType<typeof staffUser>>;
let orderId = '';
let placed: Order;

/** A product's stock as staff see it. */
function stockOf(sku: string): Promise<number> {
  return staffStock(staffPage, staff.idToken, sku);
}

/** The buyer's order as the API answers it. */
async function order(id: string): Promise<Order> {
  return buyerPage.evaluate(
    async ({ id, token }) => {
      const res = await fetch(`/api/orders/${id}`, { headers: { Authorization: `Bearer ${token}` } });
      return (await res.json()) as Order;
    },
    { id, token: buyer.idToken },
  );
}

/** The order's version as staff see it (GET /api/admin/orders/{id}). */
async function versionOf(id: string): Promise<number> {
  const got = await staffPage.evaluate(
    async ({ id, token }) => {
      const csrf = (await (await fetch('/api/csrf')).json()) as { token: string; header: string };
      const res = await fetch(`/api/admin/orders/${id}`, { headers: { Authorization: `Bearer ${token}`, [csrf.header]: csrf.token } });
      return { status: res.status, body: (await res.json()) as { order?: { version: number }; error?: string } };
    },
    { id, token: staff.idToken },
  );
  expect(got.status, got.body.error).toBe(200);
  return got.body.order!.version;
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
  staff = await staffUser();
  await signInAs(staffPage, staff);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('part of an order', { timeout: 180_000 }, () => {
  it('a buyer places a pro-forma order of at least two lines; staff confirm it', async () => {
    const token = buyer.idToken;
    const billing = {
      company: 'Credit Cards Ltd',
      contact: 'Jo Credit',
      address: { line1: '7 Quay Street', line2: '', town: 'Exampleton', postcode: 'EX1 2AB' },
      vat_number: '',
      po_ref: '',
      payment_method: 'proforma',
    };
    expect((await api(buyerPage, '/api/billing', { token, billing })).status).toBe(200);
    await fillToMinimum(buyerPage, token, await dearestInStock(buyerPage, token, CATEGORY), 2);
    const o = await placeBasket(buyerPage, token);
    expect(o.status).toBe(201);
    orderId = o.data.id;

    await staffPage.goto(`${shopURL}/admin/orders/?id=${encodeURIComponent(orderId)}`);
    await expect.poll(() => staffPage.getByRole('button', { name: 'Confirm', exact: true }).count(), { timeout: 20_000 }).toBe(1);
    await staffPage.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect.poll(() => staffPage.locator('.admin-facts .status').first().textContent(), { timeout: 20_000 }).toBe('Confirmed');
    placed = await order(orderId);
    expect(placed.lines.length).toBeGreaterThanOrEqual(2);
  });

  it('staff remove one line with Credit lines: the credit note covers exactly that line and its stock is back', async () => {
    const line = placed.lines[0]!;
    const before = await stockOf(line.sku);
    await expect.poll(() => staffPage.getByRole('button', { name: 'Credit lines…' }).count(), { timeout: 20_000 }).toBe(1);
    await staffPage.getByRole('button', { name: 'Credit lines…' }).click();
    await staffPage.getByLabel(`Units of ${line.sku} to credit`).fill(String(line.quantity));
    await staffPage.getByLabel("Reason (the credit note and the buyer's email show it)").fill('Short of stock at the warehouse');
    expect(await axeViolations(staffPage)).toEqual([]);
    await screenshot(staffPage, 'credit-lines-form');
    await staffPage.getByRole('button', { name: 'Issue the credit note' }).click();
    await expect
      .poll(() => staffPage.locator('section[aria-labelledby="order-credit"] .form-ok').textContent(), { timeout: 20_000 })
      .toMatch(/^Credit note CN-\d{6} issued/);

    const after = await order(orderId);
    expect(after.credit_notes).toHaveLength(1);
    const note = after.credit_notes[0]!;
    expect(note.lines).toEqual([expect.objectContaining({ line: 0, sku: line.sku, units: line.quantity })]);
    expect(note.delivery_ex_vat).toBe(0);
    // Exactly the line: its amount less its share of any coupon (none here), and its VAT.
    expect(placed.coupon_discount).toBe(0);
    expect(note.net_ex_vat).toBe(line.line_amount);
    expect(note.vat).toBe(line.vat);
    expect(after.lines[0]).toMatchObject({ credited: line.quantity, to_send: 0 });
    expect(after.lines[1]).toMatchObject({ credited: 0, to_send: placed.lines[1]!.quantity });
    expect(await stockOf(line.sku)).toBe(before + line.quantity);
    await expect.poll(() => staffPage.locator('.admin-facts .credit-note-fact').count(), { timeout: 20_000 }).toBe(1);
  });

  it("the buyer's order page shows the line ordered, credited and none to be sent, with the note; its PDF downloads and the email names it", async () => {
    const number = (await order(orderId)).credit_notes[0]!.number;
    await buyerPage.goto(`${shopURL}/account/orders/?id=${encodeURIComponent(orderId)}`);
    const heading = buyerPage.getByRole('heading', { name: `VAT credit note ${number}` });
    await expect.poll(() => heading.count(), { timeout: 20_000 }).toBe(1);
    await expect(buyerPage.locator('.credit-note').textContent()).resolves.toContain('Lines removed before dispatch');
    await expect(buyerPage.locator('.credit-note').textContent()).resolves.toContain('Short of stock at the warehouse');
    const lines = buyerPage.getByRole('table', { name: 'Order lines' }).first();
    await expect(lines.getByRole('columnheader', { name: 'Credited' }).count()).resolves.toBe(1);
    await expect(lines.getByRole('columnheader', { name: 'To be sent' }).count()).resolves.toBe(1);
    await screenshot(buyerPage, 'credit-lines-buyer');

    const button = buyerPage.getByRole('button', { name: `Download credit note ${number} (PDF)` });
    const [download] = await Promise.all([buyerPage.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    expect(
      readFileSync(await download.path())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');

    const subject = `Credit note ${number} for your order ${orderId}`;
    await expect.poll(async () => (await inbox(buyer.email)).filter((m) => m.subject === subject).length, { timeout: 30_000, interval: 500 }).toBe(1);
    const mail = (await inbox(buyer.email)).find((m) => m.subject === subject)!;
    expect(mail.text ?? '').toContain(`VAT credit note ${number}`);
  });

  it('taking off every unit left is refused: cancel the order instead', async () => {
    const now = await order(orderId);
    const r = await api<{ error?: string }>(staffPage, `/api/admin/orders/${orderId}/credit`, {
      token: staff.idToken,
      version: await versionOf(orderId),
      lines: now.lines.map((l, i) => ({ line: i, units: l.to_send, restock: true })).filter((l) => l.units > 0),
      delivery: 0,
      reason: 'Everything',
    });
    expect(r.status).toBe(409);
    expect(r.data.error).toContain('cancel the order instead');
  });
});
