import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, axeViolations, launch, screenshot, shopURL, signIn, signInAs } from './browser';
import { staffStock, staffUser } from './staff';

/** Issue 39: sort, filters and facets on category, range and search pages
 * (docs/sort-and-filter.md). The expectations are worked out here from the category's own
 * filter index (_filter.json), by a plain count written for this test, and compared with
 * what the buyer sees: the cards' order and the numbers beside each choice. */

const CATEGORY = '/outlet/section/female-birthday-cards/101/';
/** The category the own-prices rule is tested on (at most 48 lines, so one page). */
const GROUP_CATEGORY = '/outlet/section/age-balloons/603/';

type Index = {
  facets: { key: string; label: string; values: { id: string; label: string; count: number }[] }[];
  prices: { id: string; label: string }[];
  products: { sku: string[]; name: string[]; unit_price: number[]; price_rank: number[]; values: number[][]; in_stock: number[] };
};

async function indexOf(path: string): Promise<Index> {
  const res = await fetch(`${shopURL}${path}_filter.json`);
  expect(res.status, `${path}_filter.json`).toBe(200);
  return (await res.json()) as Index;
}

/** The value number of facet key's value id in an index. */
function valueNumber(ix: Index, key: string, id: string): number {
  let n = 0;
  for (const f of ix.facets) {
    for (const v of f.values) {
      if (f.key === key && v.id === id) return n;
      n++;
    }
  }
  throw new Error(`${key}=${id} is not in the index`);
}

/** The products (positions) having every chosen value, by the rule: OR within a facet, AND
 * across; and the count beside value (key, id) with the other facets' choices. */
function oracle(ix: Index, chosen: Record<string, string[]>) {
  const nums = Object.fromEntries(Object.entries(chosen).map(([k, ids]) => [k, ids.map((id) => valueNumber(ix, k, id))]));
  const passes = (i: number, except?: string) => Object.entries(nums).every(([k, vs]) => k === except || vs.some((v) => ix.products.values[i]!.includes(v)));
  const all = ix.products.sku.map((_, i) => i);
  return {
    shown: all.filter((i) => passes(i)),
    count: (key: string, id: string) => {
      const v = valueNumber(ix, key, id);
      return all.filter((i) => passes(i, key) && ix.products.values[i]!.includes(v)).length;
    },
  };
}

/** Opens a listing page and waits for its filter index: the page fetches it from an effect
 * once hydrated (at once for a filtered view, else when the load has settled), so the
 * controls answer from then on. */
async function openListing(p: Page, url: string): Promise<void> {
  const index = p.waitForResponse((r) => r.url().includes('_filter.json'), { timeout: 30_000 });
  await p.goto(url);
  await index;
}

/** The index's SKUs by list unit price, ties in featured order, as the price sorts show them. */
function byListPrice(ix: Index, dir: 'asc' | 'desc' = 'asc'): string[] {
  const sign = dir === 'asc' ? 1 : -1;
  return ix.products.sku
    .map((sku, i) => ({ sku, i, pence: ix.products.unit_price[i]! }))
    .sort((a, b) => sign * (a.pence - b.pence) || a.i - b.i)
    .map((p) => p.sku);
}

const cardSkus = (p: Page) => p.locator('.grid .card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-sku')));
const countText = (p: Page) => p.getByTestId('listing-count').textContent();

let browser: Browser;
let desktop: BrowserContext;
let visitor: Page;

beforeAll(async () => {
  browser = await launch();
  desktop = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  visitor = await desktop.newPage();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe('sort and filter a category at 1440 px', { timeout: 180_000 }, () => {
  it('sorts by price: the cards come in unit-price order, ties in featured order', async () => {
    const ix = await indexOf(CATEGORY);
    await openListing(visitor, shopURL + CATEGORY);
    await visitor.getByLabel('Sort by').selectOption('price');
    await expect.poll(() => visitor.url()).toBe(`${shopURL}${CATEGORY}?sort=price`);
    const byPrice = byListPrice(ix);
    await expect.poll(() => cardSkus(visitor), { timeout: 20_000 }).toEqual(byPrice.slice(0, 48));
    // What the buyer reads goes up too.
    const shown = await visitor.locator('.grid .card .card-price').allTextContents();
    const pence = shown.map((t) => Number(/£(\d+)\.(\d\d)/.exec(t)!.slice(1).join('')));
    expect(pence).toEqual([...pence].sort((a, b) => a - b));
    await visitor.getByLabel('Sort by').selectOption('price-desc');
    await expect.poll(() => cardSkus(visitor)).toEqual(byListPrice(ix, 'desc').slice(0, 48));
  });

  it('two facets narrow the grid with the right counts; reload keeps the view and Back undoes each change', async () => {
    const ix = await indexOf(CATEGORY);
    const style = ix.facets.find((f) => f.key === 'style')!;
    // The style with most lines, and the pack size most of them come in.
    const styleId = [...style.values].sort((a, b) => b.count - a.count)[0]!.id;
    const styleLabel = style.values.find((v) => v.id === styleId)!.label;
    const pack = ix.facets.find((f) => f.key === 'pack')!;
    const one = oracle(ix, { style: [styleId] });
    const packId = pack.values.map((v) => v.id).sort((a, b) => one.count('pack', b) - one.count('pack', a))[0]!;
    const two = oracle(ix, { style: [styleId], pack: [packId] });
    expect(two.shown.length, 'the seed gives two facets that narrow').toBeGreaterThan(0);
    expect(two.shown.length).toBeLessThan(one.shown.length);

    await openListing(visitor, shopURL + CATEGORY);
    expect(await countText(visitor)).toBe(`Showing 1 to 48 of ${ix.products.sku.length} lines`);
    const panel = visitor.locator('section.listing-filters');
    const box = (legend: string, name: string | RegExp) => panel.getByRole('group', { name: legend }).getByRole('checkbox', { name });
    await box('Style and finish', `${styleLabel} (${style.values.find((v) => v.id === styleId)!.count})`).check();
    await expect.poll(() => visitor.url()).toBe(`${shopURL}${CATEGORY}?style=${styleId}`);
    await expect.poll(() => countText(visitor)).toBe(`Showing 1 to ${one.shown.length} of ${one.shown.length} lines`);
    // Every pack size's count is now within the style: none is hidden, one may be disabled.
    for (const v of pack.values) {
      const b = box('Pack size', `${v.label} (${one.count('pack', v.id)})`);
      await expect(b.count()).resolves.toBe(1);
      await expect(b.isDisabled()).resolves.toBe(one.count('pack', v.id) === 0);
    }
    await box('Pack size', `${pack.values.find((v) => v.id === packId)!.label} (${one.count('pack', packId)})`).check();
    await expect.poll(() => visitor.url()).toBe(`${shopURL}${CATEGORY}?style=${styleId}&pack=${packId}`);
    await expect.poll(() => countText(visitor)).toBe(`Showing 1 to ${two.shown.length} of ${two.shown.length} lines`);
    expect(await cardSkus(visitor)).toEqual(two.shown.map((i) => ix.products.sku[i]));
    // The style counts are now within the pack size.
    for (const v of style.values) {
      await expect(box('Style and finish', `${v.label} (${two.count('style', v.id)})`).count()).resolves.toBe(1);
    }
    await expect(visitor.locator('meta[name="robots"][content="noindex"]').count()).resolves.toBe(1);
    await screenshot(visitor, 'filters-category-1440');
    expect(await axeViolations(visitor)).toEqual([]);

    await visitor.reload();
    await expect.poll(() => countText(visitor), { timeout: 20_000 }).toBe(`Showing 1 to ${two.shown.length} of ${two.shown.length} lines`);
    expect(await cardSkus(visitor)).toEqual(two.shown.map((i) => ix.products.sku[i]));
    await expect(box('Pack size', new RegExp(`^${pack.values.find((v) => v.id === packId)!.label} `)).isChecked()).resolves.toBe(true);

    await visitor.goBack();
    await expect.poll(() => visitor.url()).toBe(`${shopURL}${CATEGORY}?style=${styleId}`);
    await expect.poll(() => countText(visitor)).toBe(`Showing 1 to ${one.shown.length} of ${one.shown.length} lines`);
    await visitor.goBack();
    await expect.poll(() => visitor.url()).toBe(`${shopURL}${CATEGORY}`);
    await expect.poll(() => countText(visitor)).toBe(`Showing 1 to 48 of ${ix.products.sku.length} lines`);
    expect(await cardSkus(visitor)).toEqual(ix.products.sku.slice(0, 48));
    await expect(visitor.locator('meta[name="robots"][content="noindex"]').count()).resolves.toBe(0);
  });

  it('a price range that matches nothing says so and clears', async () => {
    const ix = await indexOf(CATEGORY);
    const top = ix.prices[ix.prices.length - 1]!;
    const bottom = ix.prices[0]!;
    await visitor.goto(`${shopURL}${CATEGORY}?min=${top.id}&max=${bottom.id}`);
    await expect.poll(() => visitor.getByText('No lines match these filters.').count(), { timeout: 20_000 }).toBe(1);
    await visitor.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => visitor.url()).toBe(`${shopURL}${CATEGORY}`);
    await expect.poll(() => countText(visitor)).toBe(`Showing 1 to 48 of ${ix.products.sku.length} lines`);
  });

  it('the canonical link names the unfiltered page, a filtered view is noindex at the edge, and a crawler gets the category page as before', async () => {
    const ix = await indexOf(CATEGORY);
    const filtered = await fetch(`${shopURL}${CATEGORY}?sort=price&style=${ix.facets.find((f) => f.key === 'style')!.values[0]!.id}`);
    expect(filtered.status).toBe(200);
    expect(filtered.headers.get('x-robots-tag')).toBe('noindex');
    const paged = await fetch(`${shopURL}${CATEGORY}?page=2`);
    expect(paged.headers.get('x-robots-tag')).toBeNull();

    const crawler = await fetch(shopURL + CATEGORY, { headers: { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } });
    expect(crawler.status).toBe(200);
    expect(crawler.headers.get('x-robots-tag')).toBeNull();
    const html = await crawler.text();
    expect(html.match(/<link rel="canonical" href="([^"]*)"/)?.[1]).toMatch(new RegExp(`${CATEGORY.replace(/\//g, '\\/')}$`));
    expect(html).not.toMatch(/<meta name="robots" content="noindex/);
    // The first 48 lines in featured order, linked, and no link into a filtered view.
    const payload = (await (await fetch(`${shopURL}${CATEGORY}_payload.json`)).json()) as { products: { path: string }[] };
    const links = [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]!);
    const productLinks = links.filter((h) => payload.products.some((p) => p.path === h));
    expect([...new Set(productLinks)]).toEqual(payload.products.slice(0, 48).map((p) => p.path));
    expect(links.filter((h) => /[?&](sort|occasion|recipient|age|style|band|pack|new|min|max|stock)=/.test(h))).toEqual([]);

    await visitor.goto(`${shopURL}${CATEGORY}?sort=name`);
    await expect.poll(() => visitor.locator('meta[name="robots"][content="noindex"]').count(), { timeout: 20_000 }).toBe(1);
    expect(await visitor.locator('link[rel="canonical"]').getAttribute('href')).toMatch(new RegExp(`${CATEGORY.replace(/\//g, '\\/')}$`));
  });
});

describe('sort and filter at 390 px', { timeout: 180_000 }, () => {
  it('the filters open in a panel with the count of results, Apply and Clear; axe finds nothing', async () => {
    const ix = await indexOf(CATEGORY);
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
    await openListing(phone, shopURL + CATEGORY);
    await expect(phone.locator('section.listing-filters').isVisible()).resolves.toBe(false);
    await phone.getByRole('button', { name: 'Filters', exact: true }).click();
    const dialog = phone.getByRole('dialog', { name: 'Filters' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const band = ix.facets.find((f) => f.key === 'band')!;
    const v = [...band.values].sort((a, b) => b.count - a.count)[0]!;
    await dialog
      .getByRole('group', { name: 'Price' })
      .getByRole('checkbox', { name: `${v.label} (${v.count})` })
      .check();
    await expect.poll(() => dialog.getByTestId('filters-apply').textContent(), { timeout: 20_000 }).toBe(`Show ${v.count} lines`);
    // Not applied yet: the grid and the address are as they were.
    expect(phone.url()).toBe(shopURL + CATEGORY);
    await screenshot(phone, 'filters-category-390-panel');
    expect(await axeViolations(phone)).toEqual([]);
    await dialog.getByTestId('filters-apply').click();
    await expect.poll(() => phone.url()).toBe(`${shopURL}${CATEGORY}?band=${v.id}`);
    await expect.poll(() => countText(phone)).toBe(`Showing 1 to ${Math.min(48, v.count)} of ${v.count} lines`);
    await expect(phone.getByRole('button', { name: 'Filters (1)' }).count()).resolves.toBe(1);
    await phone.getByRole('button', { name: 'Filters (1)' }).click();
    await dialog.getByRole('button', { name: 'Clear', exact: true }).click();
    await dialog.getByTestId('filters-apply').click();
    await expect.poll(() => phone.url()).toBe(shopURL + CATEGORY);
    await expect.poll(() => countText(phone)).toBe(`Showing 1 to 48 of ${ix.products.sku.length} lines`);
    expect(await axeViolations(phone)).toEqual([]);

    // Sorting by price works the same on a phone.
    await phone.getByLabel('Sort by').selectOption('price');
    await expect.poll(() => phone.url()).toBe(`${shopURL}${CATEGORY}?sort=price`);
    const byPrice = byListPrice(ix);
    await expect.poll(() => cardSkus(phone), { timeout: 20_000 }).toEqual(byPrice.slice(0, 48));
    await screenshot(phone, 'filters-category-390-sorted');
    await phone.close();
  });
});

describe('signed-in buyers', { timeout: 240_000 }, () => {
  let buyerPage: Page;
  let staffPage: Page;
  let buyer: Awaited<ReturnType<typeof signIn>>;
  let staffToken = '';

  beforeAll(async () => {
    buyerPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    buyer = await signIn(buyerPage);
    await buyerPage.waitForURL(/\/account\/dashboard\/$/);
    staffPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const staff = await staffUser();
    staffToken = staff.idToken;
    await signInAs(staffPage, staff);
  }, 120_000);

  it('in stock now hides a card sold out since the build, as the API says, and the cards out of stock at build', async () => {
    const ix = await indexOf(CATEGORY);
    // A line in stock at build on page 1, which no other test buys: the 40th.
    const sku = ix.products.sku[39]!;
    expect(ix.products.in_stock[39], `${sku} is in stock in the seed`).toBe(1);
    const before = await staffStock(staffPage, staffToken, sku);
    const set = async (quantity: number, expected: number) => {
      const r = await api<{ error?: string }>(staffPage, `/api/admin/products/${sku}/stock`, {
        token: staffToken,
        mode: 'set',
        quantity,
        expected,
        reason: 'e2e: in stock now filter',
      });
      expect(r.status, r.data.error).toBe(200);
    };
    await set(0, before);
    try {
      await openListing(buyerPage, shopURL + CATEGORY);
      await expect.poll(() => cardSkus(buyerPage), { timeout: 20_000 }).toContain(sku);
      await buyerPage.getByRole('group', { name: 'Availability' }).getByRole('checkbox', { name: 'In stock now' }).check();
      await expect.poll(() => buyerPage.url()).toBe(`${shopURL}${CATEGORY}?stock=in`);
      const outAtBuild = ix.products.sku.filter((_, i) => ix.products.in_stock[i] === 0);
      const shown = ix.products.sku.length - outAtBuild.length - 1;
      await expect.poll(() => countText(buyerPage), { timeout: 20_000 }).toBe(`Showing 1 to ${Math.min(48, shown)} of ${shown} lines`);
      const skus = await cardSkus(buyerPage);
      expect(skus).not.toContain(sku);
      for (const out of outAtBuild) expect(skus).not.toContain(out);
    } finally {
      await set(before, 0);
    }
    // Signed out, the same link asks the visitor to sign in and filters nothing.
    await visitor.goto(`${shopURL}${CATEGORY}?stock=in`);
    await expect.poll(() => visitor.getByText('Sign in to filter by stock.').count(), { timeout: 20_000 }).toBe(1);
  });

  it("a buyer's own prices do not reorder the price sort: the grid keeps list-price order and shows their price", async () => {
    const ix = await indexOf(GROUP_CATEGORY);
    // A price group that prices the category's dearest line below its cheapest: by own
    // price it would come first; by list price it stays last.
    const byList = byListPrice(ix);
    const dearest = byList[byList.length - 1]!;
    const own = Math.min(...ix.products.unit_price) - 5;
    const suffix = Math.random().toString(36).slice(2, 8);
    const groupId = `e2e-sort-${suffix}`;
    const groupName = `E2E Sort ${suffix}`;
    await staffPage.goto(shopURL + '/admin/price-groups/');
    await expect.poll(() => staffPage.getByRole('heading', { name: 'Price groups', level: 1 }).count(), { timeout: 20_000 }).toBe(1);
    await staffPage.getByLabel('Id', { exact: true }).fill(groupId);
    await staffPage.getByLabel('Name', { exact: true }).fill(groupName);
    await staffPage.getByRole('button', { name: 'Create price group' }).click();
    await expect.poll(() => staffPage.locator(`tr[data-group="${groupId}"]`).count()).toBe(1);
    await staffPage.getByRole('button', { name: `Import or export ${groupName}` }).click();
    const section = staffPage.locator('section', { has: staffPage.getByRole('heading', { name: groupName, level: 2 }) });
    const csv = `applies_to,code,price,discount_percent,breaks\nproduct,${dearest},${(own / 100).toFixed(2)},,\n`;
    await section.getByLabel('CSV file').setInputFiles({ name: 'sort.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await section.getByRole('button', { name: 'Check', exact: true }).click();
    await expect.poll(() => section.getByRole('button', { name: 'Apply', exact: true }).count(), { timeout: 20_000 }).toBe(1);
    await section.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(() => section.getByRole('heading', { name: 'Price group applied' }).count(), { timeout: 20_000 }).toBe(1);

    expect((await api(buyerPage, '/api/getProfile', { token: buyer.idToken })).status).toBe(200);
    await staffPage.goto(`${shopURL}/admin/accounts/?uid=${encodeURIComponent(buyer.uid)}`);
    const select = staffPage.getByLabel('Price group', { exact: true });
    await expect.poll(() => select.isEnabled(), { timeout: 20_000 }).toBe(true);
    await select.selectOption(groupId);
    await staffPage.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => staffPage.getByText('The account is saved.').count()).toBe(1);
    const { data } = await api<{ prices: Record<string, { unit_price: number }> }>(buyerPage, '/api/prices', { token: buyer.idToken, skus: [dearest] });
    expect(data.prices[dearest]!.unit_price, 'the group prices the dearest line below every list price').toBe(own);

    await openListing(buyerPage, `${shopURL}${GROUP_CATEGORY}?sort=price`);
    await expect.poll(() => cardSkus(buyerPage), { timeout: 20_000 }).toEqual(byList.slice(0, 48));
    const card = buyerPage.locator(`.grid .card[data-sku="${dearest}"]`);
    await expect.poll(() => card.locator('.own-price').count(), { timeout: 20_000 }).toBe(1);
    await expect(card.locator('.card-price').textContent()).resolves.toContain(`£${(own / 100).toFixed(2)}`);
    await screenshot(buyerPage, 'filters-own-prices');
  });
});

describe('the range page and search', { timeout: 180_000 }, () => {
  it('the greeting cards range filters every line of the range', async () => {
    const RANGE = '/outlet/r/wholesale_greeting_cards/';
    const ix = await indexOf(RANGE);
    const o = oracle(ix, { occasion: ['birthday'], recipient: ['mum'] });
    expect(o.shown.length).toBeGreaterThan(0);
    await visitor.goto(`${shopURL}${RANGE}?occasion=birthday&recipient=mum`);
    await expect.poll(() => countText(visitor), { timeout: 20_000 }).toBe(`Showing 1 to ${Math.min(48, o.shown.length)} of ${o.shown.length} lines`);
    expect(await cardSkus(visitor)).toEqual(o.shown.slice(0, 48).map((i) => ix.products.sku[i]));
  });

  it('search results sort by price and narrow by a facet on the server', async () => {
    await visitor.goto(`${shopURL}/search/?q=birthday`);
    const count = visitor.getByTestId('listing-count');
    await expect.poll(() => count.textContent(), { timeout: 20_000 }).toMatch(/result/);
    await visitor.getByLabel('Sort by').selectOption('price');
    await expect.poll(() => visitor.url()).toContain('sort=price');
    await expect.poll(() => visitor.locator('.grid .card').count(), { timeout: 20_000 }).toBeGreaterThan(1);
    const shown = await visitor.locator('.grid .card .card-price').allTextContents();
    const pence = shown.map((t) => Number(/£(\d+)\.(\d\d)/.exec(t)!.slice(1).join('')));
    expect(pence).toEqual([...pence].sort((a, b) => a - b));

    // A facet value's count is what ticking it shows: the server counted it over every hit.
    const style = visitor.locator('section.listing-filters').getByRole('group', { name: 'Style and finish' });
    const first = style.getByRole('checkbox', { disabled: false }).first();
    // The checkbox sits in its label: "Gold foil (12)".
    const label = (await first.locator('xpath=..').textContent()) ?? '';
    const n = Number(/\((\d+)\)/.exec(label)?.[1]);
    expect(n, `a count in "${label}"`).toBeGreaterThan(0);
    await first.check();
    await expect.poll(() => visitor.url()).toMatch(/[?&]style=[a-z-]+/);
    await expect.poll(() => count.textContent(), { timeout: 20_000 }).toMatch(new RegExp(`^${n} results? for “birthday”`));
  });
});
