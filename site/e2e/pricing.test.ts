import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { api, launch, screenshot, shopURL, signIn, signInAs } from './browser';
import { dearestInStock, fillToMinimum } from './orders';
import { staffUser } from './staff';

/** Prices the trade expects (issue 37, Acceptance): RRP and margin on product pages and
 * grids; a product with quantity breaks shows its table, and adding packs across a break
 * changes the basket line's unit price and its "add N more" nudge; staff create a price
 * group, put a buyer in it and import its CSV (one bad row refused by its line, fixed,
 * applied), and the buyer sees the group's prices at once, without a rebuild, on a category
 * page, in the basket and on the invoice. The stack runs with PRICE_GROUP_CACHE_SECONDS=0
 * (scripts/test.mjs), so a group applied prices the very next request. */

/** The seed's category whose products carry breaks (contract: Age Balloons). */
const BREAKS_CATEGORY = '/outlet/section/age-balloons/603';
/** The category the test's price group discounts: no other e2e file orders from it. */
const GROUP_CATEGORY_ID = 604;
const GROUP_CATEGORY = `/outlet/section/helium-accessories/${GROUP_CATEGORY_ID}`;
const GROUP_PERCENT = 10;

type Margin = { rrp: number; tenths: number };
type BreakRow = { from_packs: number; to_packs: number | null; unit_price: number; pack_price: number; margin: Margin | null };
type Card = { sku: string; path: string; name: string; pack_size: number; unit_price: number; in_stock: boolean; margin: Margin | null };
type Detail = Card & { breaks: BreakRow[] };
type OwnPrice = { unit_price: number; discount_percent: number; pack_size: number; margin: Margin | null; breaks: BreakRow[] };

/** Pounds as the shop writes them: £1,234.56. */
const pounds = (pence: number) => `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
/** The first amount of money in a text, in pence ("£2.85 list £3.00" → 285). */
const firstPence = (text: string | null) => {
  const m = /£([\d,]+)\.(\d\d)/.exec(text ?? '');
  if (!m) throw new Error(`no amount in ${JSON.stringify(text)}`);
  return Number(m[1]!.replace(/,/g, '')) * 100 + Number(m[2]);
};

async function payload<T>(path: string): Promise<T> {
  const res = await fetch(`${shopURL}${path.endsWith('/') ? path : `${path}/`}_payload.json`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** The buyer's own prices of skus, as POST /api/prices quotes them. */
async function ownPrices(p: Page, token: string, skus: string[]): Promise<Record<string, OwnPrice>> {
  const { status, data } = await api<{ prices: Record<string, OwnPrice> }>(p, '/api/prices', { token, skus });
  expect(status).toBe(200);
  return data.prices;
}

/** Each line of an order or basket table: its text, units, unit price and line amount. */
async function tableLines(rows: Locator, labels: { units: string; unit: string; line: string }) {
  const out: { sku: string; text: string; units: number; unit: number; line: number }[] = [];
  for (const row of await rows.all()) {
    const cell = (label: string) => row.locator(`td[data-label="${label}"]`).textContent();
    const unitsText = (await cell(labels.units)) ?? '';
    const units = Number(/(\d+) units/.exec(unitsText)?.[1] ?? /\d+/.exec(unitsText)?.[0] ?? NaN);
    const text = (await row.textContent()) ?? '';
    const sku = (await row.getAttribute('data-sku')) ?? '';
    out.push({ sku, text, units, unit: firstPence(await cell(labels.unit)), line: firstPence(await cell(labels.line)) });
  }
  return out;
}

let browser: Browser;
let visitorContext: BrowserContext;
let buyerContext: BrowserContext;
let staffContext: BrowserContext;
let visitor: Page;
let buyerPage: Page;
let staffPage: Page;
let buyer: Awaited<ReturnType<typeof signIn>>;
let staff: Awaited<ReturnType<typeof staffUser>>;

/** The product with breaks the test buys (found in the seed), and its public table. */
let product: Detail;
/** The price group the test makes. */
const suffix = Math.random().toString(36).slice(2, 8);
const groupId = `e2e-${suffix}`;
const groupName = `E2E Independents ${suffix}`;

beforeAll(async () => {
  browser = await launch();
  visitorContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  buyerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  visitor = await visitorContext.newPage();
  buyerPage = await buyerContext.newPage();
  staffPage = await staffContext.newPage();
  buyer = await signIn(buyerPage);
  await buyerPage.waitForURL(/\/account\/dashboard\/$/);
  staff = await staffUser();
  await signInAs(staffPage, staff);

  // The first in-stock product of the breaks category with at least two breaks.
  const category = await payload<{ products: Card[] }>(BREAKS_CATEGORY);
  for (const card of category.products.filter((c) => c.in_stock)) {
    const page = await payload<{ product: Detail }>(card.path);
    if (page.product.breaks.length >= 2 && page.product.breaks[1]!.from_packs <= 24) {
      product = page.product;
      break;
    }
  }
  expect(product, `no product of ${BREAKS_CATEGORY} has quantity breaks`).toBeDefined();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('prices the trade expects', { timeout: 180_000 }, () => {
  it("signed out, grids and product pages show the RRP and the margin at list price, and a product's quantity prices as a table", async () => {
    const category = await payload<{ products: Card[] }>(BREAKS_CATEGORY);
    await visitor.goto(`${shopURL}${BREAKS_CATEGORY}/`);
    const first = category.products[0]!;
    const card = visitor.locator(`.grid .card[data-sku="${first.sku}"]`);
    await expect.poll(() => card.locator('.card-margin').count()).toBe(1);
    expect(first.margin, 'every seed product has an RRP').not.toBeNull();
    const margin = card.locator('.card-margin');
    await expect(margin.textContent()).resolves.toMatch(/^RRP £\d+\.\d\d · margin at list price -?\d+\.\d%$/);
    await expect(margin.textContent()).resolves.toContain(`RRP ${pounds(first.margin!.rrp)}`);
    await expect(margin.getAttribute('data-tenths')).resolves.toBe(String(first.margin!.tenths));

    await visitor.goto(shopURL + product.path);
    const pm = visitor.locator('.product-margin');
    await expect.poll(() => pm.count()).toBe(1);
    await expect(pm.textContent()).resolves.toBe(`RRP ${pounds(product.margin!.rrp)} · margin at list price ${(product.margin!.tenths / 10).toFixed(1)}%`);

    const table = visitor.getByRole('table', { name: 'Quantity prices', exact: true });
    await expect.poll(() => table.count()).toBe(1);
    const rows = table.locator('tbody tr');
    await expect(rows.count()).resolves.toBe(product.breaks.length);
    const firstRow = product.breaks[0]!;
    await expect(rows.first().locator('th').textContent()).resolves.toBe(firstRow.to_packs === 1 ? '1 pack' : `1–${firstRow.to_packs} packs`);
    await expect(rows.first().textContent()).resolves.toContain(`${pounds(firstRow.unit_price)} each`);
    await expect(rows.first().textContent()).resolves.toContain(`${pounds(firstRow.pack_price)} a pack`);
    const last = product.breaks[product.breaks.length - 1]!;
    await expect(rows.last().locator('th').textContent()).resolves.toBe(`${last.from_packs}+ packs`);
    await screenshot(visitor, 'pricing-product-breaks');
  });

  it("adding packs across a break changes the basket line's unit price and its nudge; the product page marks the basket's row", async () => {
    const own = (await ownPrices(buyerPage, buyer.idToken, [product.sku]))[product.sku]!;
    expect(own.breaks.length).toBeGreaterThanOrEqual(2);
    const [below, at] = own.breaks as [BreakRow, BreakRow];
    const next = own.breaks[2];
    const size = product.pack_size;
    // One pack under the second break: at least half of it, so the nudge shows.
    const packs = at.from_packs - 1;
    const add = await api<{ error?: string }>(buyerPage, '/api/basket/add', { token: buyer.idToken, sku: product.sku, quantity: packs * size });
    expect(add.status, add.data.error).toBe(200);

    await buyerPage.goto(shopURL + '/checkout/basket/');
    const row = buyerPage.locator(`.basket-table tr[data-sku="${product.sku}"]`);
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    const unit = row.locator('td[data-label="Unit price ex VAT"] .unit-price');
    await expect(unit.textContent()).resolves.toBe(pounds(below.unit_price));
    const nudge = row.locator('.basket-nudge');
    await expect(nudge.locator('span').textContent()).resolves.toBe(
      `Add 1 pack to pay ${pounds(at.unit_price)} each: save ${pounds(at.from_packs * size * (below.unit_price - at.unit_price))}`,
    );
    await screenshot(buyerPage, 'pricing-basket-nudge');

    await row.getByRole('button', { name: 'Add 1 pack' }).click();
    await expect.poll(() => unit.textContent()).toBe(pounds(at.unit_price));
    await expect(row.locator('input[type="number"]').inputValue()).resolves.toBe(String(at.from_packs));
    await expect(row.locator('.price-note').textContent()).resolves.toBe(`${at.from_packs}+ packs price`);
    await expect(row.locator('.line-amount').textContent()).resolves.toBe(pounds(at.from_packs * size * at.unit_price));
    if (next && 2 * at.from_packs >= next.from_packs) {
      await expect(nudge.locator('span').textContent()).resolves.toContain(`to pay ${pounds(next.unit_price)} each`);
    } else {
      await expect(nudge.count()).resolves.toBe(0);
    }

    await buyerPage.goto(shopURL + product.path);
    const table = buyerPage.locator('table.break-table');
    await expect.poll(() => table.locator('caption').textContent()).toBe('Quantity prices: your prices');
    await expect.poll(() => table.locator('tr[aria-current="true"]').getAttribute('data-from')).toBe(String(at.from_packs));
    await expect.poll(() => buyerPage.locator('.product-margin').textContent()).toMatch(/^RRP £\d+\.\d\d · your margin -?\d+\.\d%$/);
  });

  /** The test's group CSV: a discount on the group's category and a fixed price on the
   * product with breaks (below its list price); bad adds a row naming a SKU that is not in
   * the catalogue, as line 4. */
  const fixedPrice = () => Math.max(1, Math.floor(product.unit_price * 0.8));
  const groupCsv = (bad: boolean) =>
    [
      'applies_to,code,price,discount_percent,breaks',
      `category,${GROUP_CATEGORY_ID},,${GROUP_PERCENT},`,
      `product,${product.sku},${(fixedPrice() / 100).toFixed(2)},,`,
      ...(bad ? ['product,ZZ999-99999,0.10,,'] : []),
    ].join('\n') + '\n';

  it('staff create a price group and put the buyer in it; the buyer still sees list prices', async () => {
    // The buyer's account exists once their profile has been read (the account page's).
    expect((await api(buyerPage, '/api/getProfile', { token: buyer.idToken })).status).toBe(200);

    await staffPage.goto(shopURL + '/admin/price-groups/');
    await expect.poll(() => staffPage.getByRole('heading', { name: 'Price groups', level: 1 }).count(), { timeout: 20_000 }).toBe(1);
    await staffPage.getByLabel('Id', { exact: true }).fill(groupId);
    await staffPage.getByLabel('Name', { exact: true }).fill(groupName);
    await staffPage.getByRole('button', { name: 'Create price group' }).click();
    await expect.poll(() => staffPage.locator('.form-ok').first().textContent()).toBe(`The price group ${groupName} is created. Import its prices above.`);
    await expect(staffPage.locator(`tr[data-group="${groupId}"]`).textContent()).resolves.toContain('no rows yet');

    await staffPage.goto(`${shopURL}/admin/accounts/?uid=${encodeURIComponent(buyer.uid)}`);
    const select = staffPage.getByLabel('Price group', { exact: true });
    await expect.poll(() => select.isEnabled(), { timeout: 20_000 }).toBe(true);
    await select.selectOption(groupId);
    await staffPage.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => staffPage.getByText('The account is saved.').count()).toBe(1);

    // An empty group prices nothing: the group's category is at list price.
    await buyerPage.goto(`${shopURL}${GROUP_CATEGORY}/`);
    await expect.poll(() => buyerPage.locator('.grid .card').count()).toBeGreaterThan(0);
    await expect.poll(() => buyerPage.locator('.grid .card .card-margin').first().textContent()).toContain('your margin');
    await expect(buyerPage.locator('.grid .card .own-price').count()).resolves.toBe(0);
  });

  it("staff import the group's CSV: a bad row is refused by its line, the fixed file is reviewed and applied, and exported again", async () => {
    await staffPage.goto(shopURL + '/admin/price-groups/');
    const choose = staffPage.getByRole('button', { name: `Import or export ${groupName}` });
    await expect.poll(() => choose.count(), { timeout: 20_000 }).toBe(1);
    await choose.click();
    const section = staffPage.locator('section', { has: staffPage.getByRole('heading', { name: groupName, level: 2 }) });
    const file = section.getByLabel('CSV file');

    await file.setInputFiles({ name: 'independents.csv', mimeType: 'text/csv', buffer: Buffer.from(groupCsv(true)) });
    await section.getByRole('button', { name: 'Check', exact: true }).click();
    await expect.poll(() => section.getByRole('heading', { name: 'The file has a problem' }).count()).toBe(1);
    const problems = section.locator('table tbody tr');
    await expect(problems.count()).resolves.toBe(1);
    await expect(problems.first().getAttribute('data-line')).resolves.toBe('4');
    await expect(section.getByRole('alert').first().textContent()).resolves.toContain('Nothing was written');
    await screenshot(staffPage, 'pricing-group-problem');

    await file.setInputFiles({ name: 'independents.csv', mimeType: 'text/csv', buffer: Buffer.from(groupCsv(false)) });
    await section.getByRole('button', { name: 'Check', exact: true }).click();
    await expect.poll(() => section.getByRole('heading', { name: 'Review: 2 rows, nothing written yet' }).count()).toBe(1);
    await expect(section.locator('.import-counts').textContent()).resolves.toBe('Added2Changed0Removed0');
    await section.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(() => section.getByRole('heading', { name: 'Price group applied' }).count()).toBe(1);
    await expect(section.locator('.form-ok').textContent()).resolves.toContain(`${groupName} now holds 2 rows (2 added, 0 changed, 0 removed).`);
    await expect(staffPage.locator(`tr[data-group="${groupId}"]`).textContent()).resolves.toContain('2 rows');

    const [download] = await Promise.all([staffPage.waitForEvent('download'), section.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`price-group-${groupId}.csv`);
    const exported = readFileSync(await download.path(), 'utf8');
    expect(exported).toMatch(/^\uFEFF?applies_to,code,price,discount_percent,breaks\r?\n/);
    expect(exported).toContain(`category,${GROUP_CATEGORY_ID},,${GROUP_PERCENT},`);
    expect(exported).toContain(`product,${product.sku},${(fixedPrice() / 100).toFixed(2)},,`);
  });

  it("without a rebuild, the buyer sees the group's prices and their own margin on a category page and the product page", async () => {
    const category = await payload<{ products: Card[] }>(GROUP_CATEGORY);
    const first = category.products[0]!;
    await buyerPage.goto(`${shopURL}${GROUP_CATEGORY}/`);
    const card = buyerPage.locator(`.grid .card[data-sku="${first.sku}"]`);
    await expect.poll(() => card.locator('.own-price').count(), { timeout: 20_000 }).toBe(1);
    await expect(card.locator('.card-price').textContent()).resolves.toContain(`your price, ${GROUP_PERCENT}% off`);
    const own = (await ownPrices(buyerPage, buyer.idToken, [first.sku]))[first.sku]!;
    await expect(card.locator('.own-price').getAttribute('data-pence')).resolves.toBe(String(own.unit_price));
    const margin = card.locator('.card-margin');
    await expect.poll(() => margin.textContent()).toMatch(/ · your margin -?\d+\.\d%$/);
    // The buyer pays less than the list price: their margin at the RRP is the larger.
    expect(Number(await margin.getAttribute('data-tenths'))).toBeGreaterThan(first.margin!.tenths);
    await screenshot(buyerPage, 'pricing-group-category');

    await buyerPage.goto(shopURL + product.path);
    const price = buyerPage.locator('.product-price .own-price');
    await expect.poll(() => price.getAttribute('data-pence'), { timeout: 20_000 }).toBe(String(fixedPrice()));
  });

  let orderId = '';

  it('the basket names the group, its lines say the group priced them, and each line is units × unit price', async () => {
    await fillToMinimum(buyerPage, buyer.idToken, await dearestInStock(buyerPage, buyer.idToken, GROUP_CATEGORY));
    await buyerPage.goto(shopURL + '/checkout/basket/');
    await expect.poll(() => buyerPage.locator('.price-group-note').textContent(), { timeout: 20_000 }).toBe(`Prices: ${groupName}`);
    const lines = await tableLines(buyerPage.locator('.basket-table tbody tr'), { units: 'Packs', unit: 'Unit price ex VAT', line: 'Line ex VAT' });
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const l of lines) {
      expect(l.unit * l.units, l.text).toBe(l.line);
      expect(l.text, l.sku).toContain(groupName);
    }
    const grouped = lines.filter((l) => l.sku !== product.sku);
    expect(grouped.length).toBeGreaterThan(0);
    for (const l of grouped) expect(l.text).toContain(`${GROUP_PERCENT}% off`);
    await screenshot(buyerPage, 'pricing-group-basket');
  });

  it('the order and its VAT invoice keep what priced each line: the group and the break', async () => {
    await buyerPage.getByRole('link', { name: 'Continue to billing' }).click();
    await buyerPage.waitForURL(/\/checkout\/billing\/$/);
    await buyerPage.getByLabel('Company name').fill('Margin Cards Ltd');
    await buyerPage.getByLabel('Contact name').fill('Rowan Price');
    await buyerPage.getByLabel('Address line 1').fill('7 Break Street');
    await buyerPage.getByLabel('Town or city').fill('Exampleton');
    await buyerPage.getByLabel('Postcode').fill('EX1 2AB');
    await buyerPage.getByRole('button', { name: 'Continue to delivery' }).click();
    await buyerPage.waitForURL(/\/checkout\/delivery\/$/);
    await buyerPage.getByRole('button', { name: 'Place Order' }).click();
    await buyerPage.waitForURL(/\/checkout\/complete\/TS-\d+\/$/);
    orderId = buyerPage.url().split('/').filter(Boolean).pop()!;
    // The invoice is issued with the order, or a moment after: the page asks again until it is.
    await expect.poll(() => buyerPage.getByRole('heading', { name: 'VAT invoice', exact: true }).count(), { timeout: 30_000 }).toBe(1);
    await expect(buyerPage.locator('.order-number').textContent()).resolves.toBe(orderId);
    const lines = await tableLines(buyerPage.locator('.invoice .order-lines tbody tr'), { units: 'Units', unit: 'Unit ex VAT', line: 'Line ex VAT' });
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const l of lines) {
      expect(l.unit * l.units, l.text).toBe(l.line);
      expect(l.text, l.sku).toContain(groupName);
    }
    const withBreaks = lines.find((l) => l.sku === product.sku);
    expect(withBreaks, 'the product with breaks is on the invoice').toBeDefined();
    for (const l of lines.filter((x) => x.sku !== product.sku)) expect(l.text).toContain(`${GROUP_PERCENT}% off`);
    await screenshot(buyerPage, 'pricing-invoice');
  });
});
