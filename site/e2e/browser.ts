import { chromium, type Browser, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { recordSecret } from './secrets';

/** The shop under test, started by scripts/test. */
export const shopURL = (process.env.SHOP_URL ?? '').replace(/\/$/, '');
if (!shopURL) throw new Error('SHOP_URL is not set: run the e2e tests through scripts/test');

/** Launches Debian's Chromium headless, with no background network traffic. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

const shots = path.resolve(import.meta.dirname, '..', '..', 'test-results');

/** Saves a screenshot under test-results/ for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: false });
}

/** Signs a new user up in the Auth emulator and answers the ID token. */
export async function emulatorUser(): Promise<{ uid: string; idToken: string; email: string; password: string }> {
  const host = process.env.AUTH_EMULATOR_HOST;
  if (!host) throw new Error('AUTH_EMULATOR_HOST is not set');
  const email = `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@shop.test`;
  const res = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct-horse-1', returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`emulator sign-up failed: ${res.status}`);
  const body = (await res.json()) as { localId: string; idToken: string };
  recordSecret('password', 'correct-horse-1');
  recordSecret('ID token', body.idToken);
  return { uid: body.localId, idToken: body.idToken, email, password: 'correct-horse-1' };
}

/** Signs user in through the shop's sign-in page, as a person does, and returns once the
 * page has moved on. */
export async function signInAs(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto(shopURL + '/account/login/');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/account/login'));
}

/** Signs a new emulator user in through the shop's sign-in page, as a buyer does, and
 * answers the user once the page has moved on. */
export async function signIn(page: Page): Promise<Awaited<ReturnType<typeof emulatorUser>>> {
  const user = await emulatorUser();
  await signInAs(page, user);
  return user;
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** What axe-core finds wrong with the page as it is now, one line per rule broken. */
export async function axeViolations(p: Page): Promise<string[]> {
  await p.addScriptTag({ path: axePath });
  return p.evaluate(async () => {
    const w = window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } };
    const r = await w.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
}

/** Calls the API from a page of the shop, as the site does: a POST with the CSRF token of the page (or a fresh one). */
export async function api<T>(p: Page, path: string, body: Record<string, unknown>): Promise<{ status: number; data: T }> {
  return p.evaluate(
    async ({ path, body }) => {
      const meta = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content');
      const csrf = meta || ((await (await fetch('/api/csrf', { credentials: 'same-origin' })).json()) as { token: string }).token;
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

/** What the buyer's basket lacks of the minimum order (pence; 0 at or over it), as POST
 * /api/basket prices it: a basket add answers what changed, not the priced basket. */
export async function belowMinimumBy(p: Page, token: string): Promise<number> {
  const { status, data } = await api<{ below_minimum_by: number }>(p, '/api/basket', { token });
  if (status !== 200) throw new Error(`POST /api/basket answered ${status}`);
  return data.below_minimum_by;
}
