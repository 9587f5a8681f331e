import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createSign, generateKeyPairSync } from 'node:crypto';
import { emulatorUser, launch, screenshot, shopURL } from './browser';
import { CATEGORY_PAGE_SIZE } from '../lib/paging';

const ranges = [
  'wholesale_greeting_cards',
  'wholesale-christmas',
  'wholesale_gift_wrap',
  'wholesale_partyware',
  'wholesale_balloons',
  'wholesale_giftware',
  'wholesale_stationery',
];

interface Card {
  name: string;
  unit_price: number;
}

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
afterAll(async () => {
  await browser?.close();
});

/** The price text the grid shows for a unit price in pence. */
const pounds = (pence: number) => `£${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')}`;

async function expectSeededProducts(path: string, list: 'featured' | 'products') {
  const res = await page.goto(shopURL + path);
  expect(res?.status()).toBe(200);
  // The page's own payload is the data it was rendered from.
  const payload = (await (await fetch(`${shopURL}${path}_payload.json`)).json()) as Record<string, Card[]>;
  // A category page shows its first page of products; a range page all its featured.
  const cards = (payload[list] ?? []).slice(0, CATEGORY_PAGE_SIZE);
  expect(cards.length).toBeGreaterThan(0);
  const names = await page.locator('.card-name').allTextContents();
  const prices = await page.locator('.card .price').allTextContents();
  expect(names).toEqual(cards.map((c) => c.name));
  prices.forEach((text, i) => expect(text).toContain(pounds(cards[i]!.unit_price)));
  for (const text of prices) expect(text).toMatch(/^£\d+\.\d{2}/);
}

describe('walking skeleton smoke test', () => {
  it('the home page links every outlet range', async () => {
    const res = await page.goto(shopURL + '/');
    expect(res?.status()).toBe(200);
    const hrefs = await page.locator('main a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const r of ranges) expect(hrefs).toContain(`/outlet/r/${r}/`);
    await screenshot(page, 'smoke-home');
  });

  it('a range page shows seeded products with £ prices', async () => {
    await expectSeededProducts('/outlet/r/wholesale_balloons/', 'featured');
    await screenshot(page, 'smoke-range');
  });

  it('a category page shows seeded products with £ prices', async () => {
    await page.goto(shopURL + '/outlet/r/wholesale_greeting_cards/');
    const href = await page.locator('.categories a').first().getAttribute('href');
    expect(href).toMatch(/^\/outlet\/section\/[a-z0-9-]+\/\d+\/$/);
    await expectSeededProducts(href!, 'products');
    await screenshot(page, 'smoke-category');
  });

  it('value cards cost 19p each', async () => {
    await page.goto(shopURL + '/outlet/section/value-cards/120/');
    const prices = await page.locator('.card .price').allTextContents();
    expect(prices.length).toBeGreaterThan(0);
    for (const p of prices) expect(p).toBe('£0.19 each (19p)');
  });

  it('a path without its trailing slash lands on the slashed path, query kept', async () => {
    const res = await page.goto(shopURL + '/outlet/r/wholesale_balloons?x=1');
    expect(res?.status()).toBe(200);
    expect(page.url()).toBe(`${shopURL}/outlet/r/wholesale_balloons/?x=1`);
  });

  it('an unknown path answers 404 with the not-found page', async () => {
    const res = await page.goto(shopURL + '/no-such-page/');
    expect(res?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('We Were Unable to Find that Page');
  });

  it('a signed-up user gets an empty basket; a forged token gets 401', async () => {
    const user = await emulatorUser();
    await page.goto(shopURL + '/');
    const call = (token: string) =>
      page.evaluate(async (t) => {
        const res = await fetch('/api/shoppingCartSmall', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: t }),
        });
        return { status: res.status, body: await res.json() };
      }, token);

    await expect(call(user.idToken)).resolves.toEqual({ status: 200, body: [{ id: 1 }] });

    // Same claims as the real token, signed with a key nobody trusts.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const [, claims] = user.idToken.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'forged', typ: 'JWT' })).toString('base64url');
    const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(privateKey).toString('base64url');
    const forged = await call(`${header}.${claims}.${signature}`);
    expect(forged.status).toBe(401);
    expect(forged.body).toHaveProperty('error');
  });
});
