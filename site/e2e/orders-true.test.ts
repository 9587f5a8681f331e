import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { formatPence } from '../lib/format';
import { availabilityText, type Availability } from '../lib/availability';
import type { CheckoutInfo } from '../lib/checkout';
import { belowMinimumBy, launch, screenshot, shopURL, signIn } from './browser';

/** Issue 23, the buyer's side against the real API: availability on grids, product pages and
 * the basket; the delivery step's figures are the server's quote; a second tab's Place Order
 * for a basket already ordered links to that order. */

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type Priced = { unit_price: number; pack_size: number; pack_price: number; availability?: Availability };
type Card = { sku: string; path: string; in_stock: boolean };

/** Calls the API from a page of the shop, as the site does: JSON, the CSRF token, the buyer's
 * ID token in the body. */
async function api<T>(page: Page, path: string, body: Record<string, unknown>): Promise<{ status: number; data: T }> {
  return page.evaluate(
    async ({ path, body }) => {
      const csrf = ((await (await fetch('/api/csrf', { credentials: 'same-origin' })).json()) as { token: string }).token;
      const res = await fetch(path, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
        body: JSON.stringify(body),
      });
      return { status: res.status, data: (await res.json().catch(() => null)) as T };
    },
    { path, body },
  );
}

const billing = {
  company: 'Quay Gifts Ltd',
  contact: 'Sam Quay',
  address: { line1: '4 Quay Street', line2: '', town: 'Exampleton', postcode: 'EX1 2AB' },
  vat_number: '',
  po_ref: '',
  payment_method: 'proforma',
};

/** The first category (of the menu) whose first page has a product out of stock and one with
 * only a few packs left, by the API's answer; with the answers of its first page. */
async function categoryWithLowAndOut(page: Page, token: string): Promise<{ path: string; cards: Card[]; prices: Record<string, Priced> }> {
  await page.goto(shopURL + '/');
  const paths = [...new Set(await page.locator('.menu-categories a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!)))];
  for (const path of paths) {
    const payload = (await (await fetch(`${shopURL}${path}_payload.json`)).json()) as { products?: Card[] };
    const cards = (payload.products ?? []).slice(0, 48);
    if (cards.length === 0) continue;
    const { data } = await api<{ prices: Record<string, Priced> }>(page, '/api/prices', { token, skus: cards.map((c) => c.sku) });
    const states = Object.values(data.prices).map((p) => p.availability?.status);
    if (states.includes('out') && states.includes('low')) return { path, cards, prices: data.prices };
  }
  throw new Error('no category has both a low and an out-of-stock product on its first page');
}

describe('availability', { timeout: 180_000 }, () => {
  let ctx: BrowserContext;
  let page: Page;
  let token = '';
  let found: Awaited<ReturnType<typeof categoryWithLowAndOut>>;

  beforeAll(async () => {
    ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await ctx.newPage();
    token = (await signIn(page)).idToken;
    found = await categoryWithLowAndOut(page, token);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('a signed-out visitor sees nothing new: no stock lines and no prices call', async () => {
    const anon = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const calls: string[] = [];
    anon.on('request', (r) => r.url().includes('/api/prices') && calls.push(r.url()));
    await anon.goto(shopURL + found.path);
    await anon.waitForLoadState('networkidle');
    expect(await anon.locator('.grid .card').count()).toBeGreaterThan(0);
    expect(await anon.locator('.stock-line').count()).toBe(0);
    expect(calls).toEqual([]);
    await anon.close();
  });

  it('grid cards say what the API answers, without moving when it arrives; Add is disabled out of stock', async () => {
    // Hold the prices answer, so the cards can be measured before it arrives.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route('**/api/prices', hold);
    try {
      await page.goto(shopURL + found.path);
      const forms = page.locator('.grid .card .add-to-basket');
      await expect.poll(() => forms.count()).toBe(found.cards.length);
      const before = await forms.evaluateAll((fs) => fs.map((f) => Math.round(f.getBoundingClientRect().top + window.scrollY)));
      release();
      await expect.poll(() => page.locator('.grid .card .stock-line[data-stock=""]').count()).toBe(0);
      const after = await forms.evaluateAll((fs) => fs.map((f) => Math.round(f.getBoundingClientRect().top + window.scrollY)));
      expect(after).toEqual(before);
    } finally {
      await page.unroute('**/api/prices', hold);
    }
    for (const c of found.cards) {
      const a = found.prices[c.sku]!.availability!;
      const card = page.locator(`.grid .card[data-sku="${c.sku}"]`);
      await expect(card.locator('.stock-line').textContent()).resolves.toBe(availabilityText(a));
      const button = card.locator('.add-to-basket button');
      if (a.status === 'out') {
        await expect(button.textContent()).resolves.toBe('Out of stock');
        await expect(button.isDisabled()).resolves.toBe(true);
        await expect(card.locator('form').count()).resolves.toBe(0); // nothing to type a quantity into
      } else {
        await expect(button.textContent()).resolves.toBe('Add');
        await expect(button.isDisabled()).resolves.toBe(false);
      }
    }
    expect(
      await page
        .locator('.grid .card .stock-line')
        .filter({ hasText: /^Only \d+ packs? left$/ })
        .count(),
    ).toBeGreaterThan(0);
    await screenshot(page, 'availability-grid');
  });

  it('a product page says how many packs are left, or that it is out of stock and cannot be added', async () => {
    const low = found.cards.find((c) => found.prices[c.sku]!.availability!.status === 'low')!;
    const out = found.cards.find((c) => found.prices[c.sku]!.availability!.status === 'out')!;
    await page.goto(shopURL + low.path);
    const fact = page.locator('.product-facts dd.stock');
    await expect.poll(() => fact.textContent()).toBe(availabilityText(found.prices[low.sku]!.availability!));
    await expect.poll(() => page.locator('.product .add-to-basket button').textContent()).toBe('Add');
    await screenshot(page, 'availability-product-low');
    await page.goto(shopURL + out.path);
    await expect.poll(() => fact.textContent()).toBe('Out of stock');
    const button = page.locator('.product .add-to-basket button');
    await expect.poll(() => button.textContent()).toBe('Out of stock');
    await expect(button.isDisabled()).resolves.toBe(true);
  });

  it('a basket line that became short is flagged, and the checkout link says why it cannot go on', async () => {
    const low = found.cards.find((c) => found.prices[c.sku]!.availability!.status === 'low')!;
    const left = found.prices[low.sku]!.availability!.packs_left!;
    const pack = found.prices[low.sku]!.pack_size;
    // This buyer wants one pack of it.
    expect((await api(page, '/api/basket/add', { token, sku: low.sku, quantity: pack })).status).toBe(200);

    // Another buyer orders every pack that is left (with enough else to reach the minimum order).
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p2 = await other.newPage();
    const token2 = (await signIn(p2)).idToken;
    expect((await api(p2, '/api/basket/add', { token: token2, sku: low.sku, quantity: left * pack })).status).toBe(200);
    let below = await belowMinimumBy(p2, token2);
    for (const c of found.cards) {
      if (below <= 0) break;
      const a = found.prices[c.sku]!.availability!;
      if (a.status !== 'in_stock') continue;
      const packs = Math.min(10, Math.ceil(below / found.prices[c.sku]!.pack_price));
      await api(p2, '/api/basket/add', { token: token2, sku: c.sku, quantity: packs * found.prices[c.sku]!.pack_size });
      below = await belowMinimumBy(p2, token2);
    }
    expect(below).toBe(0);
    expect((await api(p2, '/api/billing', { token: token2, billing })).status).toBe(200);
    const placed = await api<{ id: string }>(p2, '/api/orders', {
      token: token2,
      idempotency_key: crypto.randomUUID(),
      delivery_option: 'standard',
      same_as_billing: true,
      deliver_to: null,
      delivery_note: '',
    });
    expect(placed.status).toBe(201);
    await other.close();

    await page.goto(shopURL + '/checkout/basket/');
    const row = page.locator(`.basket-table tr[data-sku="${low.sku}"]`);
    await expect.poll(() => row.locator('[data-short="true"]').textContent()).toBe('Out of stock: remove this line');
    const reason = page.locator('#short-reason');
    await expect(reason.textContent()).resolves.toBe('One line asks for more than we have in stock: reduce or remove the line marked above to continue.');
    await expect(page.getByRole('link', { name: 'Continue to billing' }).count()).resolves.toBe(0);
    const go = page.getByRole('button', { name: 'Continue to billing' });
    await expect(go.isDisabled()).resolves.toBe(true);
    await expect(go.getAttribute('aria-describedby')).resolves.toContain('short-reason');
    await screenshot(page, 'availability-basket-short');
    // Removing the line lets the buyer go on (as far as stock goes).
    await row.getByRole('button', { name: /^Remove / }).click();
    await expect.poll(() => reason.count()).toBe(0);
  });
});

describe('Place Order', { timeout: 180_000 }, () => {
  let ctx: BrowserContext;
  let page: Page;
  let token = '';

  beforeAll(async () => {
    ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await ctx.newPage();
    token = (await signIn(page)).idToken;
    // A basket over the free-delivery threshold would make standard free; either way the
    // figures are the server's. Fill it from in-stock products until it reaches the minimum.
    await page.goto(shopURL + '/outlet/section/photo-frames/803/');
    const cards = ((await (await fetch(`${shopURL}/outlet/section/photo-frames/803/_payload.json`)).json()) as { products: Card[] }).products.slice(0, 48);
    const { data } = await api<{ prices: Record<string, Priced> }>(page, '/api/prices', { token, skus: cards.map((c) => c.sku) });
    let short = Infinity;
    for (const c of cards) {
      const p = data.prices[c.sku]!;
      if (p.availability?.status !== 'in_stock') continue;
      const r = await api(page, '/api/basket/add', { token, sku: c.sku, quantity: 2 * p.pack_size });
      expect(r.status).toBe(200);
      short = await belowMinimumBy(page, token);
      if (short <= 0) break;
    }
    expect(short).toBe(0);
    expect((await api(page, '/api/billing', { token, billing })).status).toBe(200);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('the delivery step shows the server quote of each option and computes none', async () => {
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/checkout'));
    await page.goto(shopURL + '/checkout/delivery/');
    const info = (await (await answered).json()) as CheckoutInfo;
    expect(info.delivery_options.length).toBeGreaterThan(1);
    for (const o of info.delivery_options) {
      const label = page.locator(`label[for="opt-${o.id}"]`);
      await expect.poll(() => label.textContent()).toBe(`${o.name}: ${o.free ? 'free' : `${formatPence(o.charge_ex_vat)} ex VAT`}`);
      await page.locator(`#opt-${o.id}`).check();
      const total = (k: string) => page.locator(`.totals [data-total="${k}"]`).textContent();
      await expect.poll(() => total('goods')).toBe(formatPence(info.goods_ex_vat));
      await expect.poll(() => total('delivery')).toBe(o.free ? 'Free' : formatPence(o.charge_ex_vat));
      await expect.poll(() => total('net')).toBe(formatPence(o.net_ex_vat));
      await expect.poll(() => total('vat')).toBe(formatPence(o.vat));
      await expect.poll(() => total('gross')).toBe(formatPence(o.total_inc_vat));
    }
    await page.locator(`#opt-${info.delivery_options[0]!.id}`).check();
    await screenshot(page, 'delivery-quote');
  });

  it('a second tab placing the same basket is told it was just ordered, with a link to that order', async () => {
    // Both tabs are at Place Order, each with its own checkout key (sessionStorage is per tab).
    // The first tab's order empties the basket under the second, which still shows the step.
    const second = await ctx.newPage();
    await second.goto(shopURL + '/checkout/delivery/');
    await expect.poll(() => second.getByRole('button', { name: 'Place Order' }).isEnabled()).toBe(true);
    await page.goto(shopURL + '/checkout/delivery/');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL(/\/checkout\/complete\/TS-\d+\/$/);
    const orderId = page.url().split('/').filter(Boolean).pop()!;

    await second.getByRole('button', { name: 'Place Order' }).click();
    const alert = second.locator('main .form-error[role="alert"]');
    await expect.poll(() => alert.textContent()).toBe(`This basket was just ordered: see order ${orderId}.`);
    const link = alert.getByRole('link', { name: orderId });
    await expect(link.getAttribute('href')).resolves.toBe(`/account/orders/?id=${orderId}`);
    // This checkout is over: Place Order cannot be pressed again.
    await expect(second.getByRole('button', { name: 'Place Order' }).isDisabled()).resolves.toBe(true);
    await screenshot(second, 'place-order-second-tab');
    await link.click();
    await expect.poll(() => second.locator('.order-number').textContent()).toBe(orderId);
    await second.close();
  });
});
