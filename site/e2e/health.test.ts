import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { api, axeViolations, belowMinimumBy, emulatorUser, launch, screenshot, shopURL, signIn, signInAs } from './browser';
import { grantStaff } from './staff';

/** Issue 34: app errors are recorded for real. The site sends its reports to POST
 * /api/errors on page hide, and the back office's Health page shows them grouped by kind,
 * message and path: a code chunk that does not load, an /api call that answers 500 and a
 * component that throws each give one report; a crawler sends none; and a client that
 * sends 1,000 reports in a minute is refused past the limit while a buyer's order goes
 * through. Reports carry this run's mark in their path or message, so runs against the
 * same table do not see each other's (the thrown component's, whose message the server
 * trims, is counted before and after). */

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A category with a second page (docs/catalogue.md: 48 a page) for the corrupted payload. */
const category = '/outlet/section/female-birthday-cards/101/';
const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

type Row = { kind: string; message: string; path: string; status: string; count: number };

let browser: Browser;
let staffContext: BrowserContext;
let staffPage: Page;

beforeAll(async () => {
  browser = await launch();
  const staff = await emulatorUser();
  await grantStaff(staff.email);
  staffContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  staffPage = await staffContext.newPage();
  await signInAs(staffPage, staff);
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

/** The Health page's app error rows, read afresh. */
async function healthRows(): Promise<Row[]> {
  await staffPage.goto(shopURL + '/admin/health/');
  await staffPage.getByRole('heading', { name: 'App errors' }).waitFor({ timeout: 10_000 });
  return staffPage.locator('table.health-errors tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      kind: tr.getAttribute('data-kind') ?? '',
      message: tr.querySelector('.health-message')?.textContent ?? '',
      path: tr.querySelector('.health-path')?.textContent ?? '',
      status: tr.querySelector('.health-status')?.textContent ?? '',
      count: Number(tr.querySelector('.health-count')?.textContent ?? 'NaN'),
    })),
  );
}

/** The counts of the Health page's rows that match, once the page shows any (a beacon
 * arrives a moment after the page that sent it has gone). */
async function countsOf(match: (r: Row) => boolean): Promise<number[]> {
  let counts: number[] = [];
  await expect
    .poll(
      async () => {
        counts = (await healthRows()).filter(match).map((r) => r.count);
        return counts.length;
      },
      { timeout: 30_000, interval: 1_000 },
    )
    .toBeGreaterThan(0);
  // A second look: nothing more was on its way.
  await staffPage.waitForTimeout(1_000);
  return (await healthRows()).filter(match).map((r) => r.count);
}

/** Leaves the page, as a buyer does. The page sends what it collected on pagehide, but a
 * beacon sent by a page that is going is out of Playwright's sight (no request event; a
 * closed context may cancel it), so the page is first sent a pagehide event of its own:
 * the collector's flush (lib/report.ts watchPageHide) sends its beacon from the live page,
 * where it can be seen. With reported, that beacon's answer is waited for; without, the
 * page is given a moment to send one it should not. Answers the bodies it sent. */
async function leave(p: Page, { reported }: { reported: boolean }): Promise<string[]> {
  const bodies: string[] = [];
  const isReport = (r: Request) => new URL(r.url()).pathname === '/api/errors';
  p.on('request', (r) => isReport(r) && bodies.push(r.postData() ?? ''));
  const answered = reported ? p.waitForEvent('requestfinished', { predicate: isReport, timeout: 20_000 }) : null;
  await p.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false })));
  if (answered) await answered;
  else await p.waitForTimeout(1_500);
  await p.goto('about:blank');
  return bodies;
}

/** Counts the page's document loads (as account-shell.test.ts does). */
function countLoads(p: Page): () => number {
  let n = 0;
  p.on('request', (r) => r.isNavigationRequest() && r.frame() === p.mainFrame() && n++);
  return () => n;
}

/** Serves the category's filter index (which draws every page after the first) with the
 * first product of page 2 named by an object (a corrupted export): React refuses to draw
 * it, and the error page shows. */
async function corruptPayload(p: Page): Promise<() => number> {
  let served = 0;
  await p.route(
    (u) => u.pathname === `${category}_filter.json`,
    async (route: Route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { products: { name: unknown[] } };
      // (No expect here: a throw in a route handler leaves the request hanging. A category
      // without a second page draws no error page, and the test says so by timing out.)
      if (body.products.name.length > 48) body.products.name[48] = { [`health_${run}`]: 1 };
      served++;
      return route.fulfill({ response: res, body: JSON.stringify(body) });
    },
  );
  return () => served;
}

describe('app errors reach the Health page', { timeout: 120_000 }, () => {
  it('a code chunk that fails to load gives one chunk report with its path', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    await signIn(p); // signed in: every page loads the sign-in SDK's chunk
    const path = `/health-e2e-${run}/`;
    const loads = countLoads(p);
    // The chunk that holds the Auth SDK fails on the first document only: the page reports
    // it and reloads once (lib/chunk-reload.ts), and the reloaded page works.
    await p.route('**/_next/static/chunks/*.js', async (route) => {
      const res = await route.fetch();
      const body = await res.text();
      if (body.includes('identitytoolkit.googleapis.com') && loads() === 1) return route.abort('failed');
      return route.fulfill({ response: res, body });
    });
    await p.goto(shopURL + path);
    await expect.poll(loads, { timeout: 15_000 }).toBe(2);
    await expect.poll(() => p.locator('.account-menu-signed-in summary').count(), { timeout: 15_000 }).toBe(1);
    await leave(p, { reported: true });
    await context.close();
    expect(await countsOf((r) => r.kind === 'chunk' && r.path === path)).toEqual([1]);
  });

  it('an /api call that answers 500 gives one api report with its status and path', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    await signIn(p);
    await p.waitForURL(/\/account\/dashboard\/$/);
    // The sign-in's own dashboard has loaded its orders: the one call failed below is the
    // next page's, not one still out from this page (which the page then leaves).
    await expect.poll(() => p.getByText('You have not placed any orders yet.').count(), { timeout: 15_000 }).toBe(1);
    const sentence = `The orders store failed for health check ${run}.`;
    let failed = 0;
    await p.route('**/api/orders', (route) => {
      if (route.request().method() !== 'GET' || failed > 0) return route.continue();
      failed++;
      return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: sentence }) });
    });
    await p.goto(shopURL + '/account/dashboard/');
    await expect.poll(() => p.locator('main [role="alert"]').filter({ hasText: 'Your orders could not be loaded.' }).count(), { timeout: 15_000 }).toBe(1);
    await leave(p, { reported: true });
    await context.close();
    const match = (r: Row) => r.kind === 'api' && r.message.includes(sentence);
    expect(await countsOf(match)).toEqual([1]);
    const [row] = (await healthRows()).filter(match);
    expect(row).toMatchObject({ path: '/account/dashboard/', status: '500' });
    expect(row!.message).toContain('GET /api/orders answered 500');
  });

  it('a component that throws on corrupted product data gives one fatal report, and the Health page shows it', async () => {
    // The server strips a query string from a message (React's minified message names the
    // object's keys in one), so this report is told by its kind and path, before and after.
    const fatalHere = (r: Row) => r.kind === 'fatal' && r.path === category;
    const before = (await healthRows()).filter(fatalHere).reduce((n, r) => n + r.count, 0);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    const served = await corruptPayload(p);
    await p.goto(`${shopURL}${category}?page=2`);
    await expect.poll(() => p.getByRole('heading', { name: 'Hmm, we had an error' }).count(), { timeout: 15_000 }).toBe(1);
    expect(served()).toBeGreaterThan(0);
    // What the page sent: on a failure below, whether it sent the report, and as what.
    const sent = await leave(p, { reported: true });
    await context.close();
    expect(sent.join('\n')).toContain('"kind":"fatal"');
    const total = async () => (await healthRows()).filter(fatalHere).reduce((n, r) => n + r.count, 0);
    await expect.poll(total, { timeout: 30_000, interval: 1_000 }).toBe(before + 1);
    await staffPage.waitForTimeout(1_000);
    expect(await total()).toBe(before + 1);
    await screenshot(staffPage, 'health-page');
    expect(await axeViolations(staffPage)).toEqual([]);
    // Labelled and keyboard reachable: Refresh is a button that reads it all again.
    const refresh = staffPage.getByRole('button', { name: 'Refresh', exact: true });
    await refresh.focus();
    await staffPage.keyboard.press('Enter');
    await expect.poll(() => refresh.count(), { timeout: 15_000 }).toBe(1);
    await expect(staffPage.getByRole('link', { name: 'Health', exact: true }).getAttribute('aria-current')).resolves.toBe('page');
  });

  it('a crawler on the same failing page sends no report', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: googlebot });
    const p = await context.newPage();
    // The page did fail: React's own error line for the corrupted product is the proof.
    // (For a crawler the error page draws nothing, and the failing list is drawn again, so
    // neither the grid's absence nor the reporter's line is a steady sign.)
    const reported: string[] = [];
    p.on('console', (m) => m.type() === 'error' && /Minified React error #31|\[app error\]/.test(m.text()) && reported.push(m.text()));
    const served = await corruptPayload(p);
    await p.goto(`${shopURL}${category}?page=2`);
    await expect.poll(served, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => reported.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const sent = await leave(p, { reported: false });
    await context.close();
    expect(sent).toEqual([]);
  });
});

type Priced = { pack_size: number; pack_price: number; availability?: { status: string } };

/** Fills the buyer's basket to the minimum order from keyrings, a category no other e2e file
 * orders from, so their stock stays as they expect. */
async function fillBasket(p: Page, token: string): Promise<void> {
  const payload = (await (await fetch(`${shopURL}/outlet/section/keyrings/802/_payload.json`)).json()) as { products: { sku: string }[] };
  const skus = payload.products.slice(0, 48).map((c) => c.sku);
  const { data } = await api<{ prices: Record<string, Priced> }>(p, '/api/prices', { token, skus });
  const dear = Object.entries(data.prices)
    .filter(([, q]) => q.availability?.status === 'in_stock')
    .sort(([, a], [, b]) => b.pack_price - a.pack_price);
  let below = await belowMinimumBy(p, token);
  for (const [sku, q] of dear) {
    if (below <= 0) break;
    const packs = Math.min(5, Math.max(1, Math.ceil(below / q.pack_price)));
    const r = await api<{ error?: string }>(p, '/api/basket/add', { token, sku, quantity: q.pack_size * packs });
    if (r.status === 409) continue; // sold out by earlier runs: the next one
    expect(r.status, r.data.error).toBe(200);
    below = await belowMinimumBy(p, token);
  }
  expect(below).toBeLessThanOrEqual(0);
}

/** Places the basket's order through checkout, as a buyer does; answers its number. */
async function placeOrder(p: Page): Promise<string> {
  await p.goto(shopURL + '/checkout/basket/');
  await p.getByRole('link', { name: 'Continue to billing' }).click();
  await p.waitForURL(/\/checkout\/billing\/$/);
  await p.getByLabel('Company name').fill('Steady Gifts Ltd');
  await p.getByLabel('Contact name').fill('Sam Hale');
  await p.getByLabel('Address line 1').fill('7 Mill Lane');
  await p.getByLabel('Town or city').fill('Exampleton');
  await p.getByLabel('Postcode').fill('EX1 2AB');
  await p.getByLabel('Pro-forma: pay by bank transfer before we dispatch').check();
  await p.getByRole('button', { name: 'Continue to delivery' }).click();
  await p.waitForURL(/\/checkout\/delivery\/$/);
  await p.getByRole('button', { name: 'Place Order' }).click();
  await p.waitForURL(/\/checkout\/complete\/TS-\d+\/$/, { timeout: 30_000 });
  return p.url().split('/').filter(Boolean).pop()!;
}

/** One POST /api/errors from 127.0.0.2: the edge keys clients by their address, so this
 * client's allowance is its own, not the one the browsers on 127.0.0.1 share. */
function postReports(agent: http.Agent, body: string): Promise<{ status: number; retryAfter: string | undefined; recorded: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${shopURL}/api/errors`,
      {
        method: 'POST',
        agent,
        localAddress: '127.0.0.2',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Origin: shopURL },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let recorded = 0;
          try {
            recorded = (JSON.parse(text) as { recorded?: number }).recorded ?? 0;
          } catch {
            /* a refusal's sentence */
          }
          const ra = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, retryAfter: Array.isArray(ra) ? ra[0] : ra, recorded });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a client that floods POST /api/errors', { timeout: 180_000 }, () => {
  it('is refused past the limit with 429, while a buyer places an order; the Health page counts at most the limit', async () => {
    const limit = Number(process.env.ERROR_REPORT_LIMIT ?? '30');
    expect(limit, 'ERROR_REPORT_LIMIT must be on for this test').toBeGreaterThan(0);
    expect(limit).toBeLessThan(1000);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    const buyer = await signIn(p);
    await p.waitForURL(/\/account\/dashboard\/$/);
    await fillBasket(p, buyer.idToken);

    // The limit counts a client's reports a minute: the 1,000 go within one minute.
    const second = new Date().getSeconds();
    if (second > 30) await new Promise((r) => setTimeout(r, (61 - second) * 1000));

    const message = `Health e2e flood ${run}`;
    const body = JSON.stringify({
      build: '',
      agent: 'desktop',
      reports: [{ kind: 'other', name: 'FloodTest', message, path: '/health-e2e-flood/', count: 1 }],
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    let floodMs = 0;
    const flood = async () => {
      const from = Date.now();
      const answers: Awaited<ReturnType<typeof postReports>>[] = [];
      let next = 0;
      const worker = async () => {
        while (next < 1000) {
          next++;
          answers.push(await postReports(agent, body));
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      floodMs = Date.now() - from;
      return answers;
    };
    const [answers, orderId] = await Promise.all([flood(), placeOrder(p)]);
    agent.destroy();
    expect(floodMs, '1,000 reports in a minute').toBeLessThan(30_000);

    expect(answers).toHaveLength(1000);
    const refused = answers.filter((a) => a.status === 429);
    const taken = answers.filter((a) => a.status === 202);
    expect(refused.length + taken.length, 'every answer is 202 or 429').toBe(1000);
    expect(refused.length).toBeGreaterThanOrEqual(1000 - limit);
    expect(refused.filter((a) => !a.retryAfter)).toEqual([]); // each says when to try again
    const recorded = taken.reduce((n, a) => n + a.recorded, 0);
    expect(recorded).toBeGreaterThan(0);
    expect(recorded).toBeLessThanOrEqual(limit);

    // Nothing lost from the shop's own work: the order went through.
    const order = await p.evaluate(
      async ({ id, token }) => {
        const res = await fetch(`/api/orders/${id}`, { headers: { Authorization: `Bearer ${token}` } });
        return { status: res.status, body: (await res.json()) as { status?: string } };
      },
      { id: orderId, token: buyer.idToken },
    );
    expect(order.status).toBe(200);
    expect(order.body.status).toBe('placed');
    await context.close();

    const counts = await countsOf((r) => r.message.includes(message));
    expect(counts).toHaveLength(1);
    expect(counts[0]).toBe(recorded);
    expect(counts[0]).toBeLessThanOrEqual(limit);
  });
});
