import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, axeViolations, launch, screenshot, shopURL, signIn, signInAs } from './browser';
import { dearestInStock, fillToMinimum, placeBasket, type Priced } from './orders';
import { staffUser } from './staff';

/** Paid by card (issue 36, Acceptance): a new buyer chooses Pay by card, places the order
 * and pays it on the local payment page (the local stage's stand-in for Stripe's hosted
 * page, which delivers each outcome as a signed webhook event); the order shows paid and
 * staff can dispatch it. A declined card leaves the order failed with Pay now, which then
 * succeeds. Staff cancel a paid order: the buyer sees the credit note and the refund to the
 * card, staff see the refund. No page visited ever shows a card number field of ours. */

/** A category no other e2e file orders from. */
const CATEGORY = '/outlet/section/notebooks/901';

let browser: Browser;
let buyerPage: Page;
let staffPage: Page;
let buyer: Awaited<ReturnType<typeof signIn>>;
let staff: Awaited<ReturnType<typeof staffUser>>;
let dear: [string, Priced][] = [];
/** The order paid at checkout (a), cancelled by staff in (c). */
let paidAtCheckout = { id: '', total: 0 };
/** Every address the buyer's and staff's pages went to, for (d). */
const visited = new Set<string>();

/** Pounds as the shop writes them: £1,234.56. */
const pounds = (pence: number) => `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The buyer's order page (the payment page's cancel address too). */
const orderPage = (id: string) => `${shopURL}/account/orders/?id=${encodeURIComponent(id)}`;

/** The payment line of the buyer's page. */
const paymentState = (p: Page) => p.locator('.order-payment .payment-state').first().textContent();

/** Fields asking for a card number in the page and each of its frames served by the shop:
 * an input named, labelled for autofill or id'd as a card number. Stripe's own pages and
 * frames are Stripe's; none is ours. */
async function cardNumberFields(p: Page): Promise<string[]> {
  const found: string[] = [];
  const shop = new URL(shopURL).origin;
  for (const frame of p.frames()) {
    const url = frame.url();
    if (url !== 'about:blank' && !url.startsWith(shop)) continue;
    const fields = await frame
      .evaluate(() =>
        [...document.querySelectorAll('input, iframe')]
          .map((el) => {
            if (el instanceof HTMLIFrameElement) return `iframe ${el.src || el.name}`;
            const i = el as HTMLInputElement;
            return [i.name, i.autocomplete, i.id, i.getAttribute('data-elements-stable-field-name') ?? ''].join(' ');
          })
          .filter((s) => /cc-number|card-?number|card_number|cardnumber|iframe .*(stripe|card)/i.test(s)),
      )
      .catch(() => [] as string[]);
    found.push(...fields.map((f) => `${url}: ${f}`));
  }
  return found;
}

/** Checks the page as it is now has no card number field of ours. */
async function noCardField(p: Page) {
  expect(await cardNumberFields(p)).toEqual([]);
}

/** The local payment page the order's Pay goes to: clearly marked as a local test, asking
 * for no card number, offering the outcomes. */
async function onLocalPaymentPage(p: Page) {
  await p.waitForURL((u) => u.pathname.startsWith('/pay/local'), { timeout: 20_000 });
  await expect.poll(() => p.locator('body').textContent(), { timeout: 20_000 }).toContain('Local test payment');
  await expect(p.locator('input[autocomplete="cc-number"], input[name*="card" i]').count()).resolves.toBe(0);
  await noCardField(p);
}

/** Clicks an outcome on the local payment page and waits for what it does: Succeed sends
 * the buyer back to the shop (the session's success address). Decline may leave the buyer
 * on the page, as Stripe's does (the buyer may try another card), or send them back to the
 * order page: either way the outcome has been sent once the page has answered. */
async function chooseOutcome(p: Page, outcome: 'Succeed' | 'Decline') {
  const answered = p.waitForEvent('framenavigated', { predicate: (f) => f === p.mainFrame(), timeout: 20_000 }).then(
    () => true,
    () => false,
  );
  await p.getByRole('button', { name: outcome, exact: true }).click();
  if (outcome === 'Succeed') {
    await p.waitForURL((u) => !u.pathname.startsWith('/pay/local'), { timeout: 20_000 });
    return;
  }
  // A page that answers without navigating (a script's fetch) has answered once the network is quiet.
  if (!(await answered)) await p.waitForLoadState('networkidle');
  await p.waitForLoadState('load');
}

/** Reloads the buyer's order page until Pay now is offered (the invoice is issued at
 * placing, or by the sweep within a minute). */
async function awaitPayNow(p: Page, id: string) {
  const button = p.getByRole('button', { name: 'Pay now' });
  await expect
    .poll(
      async () => {
        if ((await button.count()) > 0) return true;
        await p.goto(orderPage(id));
        await p.locator('.order-number').first().waitFor({ timeout: 20_000 });
        return (await button.count()) > 0;
      },
      { timeout: 90_000, interval: 2_000 },
    )
    .toBe(true);
}

beforeAll(async () => {
  browser = await launch();
  buyerPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  staffPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  for (const p of [buyerPage, staffPage]) {
    p.on('framenavigated', (f) => {
      if (f === p.mainFrame() && f.url().startsWith(shopURL)) visited.add(f.url());
    });
  }
  buyer = await signIn(buyerPage);
  await buyerPage.waitForURL(/\/account\/dashboard\/$/);
  dear = await dearestInStock(buyerPage, buyer.idToken, CATEGORY);
  staff = await staffUser();
  await signInAs(staffPage, staff);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('paid by card', { timeout: 240_000 }, () => {
  it('(a) a new buyer pays by card at checkout; the order is paid, and staff can dispatch it', async () => {
    await fillToMinimum(buyerPage, buyer.idToken, dear);
    await buyerPage.goto(shopURL + '/checkout/billing/');
    await expect.poll(() => buyerPage.getByLabel('Company name').count(), { timeout: 20_000 }).toBe(1);
    await buyerPage.getByLabel('Company name').fill('Card Payers Ltd');
    await buyerPage.getByLabel('Contact name').fill('Sam Swipe');
    await buyerPage.getByLabel('Address line 1').fill('12 Till Road');
    await buyerPage.getByLabel('Town or city').fill('Exampleton');
    await buyerPage.getByLabel('Postcode').fill('EX1 2AB');
    const card = buyerPage.getByLabel('Pay by card');
    await card.check();
    await expect(buyerPage.locator('#pay-card-hint').textContent()).resolves.toBe(
      "Pay securely on Stripe's page after you place the order; the goods go as soon as it is paid.",
    );
    await noCardField(buyerPage);
    expect(await axeViolations(buyerPage)).toEqual([]);
    await screenshot(buyerPage, 'card-billing');
    await buyerPage.getByRole('button', { name: 'Continue to delivery' }).click();
    await buyerPage.waitForURL(/\/checkout\/delivery\/$/);
    await expect.poll(() => buyerPage.getByRole('button', { name: 'Place Order' }).isDisabled(), { timeout: 20_000 }).toBe(false);
    await noCardField(buyerPage);
    await buyerPage.getByRole('button', { name: 'Place Order' }).click();

    await onLocalPaymentPage(buyerPage);
    const id = new URL(buyerPage.url()).searchParams.get('order') ?? '';
    expect(id).toMatch(/^TS-\d+$/);
    await screenshot(buyerPage, 'card-local-payment-page');
    await chooseOutcome(buyerPage, 'Succeed');

    await buyerPage.waitForURL((u) => u.pathname === `/checkout/complete/${id}/`, { timeout: 20_000 });
    expect(new URL(buyerPage.url()).searchParams.get('paid')).toBe('1');
    // The webhook may land after the browser: the page waits for it, and says so meanwhile.
    await expect.poll(() => paymentState(buyerPage), { timeout: 60_000 }).toMatch(/^Paid/);
    await expect(buyerPage.getByRole('button', { name: 'Pay now' }).count()).resolves.toBe(0);
    await noCardField(buyerPage);
    await screenshot(buyerPage, 'card-complete-paid');
    const total = await buyerPage.evaluate(
      async ({ id, token }) =>
        ((await (await fetch(`/api/orders/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { total_inc_vat: number }).total_inc_vat,
      { id, token: buyer.idToken },
    );
    paidAtCheckout = { id, total };

    await staffPage.goto(`${shopURL}/admin/orders/?id=${encodeURIComponent(id)}`);
    await expect.poll(() => staffPage.locator('.admin-facts .payment-fact').textContent(), { timeout: 20_000 }).toMatch(/^By card.*· paid /);
    await staffPage.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect.poll(() => staffPage.locator('.admin-facts .status').first().textContent(), { timeout: 20_000 }).toBe('Confirmed');
    await expect.poll(() => staffPage.getByRole('button', { name: 'Dispatch…' }).isDisabled(), { timeout: 20_000 }).toBe(false);
    await expect(staffPage.getByRole('button', { name: 'Mark paid' }).count()).resolves.toBe(0);
    await noCardField(staffPage);
    await screenshot(staffPage, 'card-staff-paid');
  });

  it('(b) a declined card leaves the order failed with Pay now, which then succeeds', async () => {
    const token = buyer.idToken;
    await fillToMinimum(buyerPage, token, dear);
    const o = await placeBasket<{ id: string; error?: string }>(buyerPage, token);
    expect(o.status, o.data.error).toBe(201);
    const id = o.data.id;

    await buyerPage.goto(orderPage(id));
    await awaitPayNow(buyerPage, id);
    await expect(paymentState(buyerPage)).resolves.toBe('Awaiting payment');
    await buyerPage.getByRole('button', { name: 'Pay now' }).click();
    await onLocalPaymentPage(buyerPage);
    await chooseOutcome(buyerPage, 'Decline');

    // Wherever the local page sends the buyer back to, the order page says why, with Pay now.
    if (!buyerPage.url().startsWith(orderPage(id))) await buyerPage.goto(orderPage(id));
    await expect
      .poll(
        async () => {
          const line = await paymentState(buyerPage).catch(() => null);
          if (line?.startsWith('Payment failed')) return line;
          await buyerPage.reload();
          await buyerPage.locator('.order-payment').first().waitFor({ timeout: 20_000 });
          return paymentState(buyerPage);
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toBe('Payment failed: Your card was declined.');
    const payNow = buyerPage.getByRole('button', { name: 'Pay now' });
    await expect(payNow.count()).resolves.toBe(1);
    await noCardField(buyerPage);
    expect(await axeViolations(buyerPage)).toEqual([]);
    await screenshot(buyerPage, 'card-declined');

    // Pay now by keyboard: it is a real button.
    await payNow.focus();
    await buyerPage.keyboard.press('Enter');
    await onLocalPaymentPage(buyerPage);
    await chooseOutcome(buyerPage, 'Succeed');
    await buyerPage.waitForURL((u) => u.pathname === `/checkout/complete/${id}/`, { timeout: 20_000 });
    await expect.poll(() => paymentState(buyerPage), { timeout: 60_000 }).toMatch(/^Paid/);

    await buyerPage.goto(orderPage(id));
    await expect.poll(() => paymentState(buyerPage), { timeout: 20_000 }).toMatch(/^Paid by card on /);
    await expect(buyerPage.getByRole('button', { name: 'Pay now' }).count()).resolves.toBe(0);
  });

  it('(c) staff cancel a paid card order: the buyer sees the credit note and the refund to the card; staff see the refund', async () => {
    const { id, total } = paidAtCheckout;
    expect(id).not.toBe('');
    await staffPage.goto(`${shopURL}/admin/orders/?id=${encodeURIComponent(id)}`);
    await expect.poll(() => staffPage.getByRole('button', { name: 'Cancel order…' }).count(), { timeout: 20_000 }).toBe(1);
    await staffPage.getByRole('button', { name: 'Cancel order…' }).click();
    await staffPage.getByLabel('Reason (optional, the buyer sees it)').fill('Paid by card, then not wanted');
    await staffPage.getByRole('button', { name: `Yes, cancel order ${id}` }).click();
    await expect.poll(() => staffPage.locator('.admin-facts .status').first().textContent(), { timeout: 20_000 }).toBe('Cancelled');

    // The refund to the card follows the credit note at once (or the sweep's next round).
    const refund = staffPage.locator('.admin-facts .card-refund-fact');
    await expect
      .poll(
        async () => {
          if ((await refund.count()) > 0) return refund.first().textContent();
          await staffPage.reload();
          await staffPage.locator('.admin-facts').waitFor({ timeout: 20_000 });
          return (await refund.count()) > 0 ? refund.first().textContent() : '';
        },
        { timeout: 90_000, interval: 2_000 },
      )
      .toMatch(new RegExp(`^REF-[0-9A-Z-]+ ${pounds(total).replace(/[£.,]/g, '\\$&')} to the card, (pending at Stripe|succeeded)`));
    await noCardField(staffPage);
    await screenshot(staffPage, 'card-staff-refund');

    await buyerPage.goto(orderPage(id));
    await expect.poll(() => buyerPage.getByRole('heading', { name: /^VAT credit note CN-\d+$/ }).count(), { timeout: 20_000 }).toBe(1);
    await expect(buyerPage.locator('.order-status').first().textContent()).resolves.toContain('This order has been cancelled');
    await expect
      .poll(() => buyerPage.locator('.card-refunds').textContent(), { timeout: 20_000 })
      .toMatch(new RegExp(`^Refund of ${pounds(total).replace(/[£.,]/g, '\\$&')} to your card: (pending|issued \\(5 to 10 working days\\))$`));
    await noCardField(buyerPage);
    await screenshot(buyerPage, 'card-refund-buyer');
  });

  it('(d) no page visited shows a card number field of ours', async () => {
    expect(visited.size).toBeGreaterThan(5);
    const p = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInAs(p, buyer);
    for (const url of visited) {
      // Staff's pages, seen by the buyer, say the buyer is not staff: the buyer's own pages
      // and the payment pages are the ones a card field could be on.
      if (new URL(url).pathname.startsWith('/admin')) continue;
      await p.goto(url);
      await p.waitForLoadState('networkidle').catch(() => {});
      expect(await cardNumberFields(p), url).toEqual([]);
    }
    await p.context().close();
  });
});
