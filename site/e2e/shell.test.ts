import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { axeViolations, launch, screenshot, shopURL } from './browser';

const phoneUA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36';
// The shop's identity: functions/config/shop.json, which the pages are built from.
const { business } = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', 'functions', 'config', 'shop.json'), 'utf8')) as {
  business: { tradingName: string; legalName: string; registeredIn: string; registeredAddress: string; companyNumber: string; vatNumber: string };
};
const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let browser: Browser;
let desktop: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  desktop = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await desktop.newPage();
});
afterAll(async () => {
  await browser?.close();
});

describe('site shell', () => {
  it('every header and footer link answers 200 and every internal link ends in a slash', async () => {
    await page.goto(shopURL + '/');
    const hrefs = await page.locator('header a[href], footer a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    const internal = [...new Set(hrefs.filter((h) => h.startsWith('/')))];
    expect(internal.length).toBeGreaterThan(70); // 7 ranges, 62 categories, help, blog, search, account
    for (const href of internal) {
      expect(href, href).toMatch(/\/(\?|#|$)/);
      const res = await fetch(shopURL + href, { redirect: 'manual' });
      expect(res.status, href).toBe(200);
    }
    for (const p of ['/', '/outlet/r/wholesale_greeting_cards/', '/outlet/section/value-cards/120/', '/help/faq/', '/blog/']) {
      await page.goto(shopURL + p);
      const links = await page.locator('a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      for (const l of links) expect(l, `${l} on ${p}`).toMatch(/\/(\?|#|$)|\.[a-z0-9]+$/);
    }
  });

  it('content pages render from Markdown with their payload beside them', async () => {
    const res = await page.goto(shopURL + '/help/faq/');
    expect(res?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('Frequently asked questions');
    await expect(page.locator('article').textContent()).resolves.toContain('£100.00 excluding VAT');
    const payload = await (await fetch(shopURL + '/help/faq/_payload.json')).json();
    expect(payload).toMatchObject({ kind: 'content', page: { path: '/help/faq/', title: 'Frequently asked questions' } });
  });

  it('desktop: the search form sits beside the menu', async () => {
    await page.goto(shopURL + '/outlet/r/wholesale_balloons/');
    await page.waitForSelector('.site-header[data-layout="desktop"]');
    expect(await page.locator('#site-menu form[role="search"]').count()).toBe(0);
    await expect(page.locator('.header-search form[role="search"]').isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Search products').isVisible()).resolves.toBe(true);
    await screenshot(page, 'shell-desktop-1440');
  });

  it('mobile: the search form is inside the menu', async () => {
    const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, userAgent: phoneUA, hasTouch: true, isMobile: true });
    const p = await ctx.newPage();
    await p.goto(shopURL + '/');
    await p.waitForSelector('.site-header[data-layout="compact"]');
    await expect(p.locator('#site-menu').isVisible()).resolves.toBe(false);
    await p.getByRole('button', { name: 'Menu' }).click();
    await expect(p.locator('#site-menu').isVisible()).resolves.toBe(true);
    await expect(p.locator('#site-menu form[role="search"] input[name="q"]').isVisible()).resolves.toBe(true);
    await screenshot(p, 'shell-mobile-360-menu');
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await ctx.close();
  });

  it('tablet: portrait touch screens get the folded menu too', async () => {
    const ctx = await browser.newContext({ viewport: { width: 768, height: 1024 }, hasTouch: true });
    const p = await ctx.newPage();
    await p.goto(shopURL + '/');
    await p.waitForSelector('.site-header[data-layout="compact"]');
    await expect(p.evaluate(() => document.documentElement.dataset.tablet)).resolves.toBe('true');
    await screenshot(p, 'shell-tablet-768');
    await ctx.close();
  });

  it('the logo has 50 falling snow circles, still under prefers-reduced-motion', async () => {
    await page.goto(shopURL + '/');
    expect(await page.locator('.logo .snow circle').count()).toBe(50);
    const names = await page.locator('.logo .snow circle').evaluateAll((cs) => cs.map((c) => getComputedStyle(c).animationName));
    expect(new Set(names)).toEqual(new Set(['snow-a', 'snow-b', 'snow-c']));
    const still = await browser.newContext({ reducedMotion: 'reduce' });
    const p = await still.newPage();
    await p.goto(shopURL + '/');
    const stillNames = await p.locator('.logo .snow circle').evaluateAll((cs) => cs.map((c) => getComputedStyle(c).animationName));
    expect(new Set(stillNames)).toEqual(new Set(['none']));
    await still.close();
  });

  it('titles, the logo and the footer name the shop from shop.json; the footer carries its company details', async () => {
    await page.goto(shopURL + '/checkout/basket/');
    await expect(page.title()).resolves.toBe(`Your basket | ${business.tradingName}`);
    await expect(page.getByRole('link', { name: `${business.tradingName}, home` }).isVisible()).resolves.toBe(true);
    const footer = (await page.locator('footer').innerText()).replace(/\s+/g, ' ');
    expect(footer).toContain(`© ${new Date().getFullYear()} ${business.tradingName}.`);
    expect(footer).toContain(
      `${business.tradingName} is a trading name of ${business.legalName}, registered in ${business.registeredIn}, company number ${business.companyNumber}.`,
    );
    expect(footer).toContain(`Registered office: ${business.registeredAddress}. VAT registration number ${business.vatNumber}.`);
    await page.locator('footer').scrollIntoViewIfNeeded();
    await screenshot(page, 'shell-footer-company-details');
    await page.goto(shopURL + '/help/contact-us/');
    await expect(page.title()).resolves.toBe(`Contact us | ${business.tradingName}`);
    const main = await page.locator('main').innerText();
    for (const v of [business.legalName, business.companyNumber, business.registeredAddress, business.vatNumber]) expect(main).toContain(v);
  });

  it('the information modal opens, traps focus and closes with Escape', async () => {
    await page.goto(shopURL + '/');
    const opener = page.getByRole('button', { name: 'Trade info' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: `Trading with ${business.tradingName}` });
    await expect(dialog.isVisible()).resolves.toBe(true);
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
      await expect(page.evaluate(() => !!document.activeElement?.closest('dialog'))).resolves.toBe(true);
    }
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    await expect(page.evaluate(() => !!document.activeElement?.closest('dialog'))).resolves.toBe(true);
    await screenshot(page, 'shell-info-modal');
    await page.keyboard.press('Escape');
    await expect(dialog.isVisible()).resolves.toBe(false);
    await expect(opener.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    // And the Close button closes it too.
    await opener.click();
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog.isVisible()).resolves.toBe(false);
  });

  it('keyboard only: the first Tab reaches the skip link, and the category menu opens from the keyboard', async () => {
    await page.goto(shopURL + '/');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
    await page.locator('summary', { hasText: 'Shop by category' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('.menu-categories a', { hasText: 'Value Cards' }).isVisible()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await expect(page.locator('.menu-categories a', { hasText: 'Value Cards' }).isVisible()).resolves.toBe(false);
  });

  it('an unknown page shows the 404 texts with status 404', async () => {
    const res = await page.goto(shopURL + '/no-such-page/');
    expect(res?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('We Were Unable to Find that Page');
    await expect.poll(() => page.locator('.error-message').textContent()).toBe('Page not found: /no-such-page/');
    const main = page.locator('main');
    await expect(main.getByRole('link', { name: 'homepage' }).getAttribute('href')).resolves.toBe('/');
    await expect(main.getByRole('link', { name: 'contact us' }).getAttribute('href')).resolves.toBe('/help/contact-us/');
    await screenshot(page, 'shell-404');
  });

  it('a route whose parameters fail validation says Page Not Found with the full path', async () => {
    const reported: string[] = [];
    const onConsole = (m: { text(): string }) => m.text().includes('[app error]') && reported.push(m.text());
    page.on('console', onConsole);
    const res = await page.goto(shopURL + '/outlet/section/value-cards/abc/?x=1');
    expect(res?.status()).toBe(404);
    await expect.poll(() => page.locator('.error-message').textContent()).toBe('Page Not Found: /outlet/section/value-cards/abc/?x=1');
    await page.waitForLoadState('networkidle');
    page.off('console', onConsole);
    // Recorded once: the page guard leaves a page that is itself the 404 alone.
    expect(reported.filter((t) => t.includes('Page Not Found: /outlet/section/value-cards/abc/'))).toHaveLength(1);
  });

  it('a served page whose route parameters fail validation shows Page Not Found with the full path', async () => {
    // The edge answers every /checkout/complete/{id}/ with the one order shell; "abc" is
    // too short to be an order id (lib/route-validation.ts), so the page shows the 404.
    await page.goto(shopURL + '/checkout/complete/abc/?x=1#top');
    await expect.poll(() => page.locator('main .error-message').textContent()).toBe('Page Not Found: /checkout/complete/abc/?x=1#top');
    await expect(page.locator('main h1').textContent()).resolves.toBe('We Were Unable to Find that Page');
    // A client navigation to such a route says the same.
    await page.goto(shopURL + '/help/faq/');
    await page.waitForLoadState('networkidle');
    await appendLink(page, '/checkout/complete/xy/', 'Odd order link');
    await page.getByText('Odd order link').click();
    await expect.poll(() => page.locator('main .error-message').textContent()).toBe('Page Not Found: /checkout/complete/xy/');
  });

  it('a page whose hydration fails shows Page Not Found with the full path', async () => {
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    // The server HTML says one thing and the page's React tree another: a hydration mismatch.
    await p.route(`${shopURL}/help/faq/?*`, async (route) => {
      const res = await route.fetch();
      const html = await res.text();
      const tampered = html.replace('<h1>Frequently asked questions</h1>', '<h1>Frequently asked questions, tampered</h1>');
      expect(tampered).not.toBe(html);
      await route.fulfill({ response: res, body: tampered });
    });
    await p.goto(shopURL + '/help/faq/?from=mail');
    await expect.poll(() => p.locator('main .error-message').textContent()).toBe('Page Not Found: /help/faq/?from=mail');
    await expect(p.locator('main h1').textContent()).resolves.toBe('We Were Unable to Find that Page');
    await screenshot(p, 'shell-hydration-failed');
    // The same page served as built hydrates and shows.
    await p.unroute(`${shopURL}/help/faq/?*`);
    await p.goto(shopURL + '/help/faq/?from=mail');
    await p.waitForLoadState('networkidle');
    await expect(p.locator('main h1').textContent()).resolves.toBe('Frequently asked questions');
    await ctx.close();
  });

  it('a crawler user agent gets no error page', async () => {
    // Crawlers read the answer, not a rendered tab: the 404 status with no page in it.
    const asCrawler = await fetch(shopURL + '/no-such-page/', { headers: { 'User-Agent': googlebot } });
    expect(asCrawler.status).toBe(404);
    expect(await asCrawler.text()).not.toContain('We Were Unable to Find that Page');
    const asBuyer = await fetch(shopURL + '/no-such-page/');
    expect(asBuyer.status).toBe(404);
    expect(await asBuyer.text()).toContain('We Were Unable to Find that Page');
  });

  it('client navigation applies the build route rules; an external target leaves with a full load', async () => {
    await page.route('https://survey.tradeshop.example/**', (r) =>
      r.fulfill({ status: 200, contentType: 'text/html', body: '<title>Survey</title><h1>Survey</h1>' }),
    );
    await page.goto(shopURL + '/');
    await page.waitForLoadState('networkidle');
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await appendLink(page, '/christmas/', 'Christmas shortcut');
    await page.getByText('Christmas shortcut').click();
    await page.waitForURL(`${shopURL}/outlet/r/wholesale-christmas/`);
    expect(asked).not.toContain('/christmas/'); // the rule applied in the browser, not by an edge redirect
    await appendLink(page, '/feedback/', 'Feedback shortcut');
    await page.getByText('Feedback shortcut').click();
    await page.waitForURL('https://survey.tradeshop.example/feedback');
    await page.unroute('https://survey.tradeshop.example/**');
  });

  it('a failed chunk load reloads the page once, not again within 10 s', async () => {
    // Every wait here is on an event, never on the clock: under load a page can take many
    // seconds to hydrate, and a failure dispatched before then finds no listener.
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    const stationery = '/outlet/r/wholesale_stationery/';
    // The app's behaviours are mounted: their first look at builds/latest.json has come back
    // and put the release on <html>. The chunk-load listener is added by the same component
    // in the same commit (components/app/app-behaviours.tsx), so it listens by then.
    const mounted = () => p.waitForSelector('html[data-release]', { state: 'attached' });
    // Dispatches a chunk-load failure as the browser reports one and answers the navigation
    // the page's handler started at once ('reload'), or '' when it started none: the
    // Navigation API fires 'navigate' inside location.reload() itself, so the answer needs
    // no waiting to be sure.
    const failChunk = () =>
      p.evaluate(() => {
        const nav = (window as unknown as { navigation: EventTarget }).navigation;
        let started = '';
        const onNavigate = (e: Event) => {
          started = (e as Event & { navigationType: string }).navigationType;
        };
        nav.addEventListener('navigate', onNavigate);
        const err = Object.assign(new Error('Loading chunk 815 failed. (error: /_next/static/chunks/815.js)'), { name: 'ChunkLoadError' });
        window.dispatchEvent(new ErrorEvent('error', { error: err, message: err.message }));
        nav.removeEventListener('navigate', onNavigate);
        return started;
      });
    // The handler reports every chunk failure it sees (lib/chunk-reload.ts), reload or not.
    const reported = () => p.waitForEvent('console', (m) => m.text().startsWith('[app error] ChunkLoadError'));

    await p.goto(shopURL + stationery);
    await mounted();
    let loads = 0;
    p.on('load', () => loads++);
    const [, , first] = await Promise.all([p.waitForEvent('load'), reported(), failChunk()]);
    expect(first).toBe('reload');
    expect(loads).toBe(1);
    expect(new URL(p.url()).pathname).toBe(stationery);

    await mounted();
    const [, second] = await Promise.all([reported(), failChunk()]);
    expect(second).toBe(''); // guarded: the handler saw the failure and started no reload within 10 s
    expect(loads).toBe(1);
    await ctx.close();
  });

  it('prefetches nothing during load: in-view links 1 s after the load event', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const p = await ctx.newPage();
    const prefetched: { url: string; at: number }[] = [];
    p.on('request', (r) => {
      if (r.url().includes('_payload.json?')) prefetched.push({ url: r.url(), at: Date.now() });
    });
    await p.goto(shopURL + '/');
    const loaded = Date.now(); // goto resolves at the load event
    const code = await p.evaluate(() => document.documentElement.dataset.code);
    expect(code).toMatch(/^code-[0-9a-f]{16}$/);
    await expect.poll(() => prefetched.map((x) => x.url), { timeout: 10_000 }).toContain(`${shopURL}/outlet/r/wholesale_balloons/_payload.json?${code}`);
    expect(Math.min(...prefetched.map((x) => x.at)) - loaded).toBeGreaterThanOrEqual(1000);
    await ctx.close();
  });

  it('prefetches a hovered or focused link at once, and nothing with Save-Data on', async () => {
    // Links to pages the FAQ does not link (two glassware products), outside header and main,
    // where the in-view prefetch does not look: fetched when the pointer rests on one, and
    // when the other takes the focus.
    const glassware = (await (await fetch(`${shopURL}/outlet/section/glassware/953/_payload.json`)).json()) as { products: { path: string }[] };
    const hovered = glassware.products[0]!.path;
    const focused = glassware.products[1]!.path;
    const early = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const e = await early.newPage();
    const seenEarly: string[] = [];
    e.on('request', (r) => r.url().includes('_payload.json?') && seenEarly.push(new URL(r.url()).pathname));
    await e.goto(shopURL + '/help/faq/');
    await e.evaluate(
      (links) => {
        for (const [href, text] of links) {
          const a = document.createElement('a');
          a.href = href;
          a.textContent = text;
          a.style.cssText = 'display:block;padding:1rem';
          document.body.prepend(a);
        }
      },
      [
        [hovered, 'Hover me'],
        [focused, 'Focus me'],
      ] as [string, string][],
    );
    expect(seenEarly).not.toContain(`${hovered}_payload.json`);
    await e.getByText('Hover me').hover();
    await expect.poll(() => seenEarly, { timeout: 5_000 }).toContain(`${hovered}_payload.json`);
    expect(seenEarly).not.toContain(`${focused}_payload.json`);
    await e.getByText('Focus me').focus();
    await expect.poll(() => seenEarly, { timeout: 5_000 }).toContain(`${focused}_payload.json`);
    await early.close();

    // Save-Data on: nothing is prefetched.
    const saver = await browser.newContext({ extraHTTPHeaders: {} });
    await saver.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' } }));
    const q = await saver.newPage();
    const seen: string[] = [];
    q.on('request', (r) => r.url().includes('_payload.json?') && seen.push(r.url()));
    await q.goto(shopURL + '/');
    await q.waitForTimeout(2000);
    expect(seen).toEqual([]);
    await saver.close();
  });

  it('a click between catalogue pages fetches only the page index.txt: nothing during load, no file that is not there', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const p = await ctx.newPage();
    const rsc: string[] = [];
    const missing: string[] = [];
    p.on('request', (r) => new URL(r.url()).pathname.endsWith('.txt') && rsc.push(new URL(r.url()).pathname));
    p.on('response', (r) => r.status() === 404 && missing.push(new URL(r.url()).pathname));
    await p.goto(shopURL + '/outlet/section/female-birthday-cards/101/');
    await p.waitForLoadState('networkidle');
    expect(rsc).toEqual([]); // Next's own link prefetching is off (components/app/link.tsx)
    await p.evaluate(() => Object.assign(window, { sameDocument: true }));
    const product = await p.locator('.card-name a').first().getAttribute('href');
    await p.locator('.card-name a').first().click();
    await expect.poll(() => p.url()).toBe(shopURL + product);
    await p.locator('.breadcrumbs li').nth(2).locator('a').click();
    await expect.poll(() => p.url()).toBe(shopURL + '/outlet/section/female-birthday-cards/101/');
    await p.locator('.menu-ranges a', { hasText: 'Balloons' }).click();
    await expect.poll(() => p.locator('h1').textContent()).toBe('Wholesale Balloons');
    // Client-side navigations, each fetching the one RSC file the export keeps per page.
    expect(await p.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(rsc).toEqual([`${product}index.txt`, '/outlet/section/female-birthday-cards/101/index.txt', '/outlet/r/wholesale_balloons/index.txt']);
    expect(missing).toEqual([]);
    await ctx.close();
  });

  it('archUrl remembers the last page but not sign-in pages', async () => {
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    const archUrl = async () => (await ctx.cookies()).find((c) => c.name === 'archUrl')?.value;
    await p.goto(shopURL + '/outlet/r/wholesale_giftware/?sort=name');
    await expect.poll(archUrl).toBe(encodeURIComponent('/outlet/r/wholesale_giftware/?sort=name'));
    await p.goto(shopURL + '/account/login/');
    await p.waitForLoadState('networkidle');
    expect(await archUrl()).toBe(encodeURIComponent('/outlet/r/wholesale_giftware/?sort=name'));
    await p.goto(shopURL + '/help/faq/');
    await expect.poll(archUrl).toBe(encodeURIComponent('/help/faq/'));
    await ctx.close();
  });

  it('archUrl follows a change of query alone (paging) and is never set to a 404 page', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const p = await ctx.newPage();
    const archUrl = async () => decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'archUrl')?.value ?? '');
    const paged = '/outlet/section/value-cards/120/';
    await p.goto(shopURL + paged);
    await expect.poll(archUrl).toBe(paged);
    await p.locator('main .pager').getByRole('link', { name: 'Next' }).click();
    await p.waitForURL(`${shopURL}${paged}?page=2`);
    await expect.poll(archUrl).toBe(`${paged}?page=2`);
    // Neither an unknown page nor a page found to be a 404 in the browser is remembered.
    for (const notFound of ['/no-such-page/', '/checkout/complete/abc/']) {
      await p.goto(shopURL + notFound);
      await expect.poll(() => p.locator('main .error-message').textContent()).toMatch(/^Page (not found|Not Found): /);
      await p.waitForLoadState('networkidle');
      expect(await archUrl(), notFound).toBe(`${paged}?page=2`);
    }
    await ctx.close();
  });

  it('axe-core finds no violations on the home, a range and the 404 page', async () => {
    for (const p of ['/', '/outlet/r/wholesale_balloons/', '/no-such-page/']) {
      await page.goto(shopURL + p);
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page), p).toEqual([]);
    }
  });

  it(
    'after a new build is cut while a tab is open, the next click loads the page in full from the new build',
    { timeout: 120_000 } /* a release of the 9,000 files of the live export (hashed to compare) under a new build id: a few seconds */,
    async () => {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await ctx.addInitScript(() => {
        (window as unknown as { __SHOP_BUILD_POLL_MS: number }).__SHOP_BUILD_POLL_MS = 500;
      });
      const p = await ctx.newPage();
      await p.goto(shopURL + '/');
      // The page does not name its release: the tab's first ask of builds/latest.json does.
      const release = () => p.evaluate(() => document.documentElement.dataset.release);
      const current = (await (await fetch(`${shopURL}/builds/latest.json`)).json()) as { id: string };
      await expect.poll(release, { timeout: 10_000 }).toBe(current.id);
      const before = await release();
      // A client navigation keeps the page (no full load) while the build is current.
      await p.evaluate(() => ((window as unknown as { marker: string }).marker = 'same page'));
      await p.locator('main a[href="/outlet/r/wholesale_balloons/"]').first().click();
      await p.waitForURL(`${shopURL}/outlet/r/wholesale_balloons/`);
      await expect(p.evaluate(() => (window as unknown as { marker?: string }).marker)).resolves.toBe('same page');

      // Every build id the tab's poll has seen, from before the new build is cut.
      const seen: string[] = [];
      p.on('response', (r) => {
        if (r.url().includes('/builds/latest.json') && r.status() === 200) {
          r.json()
            .then((b: { id: string }) => seen.push(b.id))
            .catch(() => undefined);
        }
      });
      const release_ = await cutBuild();
      // The live build's own pages under a new id: the release uploads none of them, only
      // the new build's meta file and latest.json (that a real second build of the same code
      // uploads only the pages whose data changed is checked by catalogue-import's Publish).
      // release: 3/9 pages and payloads: 0 files, 0 B uploaded, 9,296 unchanged (0.0s)
      const pages = release_.match(/pages and payloads: ([\d,]+) files?, [^,\n]* uploaded(?:, ([\d,]+) unchanged)?/);
      expect(pages, release_).not.toBeNull();
      const uploaded = Number(pages![1]!.replace(/,/g, ''));
      const skipped = Number((pages![2] ?? '0').replace(/,/g, ''));
      expect(skipped).toBeGreaterThan(6000);
      expect(uploaded).toBe(0);
      const latest = (await (await fetch(`${shopURL}/builds/latest.json`)).json()) as { id: string };
      expect(latest.id).not.toBe(before);
      // Wait until the tab has seen the new id, then click an ordinary link.
      await expect.poll(() => seen.includes(latest.id), { timeout: 10_000 }).toBe(true);
      await p.locator('header a[href="/outlet/r/wholesale_giftware/"]').first().click();
      await p.waitForURL(`${shopURL}/outlet/r/wholesale_giftware/`);
      await p.waitForLoadState('load');
      await expect(p.evaluate(() => (window as unknown as { marker?: string }).marker)).resolves.toBeUndefined();
      await expect.poll(release, { timeout: 10_000 }).toBe(latest.id);
      await ctx.close();
    },
  );
});

/** Adds a link to the page's main content, as a page of the site would have it. */
function appendLink(p: Page, href: string, text: string) {
  return p.evaluate(
    ([h, t]) => {
      const a = document.createElement('a');
      a.href = h!;
      a.textContent = t!;
      document.querySelector('main')!.append(a);
    },
    [href, text],
  );
}

/** Cuts a new build and releases it into the folder the edge serves, as a real release
 * does (scripts/release.mjs, dir target, with --export): a new build of the same code and
 * data is the live export under a new build id (the pages byte-identical; a real one would
 * also pick up the stock that orders since changed on a few pages, which this test does
 * not read), so the test takes the export the live build came from (site/out: the build
 * suite's, or the back office publish's when catalogue-import ran before) under a new id
 * (newBuild) rather than a second `next build` of 3,000 pages, which took 60-100 s. The
 * release validates the copy as it does any export (the id in builds/latest.json and the
 * meta file, nothing else under builds/) and publishes it in the release order. */
async function cutBuild(): Promise<string> {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const releaseDir = process.env.RELEASE_DIR ?? path.join(root, '.local', 'release');
  const exportDir = mkdtempSync(path.join(tmpdir(), 'tradeshop-new-build-'));
  try {
    newBuild(path.join(root, 'site', 'out'), exportDir);
    return await new Promise((resolve, reject) => {
      const child = spawn('node', ['scripts/release.mjs', '--target', `dir:${releaseDir}`, '--export', exportDir], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
        env: process.env,
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        process.stdout.write(chunk);
      });
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`release exited with ${code}`))));
    });
  } finally {
    rmSync(exportDir, { recursive: true, force: true });
  }
}

/** Writes into the empty folder `to` the export in `from` as a new build: every file but
 * builds/ hard-linked (copied where links fail), then the build's meta file and, last,
 * builds/latest.json, as scripts/build.mjs writes them, under a new id made the way its
 * newBuildId makes one (a UTC time and 3 random bytes). */
function newBuild(from: string, to: string) {
  const latest = JSON.parse(readFileSync(path.join(from, 'builds', 'latest.json'), 'utf8')) as { id: string };
  const meta = JSON.parse(readFileSync(path.join(from, 'builds', 'meta', `${latest.id}.json`), 'utf8')) as Record<string, unknown>;
  for (const e of readdirSync(from, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(from, path.join(e.parentPath, e.name));
    if (!e.isFile() || rel.split(path.sep)[0] === 'builds') continue;
    mkdirSync(path.join(to, path.dirname(rel)), { recursive: true });
    try {
      linkSync(path.join(from, rel), path.join(to, rel));
    } catch {
      copyFileSync(path.join(from, rel), path.join(to, rel));
    }
  }
  const now = new Date();
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const id = `${stamp}-${randomBytes(3).toString('hex')}`;
  const timestamp = now.getTime();
  mkdirSync(path.join(to, 'builds', 'meta'), { recursive: true });
  writeFileSync(path.join(to, 'builds', 'meta', `${id}.json`), JSON.stringify({ ...meta, id, timestamp }));
  writeFileSync(path.join(to, 'builds', 'latest.json'), JSON.stringify({ id, timestamp }));
}
