import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, axeViolations, launch, screenshot, shopURL, signIn, signInAs } from './browser';
import { fillBasketFrom } from './orders';
import { staffUser } from './staff';

/** Statements end to end (docs/statements.md): a buyer places two orders (pro-forma, each
 * with its VAT invoice) and a third; staff record one bank payment for the first two
 * through the admin API in the page's context (allocated oldest first); the buyer's
 * dashboard statement shows the third invoice's amount as the balance and as the one open
 * invoice, and its PDF downloads; staff see the account on the Balances page and download
 * the aged debt CSV. The PDF's text is read back by the Go tests (api.TestStatementShowsAPaymentOfTwoInvoices,
 * with internal/pdftext): here the download's name, type and size are checked, and the
 * statement the PDF is drawn from. */

type Statement = { balance: number; due: number; overdue: number; open_items: { invoice: string; order_id: string; outstanding: number }[] };

let browser: Browser;
let buyerContext: BrowserContext;
let staffContext: BrowserContext;
let buyerPage: Page;
let staffPage: Page;
let buyer: Awaited<ReturnType<typeof signIn>>;
let staff: Awaited<ReturnType<typeof staffUser>>;
const placed: { id: string; total: number; invoice: string }[] = [];

/** Pounds as the shop writes them: £1,234.56. */
const pounds = (pence: number) => `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Fills the buyer's basket to the minimum order with a pack each of the dearest in-stock
 * age balloons (a category no other e2e file orders from). */
async function fillBasket(p: Page, token: string): Promise<void> {
  await fillBasketFrom(p, token, '/outlet/section/age-balloons/603');
}

/** Places an order of a full basket through the API; answers its number, total and invoice. */
async function placeOrder(n: number): Promise<{ id: string; total: number; invoice: string }> {
  await fillBasket(buyerPage, buyer.idToken);
  const r = await api<{ id: string; total_inc_vat: number; invoice: { number: string } | null; error?: string }>(buyerPage, '/api/orders', {
    token: buyer.idToken,
    idempotency_key: `statements-${buyer.uid}-${n}`,
    delivery_option: 'standard',
    same_as_billing: true,
  });
  expect(r.status, r.data.error).toBe(201);
  expect(r.data.invoice?.number).toMatch(/^INV-\d{6}$/);
  return { id: r.data.id, total: r.data.total_inc_vat, invoice: r.data.invoice!.number };
}

/** GET of an admin path in the staff page's context, with the bearer token and CSRF header. */
async function staffGet<T>(path: string): Promise<{ status: number; body: T }> {
  return staffPage.evaluate(
    async ({ path, token }) => {
      const csrf = (await (await fetch('/api/csrf')).json()) as { token: string; header: string };
      const res = await fetch(path, { headers: { Authorization: `Bearer ${token}`, [csrf.header]: csrf.token } });
      return { status: res.status, body: (await res.json()) as T };
    },
    { path, token: staff.idToken },
  );
}

beforeAll(async () => {
  browser = await launch();
  buyerContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  buyerPage = await buyerContext.newPage();
  staffPage = await staffContext.newPage();
  buyer = await signIn(buyerPage);
  await buyerPage.waitForURL(/\/account\/dashboard\/$/);
  // Staff sign in through the shop's page (the back office's pages read who is signed in)
  // after the grant, and keep a token that carries the claim for the API calls.
  staff = await staffUser();
  await signInAs(staffPage, staff);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('statements', { timeout: 180_000 }, () => {
  it('a buyer with no invoices sees no statement on the dashboard', async () => {
    await expect.poll(() => buyerPage.getByRole('heading', { name: 'Recent orders' }).count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => buyerPage.locator('[role="status"]', { hasText: 'Loading your statement' }).count(), { timeout: 20_000 }).toBe(0);
    await expect(buyerPage.getByRole('heading', { name: 'Statement of account' }).count()).resolves.toBe(0);
  });

  it('the buyer places three orders, each invoiced', async () => {
    const billing = {
      company: 'Statement Cards Ltd',
      contact: 'Sam Ledger',
      payment_method: 'proforma',
      address: { line1: '9 Bank St', town: 'Exampleton', postcode: 'EX1 2AB' },
    };
    const saved = await api<{ error?: string }>(buyerPage, '/api/billing', { token: buyer.idToken, billing });
    expect(saved.status, saved.data.error).toBe(200);
    for (const n of [1, 2, 3]) placed.push(await placeOrder(n));
    expect(new Set(placed.map((o) => o.invoice)).size).toBe(3);
  });

  it('staff record one bank payment for the first two invoices (allocated oldest first)', async () => {
    const amount = placed[0]!.total + placed[1]!.total;
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
    const r = await api<{ payment: { allocated: number; allocations: { invoice: string }[] }; ledger: { balance: number }; error?: string }>(
      staffPage,
      `/api/admin/accounts/${buyer.uid}/payments`,
      { token: staff.idToken, method: 'bank_transfer', date: today, amount, reference: 'BACS STATEMENT', allocate: 'oldest' },
    );
    expect(r.status, r.data.error).toBe(200);
    expect(r.data.payment.allocated).toBe(amount);
    expect(r.data.payment.allocations.map((a) => a.invoice).sort()).toEqual([placed[0]!.invoice, placed[1]!.invoice].sort());
    expect(r.data.ledger.balance).toBe(placed[2]!.total);
  });

  it("the buyer's dashboard statement shows the balance left, the one open invoice, nothing overdue", async () => {
    await buyerPage.goto(shopURL + '/account/dashboard/');
    const heading = buyerPage.getByRole('heading', { name: 'Statement of account' });
    await expect.poll(() => heading.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => buyerPage.getByTestId('statement-balance').textContent()).toBe(pounds(placed[2]!.total));
    await expect(buyerPage.getByTestId('statement-overdue').textContent()).resolves.toBe('£0.00');
    const rows = buyerPage.locator('.statement table tbody tr');
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().textContent()).resolves.toContain(placed[2]!.invoice);
    await expect(rows.first().textContent()).resolves.toContain(placed[2]!.id);
    expect(await axeViolations(buyerPage)).toEqual([]);
    await screenshot(buyerPage, 'statement-dashboard');
  });

  it('Download statement (PDF) saves statement-YYYY-MM-DD.pdf, a PDF of the statement that holds that balance', async () => {
    const button = buyerPage.getByRole('button', { name: 'Download statement (PDF)' });
    const [download] = await Promise.all([buyerPage.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}-\d{2}\.pdf$/);
    const file = readFileSync(await download.path());
    expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(file.length).toBeGreaterThan(5_000);
    await expect(buyerPage.locator('.statement [role="alert"]').count()).resolves.toBe(0);
    // The statement the PDF is drawn from (the same call, the same day).
    const s = await buyerPage.evaluate(async (token) => {
      const res = await fetch('/api/account/statement', { headers: { Authorization: `Bearer ${token}` } });
      return (await res.json()) as Statement;
    }, buyer.idToken);
    expect(s.balance).toBe(placed[2]!.total);
    expect(s.open_items.map((i) => i.invoice)).toEqual([placed[2]!.invoice]);
  });

  it('staff see the account on the Balances page, linked to its account page, and download the aged debt CSV', async () => {
    const got = await staffGet<{ accounts: { uid: string; balance: number }[] }>('/api/admin/balances');
    expect(got.status).toBe(200);
    expect(got.body.accounts.find((a) => a.uid === buyer.uid)?.balance).toBe(placed[2]!.total);

    await staffPage.goto(shopURL + '/admin/balances/');
    const row = staffPage.locator(`tr[data-uid="${buyer.uid}"]`);
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    await expect(row.textContent()).resolves.toContain(pounds(placed[2]!.total));
    await expect(row.getByRole('link').getAttribute('href')).resolves.toContain(`/admin/accounts/?uid=${buyer.uid}`);
    // Sorting by business name puts the header's state in aria-sort.
    await staffPage.getByRole('button', { name: /^Business/ }).click();
    await expect(staffPage.locator('th[aria-sort="ascending"]').textContent()).resolves.toContain('Business');

    const [download] = await Promise.all([staffPage.waitForEvent('download'), staffPage.getByRole('button', { name: 'Download aged debt (CSV)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^aged-debt-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.split('\n')[0]).toBe('account,business,current,days_1_30,days_31_60,days_61_90,days_over_90,due,unallocated,balance,oldest_overdue_days');
    const line = csv.split('\n').find((l) => l.startsWith(`${buyer.email},`));
    expect(line).toBeDefined();
    expect(line).toContain(`,${(placed[2]!.total / 100).toFixed(2)},`);
    expect(csv).toMatch(/\nTOTAL,,/);
  });
});
