import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, emulatorUser, launch, screenshot, shopURL, signInAs } from './browser';
import { inbox, maildev, type Email } from './mail';
import { dearestInStock } from './orders';
import { staffUser } from './staff';

/** Issue 38's acceptance, end to end (docs/forward-orders.md): a buyer orders a line in
 * stock and a pre-order line in one checkout and gets two orders; three buyers forward-order
 * one product; staff record a short delivery of it, review the pro-rata proposal and apply
 * it; each buyer sees the packs allocated and backordered on the dashboard and gets the
 * allocation email. The product is one of the seed's forward boxed Christmas cards
 * (seed.MarkForward, XM201-00002), which no other e2e file orders; the line in stock comes
 * from gift bags (403), which no other file orders from either. */

let browser: Browser;
let buyerContext: BrowserContext;
let staffContext: BrowserContext;
let buyerPage: Page;
let staffPage: Page;
const FORWARD_SKU = 'XM201-00002';
const CATEGORY = '/outlet/section/boxed-christmas-cards/201';

type Card = { sku: string; path: string; pack_size: number; unit_price: number; forward: { delivery_from: string; order_by: string } | null };
type Buyer = Awaited<ReturnType<typeof emulatorUser>>;

const billing = (company: string) => ({
  company,
  contact: 'Sam Forward',
  address: { line1: '4 Quay Street', line2: '', town: 'Exampleton', postcode: 'EX1 2AB' },
  vat_number: '',
  po_ref: '',
  payment_method: 'proforma',
});

/** The one email to address whose subject holds each of words, once it has arrived. */
async function emailTo(address: string, ...words: string[]): Promise<Email> {
  const match = (m: Email) => words.every((w) => m.subject.includes(w));
  await expect.poll(async () => (await inbox(address)).filter(match).length, { timeout: 30_000, interval: 500 }).toBe(1);
  return (await inbox(address)).find(match)!;
}

/** Pro rata to the pack, as docs/forward-orders.md says: each order its share rounded down,
 * then the packs left one each, oldest order first, to the orders whose share was not whole. */
function proRata(received: number, wants: number[]): number[] {
  const total = wants.reduce((a, b) => a + b, 0);
  const got = wants.map((w) => Math.floor((received * w) / total));
  let left = received - got.reduce((a, b) => a + b, 0);
  for (let i = 0; i < wants.length && left > 0; i++) {
    if ((received * wants[i]!) % total !== 0) {
      got[i]!++;
      left--;
    }
  }
  return got;
}

let card: Card;
let packs: number[] = []; // what buyers A, B and C pre-order, in packs, oldest first
const buyers: Buyer[] = [];

beforeAll(async () => {
  expect(maildev, 'MAILDEV_URL: run the e2e tests through scripts/test').not.toBe('');
  browser = await launch();
  buyerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  buyerPage = await buyerContext.newPage();
  staffPage = await staffContext.newPage();
  const payload = (await (await fetch(`${shopURL}${CATEGORY}/_payload.json`)).json()) as { products: Card[] };
  card = payload.products.find((p) => p.sku === FORWARD_SKU)!;
  expect(card?.forward, `${FORWARD_SKU} is one of the seed's forward products`).toBeTruthy();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('forward orders', { timeout: 180_000 }, () => {
  it("the product page offers the pre-order, and one checkout makes today's order and a forward order", async () => {
    const a = await emulatorUser();
    buyers.push(a);
    await signInAs(buyerPage, a);
    // Enough packs of the pre-order line that each of three buyers' pre-orders passes the
    // minimum order on its own, in the ratio 7 : 5 : 3.
    const { data: basket } = await api<{ minimum_order: number }>(buyerPage, '/api/basket', { token: a.idToken });
    // At the buyer's own pack price (the shop's discounts may take something off the list).
    const { data: quoted } = await api<{ prices: Record<string, { pack_price: number }> }>(buyerPage, '/api/prices', {
      token: a.idToken,
      skus: [FORWARD_SKU],
    });
    const k = Math.ceil(basket.minimum_order / (3 * quoted.prices[FORWARD_SKU]!.pack_price));
    packs = [7 * k, 5 * k, 3 * k];

    await buyerPage.goto(shopURL + card.path);
    const main = buyerPage.locator('main');
    await expect.poll(() => main.textContent()).toContain('Pre-order for delivery from');
    await expect(main.textContent()).resolves.toContain('Order by');
    const form = buyerPage.locator('main form.add-to-basket').first();
    await form.locator('input').fill(String(packs[0]));
    await form.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => form.locator('[role="status"]').textContent()).toMatch(/Added/);
    await screenshot(buyerPage, 'forward-product');

    // And a pack of something in stock.
    const [sku, q] = (await dearestInStock(buyerPage, a.idToken, '/outlet/section/gift-bags/403'))[0]!;
    expect((await api(buyerPage, '/api/basket/add', { token: a.idToken, sku, quantity: q.pack_size })).status).toBe(200);

    await buyerPage.goto(shopURL + '/checkout/basket/');
    const row = buyerPage.locator(`tr[data-sku="${FORWARD_SKU}"]`);
    await expect.poll(() => row.textContent()).toContain('Pre-order for delivery from');
    await expect.poll(() => buyerPage.locator('.forward-note').textContent()).toContain('pre-order lines');
    await buyerPage.getByRole('link', { name: 'Continue to billing' }).click();
    await buyerPage.waitForURL(/\/checkout\/billing\/$/);
    await buyerPage.getByLabel('Company name').fill('Forward Cards A Ltd');
    await buyerPage.getByLabel('Contact name').fill('Alex Early');
    await buyerPage.getByLabel('Address line 1').fill('1 Spring Lane');
    await buyerPage.getByLabel('Town or city').fill('Exampleton');
    await buyerPage.getByLabel('Postcode').fill('EX1 2AB');
    await buyerPage.getByRole('button', { name: 'Continue to delivery' }).click();
    await buyerPage.waitForURL(/\/checkout\/delivery\/$/);
    const part = buyerPage.locator('.forward-part');
    await expect.poll(() => part.textContent()).toContain('a forward order of its own');
    await expect(part.locator('[data-total="forward"]').textContent()).resolves.toMatch(/^£/);
    await expect(buyerPage.getByLabel('No backorders').isChecked()).resolves.toBe(false);
    await screenshot(buyerPage, 'forward-delivery-step');
    await buyerPage.getByRole('button', { name: 'Place Order' }).click();
    await buyerPage.waitForURL(/\/checkout\/complete\/TS-\d+\/$/);
    const today = buyerPage.url().split('/').filter(Boolean).pop()!;
    const companion = buyerPage.locator('.forward-companion');
    await expect.poll(() => companion.getAttribute('data-companion')).toMatch(/^TS-\d+$/);
    const forwardId = (await companion.getAttribute('data-companion'))!;
    expect(forwardId).not.toBe(today);
    await screenshot(buyerPage, 'forward-complete');

    // Two orders: today's with its VAT invoice and the line in stock, the forward order
    // without an invoice, holding the pre-order line.
    const order = (id: string) =>
      buyerPage.evaluate(async ({ id, token }) => (await fetch(`/api/orders/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json(), {
        id,
        token: a.idToken,
      }) as Promise<{ kind: string; invoice: unknown; companion: string; lines: { sku: string }[] }>;
    const [t, f] = [await order(today), await order(forwardId)];
    expect(t.kind).toBe('');
    expect(t.lines.map((l) => l.sku)).toEqual([sku]);
    expect(f.kind).toBe('forward');
    expect(f.invoice).toBeNull();
    expect(f.companion).toBe(today);
    expect(f.lines.map((l) => l.sku)).toEqual([FORWARD_SKU]);
    await emailTo(a.email, 'Your forward order', forwardId);
  });

  it('two more buyers pre-order the same product', async () => {
    for (const [i, company] of ['Forward Cards B Ltd', 'Forward Cards C Ltd'].entries()) {
      // Each signs in through the shop's page first, as a buyer does (that makes the account).
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const p = await ctx.newPage();
      const u = await emulatorUser();
      buyers.push(u);
      await signInAs(p, u);
      expect((await api(p, '/api/billing', { token: u.idToken, billing: billing(company) })).status).toBe(200);
      const add = await api<{ error?: string }>(p, '/api/basket/add', { token: u.idToken, sku: FORWARD_SKU, quantity: packs[i + 1]! * card.pack_size });
      expect(add.status, add.data.error).toBe(200);
      const placed = await api<{ id: string; kind: string; error?: string }>(p, '/api/orders', {
        token: u.idToken,
        idempotency_key: crypto.randomUUID(),
        delivery_option: 'standard',
        same_as_billing: true,
        deliver_to: null,
        delivery_note: '',
        no_backorders: false,
      });
      expect(placed.status, placed.data.error).toBe(201);
      expect(placed.data.kind).toBe('forward');
      await ctx.close();
    }
  });

  it('staff record a short delivery, review the pro-rata proposal and apply it', async () => {
    const staff = await staffUser();
    await signInAs(staffPage, staff);
    await staffPage.goto(shopURL + '/admin/receiving/');
    const received = Math.floor((packs[0]! + packs[1]! + packs[2]!) * 0.6);
    await staffPage.getByLabel('SKU, line 1').fill(FORWARD_SKU);
    await staffPage.getByLabel('Units received, line 1').fill(String(received * card.pack_size));
    await staffPage.getByRole('button', { name: 'Record delivery' }).click();
    const proposal = staffPage.locator(`.receipt-sku[data-sku="${FORWARD_SKU}"]`);
    await expect.poll(() => proposal.locator('tbody tr').count()).toBeGreaterThanOrEqual(3);
    // Our three buyers' lines, oldest first, get their pro-rata shares; any other open line of
    // the product (none in a clean run) would share too, so the check reads the rows there are.
    const wants = await proposal.locator('td[data-label="Wants"]').allTextContents();
    const expected = proRata(received, wants.map(Number));
    const proposed = await proposal.locator('td[data-label="Proposed"] input').evaluateAll((els) => els.map((e) => Number((e as HTMLInputElement).value)));
    expect(proposed).toEqual(expected);
    await screenshot(staffPage, 'forward-proposal');
    await staffPage.getByRole('button', { name: 'Apply allocation' }).click();
    await staffPage.getByRole('button', { name: 'Yes, apply it' }).click();
    await expect.poll(() => staffPage.locator('.receipt .form-ok').textContent(), { timeout: 30_000 }).toContain('is applied');
  });

  it('each buyer sees what was allocated and backordered, and gets the allocation email', async () => {
    const expected = proRata(Math.floor((packs[0]! + packs[1]! + packs[2]!) * 0.6), packs);
    for (const [i, u] of buyers.entries()) {
      const book = await buyerPage.evaluate(
        async (token) => (await fetch('/api/forward-orders', { headers: { Authorization: `Bearer ${token}` } })).json(),
        u.idToken,
      );
      const line = (
        book as { orders: { lines: { sku: string; allocated_packs: number; backordered_packs: number; state: string }[] }[] }
      ).orders[0]!.lines.find((l) => l.sku === FORWARD_SKU)!;
      expect(line.allocated_packs).toBe(expected[i]);
      expect(line.backordered_packs).toBe(packs[i]! - expected[i]!);
      expect(line.state).toBe('backordered');
      const mail = await emailTo(u.email, 'Your forward order', 'on their way as order');
      expect(mail.text).toContain(`allocated ${expected[i]} of ${packs[i]} packs`);
      expect(mail.text).toContain('backordered');
    }
    // Buyer A's dashboard says it in words.
    await buyerPage.goto(shopURL + '/account/dashboard/');
    const fwd = buyerPage.locator('.forward-order').first();
    await expect.poll(() => fwd.textContent()).toContain(`Allocated ${expected[0]} of ${packs[0]} packs, backordered`);
    await screenshot(buyerPage, 'forward-dashboard');
  });
});
