import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, belowMinimumBy, axeViolations, launch, screenshot, shopURL, signIn } from './browser';

/** Issue 18, parts 2 and 3: saved lists (docs/quick-order.md), Add to list from a product
 * page and a grid, Save basket as list, and Order again for chosen lines of a past order.
 * Products come from categories no other e2e file orders from, so their stock stays as
 * those files expect. */

let browser: Browser;
let page: Page;
let token = '';

type Card = { sku: string; name: string; path: string };
type Priced = { pack_size: number; pack_price: number; availability?: { status: string } };

/** The in-stock products of a category, dearest first, with their pack sizes. */
async function inStock(p: Page, category: string): Promise<(Card & { packSize: number })[]> {
  const payload = (await (await fetch(`${shopURL}${category}_payload.json`)).json()) as { products: Card[] };
  const cards = payload.products.slice(0, 48);
  const { data } = await api<{ prices: Record<string, Priced> }>(p, '/api/prices', { token, skus: cards.map((c) => c.sku) });
  return cards
    .filter((c) => data.prices[c.sku]?.availability?.status === 'in_stock')
    .sort((a, b) => data.prices[b.sku]!.pack_price - data.prices[a.sku]!.pack_price)
    .map((c) => ({ ...c, packSize: data.prices[c.sku]!.pack_size }));
}

/** Empties the buyer's basket through the API. */
async function emptyBasket(p: Page) {
  const { data } = await api<{ lines: { sku: string }[] }>(p, '/api/basket', { token });
  for (const l of data.lines) expect((await api(p, '/api/basket/remove', { token, sku: l.sku })).status).toBe(200);
}

/** The SKUs in the buyer's basket, sorted. */
async function basketSkus(p: Page): Promise<string[]> {
  const { data } = await api<{ lines: { sku: string }[] }>(p, '/api/basket', { token });
  return data.lines.map((l) => l.sku).sort();
}

/** The id of the list a link points at. */
const listIdOf = async (p: Page, selector: string) => new URL((await p.locator(selector).getAttribute('href'))!, shopURL).searchParams.get('id')!;

const LIST_CATEGORY = '/outlet/section/blank-cards/104/';
const ORDER_CATEGORY = '/outlet/section/inkpot-studio/132/';

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  token = (await signIn(page)).idToken;
  await page.waitForURL(/\/account\/dashboard\/$/);
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe('saved lists', { timeout: 120_000 }, () => {
  let weekly = '';

  it('the account menu links to the saved lists, which start empty', async () => {
    await page.locator('.account-menu-signed-in summary').click();
    await page.locator('.account-menu-signed-in').getByRole('link', { name: 'Saved Lists' }).click();
    await page.waitForURL(/\/account\/lists\/$/);
    await expect.poll(() => page.locator('.lists-empty').textContent()).toContain('You have no saved lists yet.');
  });

  it('saves the basket as a list; emptied, the basket gets its lines back from "Add all to basket"', async () => {
    const products = (await inStock(page, LIST_CATEGORY)).slice(0, 3);
    expect(products).toHaveLength(3);
    await emptyBasket(page);
    for (const p of products) expect((await api(page, '/api/basket/add', { token, sku: p.sku, quantity: p.packSize * 2 })).status).toBe(200);
    const skus = products.map((p) => p.sku).sort();

    await page.goto(shopURL + '/checkout/basket/');
    await page.waitForSelector('.basket-table');
    const save = page.locator('.save-as-list');
    await save.getByRole('button', { name: 'Save basket as list' }).click();
    await expect.poll(() => save.locator('.field-error').textContent()).toBe('Enter a name for the list (1 to 60 characters).');
    await save.getByLabel('List name').fill('Weekly cards');
    await save.getByRole('button', { name: 'Save basket as list' }).click();
    await expect.poll(() => save.locator('[role="status"]').textContent()).toBe('Saved your basket as the list Weekly cards.');
    weekly = await listIdOf(page, '.save-as-list [role="status"] a');
    expect(weekly).toBeTruthy();
    await screenshot(page, 'lists-save-basket');

    await emptyBasket(page);
    await page.locator('.save-as-list [role="status"] a').click();
    await page.waitForURL(/\/account\/lists\/\?id=/);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Weekly cards');
    await page.reload(); // the header's basket as it is now: empty
    const rows = page.locator('.list-lines tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    await expect(rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.sku!).sort())).resolves.toEqual(skus);
    // Packs, as the product pages sell them: each line was 2 packs.
    await expect(rows.locator('input[type="number"]').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value))).resolves.toEqual([
      '2',
      '2',
      '2',
    ]);
    await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe('Basket');

    await page.getByRole('button', { name: 'Add all to basket' }).click();
    await expect.poll(() => page.locator('.list-add-all-report').textContent()).toContain('Added 3 lines to your basket.');
    await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe('Basket (3)');
    expect(await basketSkus(page)).toEqual(skus);
    await screenshot(page, 'lists-add-all');
  });

  let spinner = '';

  it('adds a product to a new list from its product page, and to that list from a grid, by keyboard', async () => {
    const [first, second] = await inStock(page, LIST_CATEGORY);
    await page.goto(shopURL + first!.path);
    const control = page.locator('.product-info .add-to-list');
    const toggle = control.getByRole('button', { name: `Add to list: ${first!.name}` });
    await toggle.click();
    // The packs box takes the focus; the buyer's lists arrive once it is open.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(await control.locator('input[type="number"]').getAttribute('id'));
    await control.getByLabel(`Packs of ${first!.packSize} for the list`).fill('2');
    const choice = control.getByLabel('List', { exact: true });
    await expect.poll(() => choice.locator('option').allTextContents()).toEqual(['Weekly cards (3 lines)', 'New list…']);
    await choice.selectOption({ label: 'New list…' });
    await control.getByLabel('Name of the new list').fill('Counter spinner');
    await screenshot(page, 'lists-add-to-list-product');
    await control.getByRole('button', { name: 'Save to list' }).click();
    await expect.poll(() => control.locator('[role="status"]').textContent()).toBe('Added 2 packs to Counter spinner.');
    spinner = await listIdOf(page, '.product-info .add-to-list [role="status"] a');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-expanded'))).resolves.toBe('false');

    // The catalogue pages stay static: the lists are asked for only when the control opens.
    const asked: string[] = [];
    const listen = (r: { url: () => string }) => r.url().includes('/api/lists') && asked.push(r.url());
    page.on('request', listen);
    await page.goto(shopURL + LIST_CATEGORY);
    const card = page.locator(`.grid .card[data-sku="${second!.sku}"]`);
    await expect.poll(() => card.locator('.stock-line').textContent()).not.toBe(''); // the page's own calls have answered
    expect(asked).toEqual([]);
    const cardToggle = card.getByRole('button', { name: `Add to list: ${second!.name}` });
    // Escape closes it, and the focus goes back to the button.
    await cardToggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => card.locator('form.add-to-list-panel').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => card.locator('form.add-to-list-panel').count()).toBe(0);
    await expect.poll(() => cardToggle.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    const cardChoice = card.getByLabel('List', { exact: true });
    await expect.poll(() => cardChoice.locator('option').count()).toBe(3);
    // The most recently changed list comes first, and is the one picked.
    await expect(cardChoice.locator('option:checked').textContent()).resolves.toBe('Counter spinner (1 line)');
    await page.keyboard.press('Tab'); // the packs box (1 to start with) to the list
    await page.keyboard.press('Tab'); // to Save to list
    await page.keyboard.press('Enter');
    await expect.poll(() => card.locator('.add-to-list [role="status"]').textContent()).toBe('Added 1 pack to Counter spinner.');
    page.off('request', listen);
    expect(asked.map((u) => new URL(u).pathname)).toEqual(['/api/lists', '/api/lists', `/api/lists/${spinner}`]); // opened twice, one add
    await screenshot(page, 'lists-add-to-list-grid');
  });

  it('renames a list, edits a quantity in packs and removes a line', async () => {
    const [first, second] = await inStock(page, LIST_CATEGORY);
    await page.goto(shopURL + '/account/lists/');
    const row = page.locator(`tr[data-list="${spinner}"]`);
    await expect.poll(() => row.locator('th a').textContent()).toBe('Counter spinner');
    await expect(row.textContent()).resolves.toContain('2 lines');
    await row.getByRole('button', { name: 'Rename Counter spinner' }).click();
    const box = row.getByLabel('New name for Counter spinner');
    await box.fill('');
    await row.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => row.locator('.field-error').textContent()).toBe('Enter a name for the list (1 to 60 characters).');
    await box.fill('Counter spinner, blank');
    await row.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => page.locator('.lists-notice').textContent()).toBe('Renamed the list to “Counter spinner, blank”.');
    await expect(row.locator('th a').textContent()).resolves.toBe('Counter spinner, blank');
    await screenshot(page, 'lists-index');

    await row.locator('th a').click();
    await page.waitForURL(/\/account\/lists\/\?id=/);
    const line = (sku: string) => page.locator(`.list-lines tbody tr[data-sku="${sku}"]`);
    await expect.poll(() => line(first!.sku).locator('input[type="number"]').inputValue()).toBe('2');
    await line(first!.sku).locator('input[type="number"]').fill('5');
    await line(first!.sku).getByRole('button', { name: 'Update' }).click();
    await expect.poll(() => page.locator('.lists-notice').textContent()).toBe('Quantity updated.');
    await line(first!.sku).locator('input[type="number"]').fill('1.5');
    await line(first!.sku).getByRole('button', { name: 'Update' }).click();
    await expect
      .poll(() => line(first!.sku).locator('.field-error').textContent())
      .toBe('1.5 is not a whole number of packs. Enter a whole number (0 removes the line).');
    await line(second!.sku)
      .getByRole('button', { name: `Remove ${second!.name}` })
      .click();
    await expect.poll(() => page.locator('.list-lines tbody tr').count()).toBe(1);
    await page.reload();
    await expect.poll(() => line(first!.sku).locator('input[type="number"]').inputValue()).toBe('5');
    await expect(line(first!.sku).textContent()).resolves.toContain(`${5 * first!.packSize} units`);
    await expect(page.locator('.list-lines tbody tr').count()).resolves.toBe(1);
    await screenshot(page, 'lists-list');
  });

  it('deletes a list after asking, and the list is then not found', async () => {
    await page.goto(shopURL + '/account/lists/');
    const row = page.locator(`tr[data-list="${spinner}"]`);
    await row.getByRole('button', { name: 'Delete Counter spinner, blank' }).click();
    await expect.poll(() => row.getByRole('button', { name: 'Delete list' }).evaluate((b) => b === document.activeElement)).toBe(true);
    await row.getByRole('button', { name: 'Keep it' }).click();
    await row.getByRole('button', { name: 'Delete Counter spinner, blank' }).click();
    await row.getByRole('button', { name: 'Delete list' }).click();
    await expect.poll(() => page.locator('.lists-notice').textContent()).toBe('Deleted the list “Counter spinner, blank”.');
    await expect(page.locator('tr[data-list]').count()).resolves.toBe(1);
    await page.goto(`${shopURL}/account/lists/?id=${encodeURIComponent(spinner)}`);
    await expect.poll(() => page.locator('main [role="alert"]').textContent()).toBe('We could not find this list on your account. It may have been deleted.');
  });

  it('another account opening the list finds nothing', async () => {
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await other.newPage();
    try {
      await signIn(p);
      await p.goto(`${shopURL}/account/lists/?id=${encodeURIComponent(weekly)}`);
      await expect.poll(() => p.locator('main [role="alert"]').textContent()).toBe('We could not find this list on your account. It may have been deleted.');
      await expect(p.locator('main').textContent()).resolves.not.toContain('Weekly cards');
      await screenshot(p, 'lists-not-found');
    } finally {
      await other.close();
    }
  });

  let orderId = '';
  let ordered: { sku: string; name: string }[] = [];

  it('orders again only the lines ticked on a past order', async () => {
    // An order of several lines, placed as the other e2e files place them.
    await emptyBasket(page);
    const billing = {
      company: 'Lists Cards Ltd',
      contact: 'Sam List',
      address: { line1: '4 Quay Street', line2: '', town: 'Exampleton', postcode: 'EX1 2AB' },
      vat_number: '',
      po_ref: '',
      payment_method: 'proforma',
    };
    expect((await api(page, '/api/billing', { token, billing })).status).toBe(200);
    let below = 1;
    for (const p of await inStock(page, ORDER_CATEGORY)) {
      const r = await api(page, '/api/basket/add', { token, sku: p.sku, quantity: p.packSize });
      if (r.status === 409) continue; // sold out meanwhile: the next one
      expect(r.status).toBe(200);
      below = await belowMinimumBy(page, token);
      if (below <= 0 && (await basketSkus(page)).length >= 2) break;
    }
    expect(below).toBeLessThanOrEqual(0);
    const o = await api<{ id: string; lines: { sku: string; name: string }[] }>(page, '/api/orders', {
      token,
      idempotency_key: crypto.randomUUID(),
      delivery_option: 'standard',
      same_as_billing: true,
      deliver_to: null,
      delivery_note: '',
    });
    expect(o.status).toBe(201);
    orderId = o.data.id;
    ordered = o.data.lines;
    expect(ordered.length).toBeGreaterThanOrEqual(2);

    await page.goto(`${shopURL}/account/orders/?id=${encodeURIComponent(orderId)}`);
    const again = page.locator('.order-again');
    await expect.poll(() => again.locator('input[type="checkbox"]').count()).toBe(ordered.length);
    await again.getByRole('button', { name: 'Add chosen to basket' }).click();
    await expect.poll(() => again.locator('[role="alert"]').textContent()).toBe('Tick the lines you want to order again first.');
    const [a, , c] = ordered;
    const box = (sku: string) => again.getByRole('checkbox', { name: new RegExp(`\\(${sku},`) });
    await box(a!.sku).check();
    if (c) await box(c.sku).check();
    await screenshot(page, 'lists-order-again');
    await again.getByRole('button', { name: 'Add chosen to basket' }).click();
    const chosen = c ? 2 : 1;
    await expect
      .poll(() => again.locator('[role="status"]').textContent())
      .toContain(`${chosen} ${chosen === 1 ? 'line is' : 'lines are'} back in your basket.`);
    await expect.poll(() => page.locator('.basket-widget summary').textContent()).toBe(`Basket (${chosen})`);
    expect(await basketSkus(page)).toEqual([a!.sku, ...(c ? [c.sku] : [])].sort());
    await expect(again.locator('input[type="checkbox"]:checked').count()).resolves.toBe(0);
    // The whole-order Reorder stays.
    await page.getByRole('button', { name: 'Reorder', exact: true }).click();
    await expect.poll(() => page.locator('.order-actions + [role="status"]').textContent()).toContain('back in your basket');
    expect(await basketSkus(page)).toEqual(ordered.map((l) => l.sku).sort());
  });

  it('the lists pages, the open Add to list, Save basket as list and Order again have no axe violations', async () => {
    const seen: Record<string, string[]> = {};
    await page.goto(shopURL + '/account/lists/');
    await page.waitForSelector('.saved-lists');
    await page.locator(`tr[data-list="${weekly}"]`).getByRole('button', { name: 'Rename Weekly cards' }).click();
    seen.index = await axeViolations(page);

    await page.goto(`${shopURL}/account/lists/?id=${encodeURIComponent(weekly)}`);
    await page.waitForSelector('.list-lines');
    await page.getByRole('button', { name: 'Add all to basket' }).click();
    await page.waitForSelector('.list-add-all-report .form-ok');
    seen.list = await axeViolations(page);

    await page.goto(`${shopURL}/account/lists/?id=${encodeURIComponent(spinner)}`);
    await page.waitForSelector('main [role="alert"]');
    seen.notFound = await axeViolations(page);

    await page.goto(shopURL + LIST_CATEGORY);
    const card = page.locator('.grid .card').first();
    await card.getByRole('button', { name: /^Add to list: / }).click();
    await card.getByLabel('List', { exact: true }).selectOption({ label: 'New list…' });
    seen.grid = await axeViolations(page);

    await page.goto(shopURL + '/checkout/basket/');
    await page.waitForSelector('.save-as-list');
    seen.basket = await axeViolations(page);

    await page.goto(`${shopURL}/account/orders/?id=${encodeURIComponent(orderId)}`);
    await page.waitForSelector('.order-again input[type="checkbox"]');
    seen.order = await axeViolations(page);
    expect(seen).toEqual({ index: [], list: [], notFound: [], grid: [], basket: [], order: [] });
  });
});
