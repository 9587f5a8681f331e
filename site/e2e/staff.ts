import { execFile } from 'node:child_process';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import path from 'node:path';
import { emulatorUser } from './browser';
import { recordSecret } from './secrets';

// Staff users for the end-to-end tests: scripts/staff run against this run's Auth emulator
// (AUTH_EMULATOR_HOST, which scripts/test sets), as a person runs it against scripts/run's
// (docs/back-office.md "Granting staff").

const script = path.resolve(import.meta.dirname, '..', '..', 'scripts', 'staff');

/** Runs scripts/staff with args against the test's emulator; answers what it printed, or
 * rejects with its exit code and error. */
function runStaff(args: string[]): Promise<string> {
  const host = process.env.AUTH_EMULATOR_HOST;
  if (!host) return Promise.reject(new Error('AUTH_EMULATOR_HOST is not set: run the e2e tests through scripts/test'));
  const env: NodeJS.ProcessEnv = { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: host };
  delete env.GOOGLE_APPLICATION_CREDENTIALS; // never a real project from a test
  return new Promise((resolve, reject) => {
    execFile(script, args, { env, timeout: 30_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`scripts/staff ${args.join(' ')} failed (${err.code ?? err.signal}): ${stderr.trim() || stdout.trim()}`));
      else resolve(stdout);
    });
  });
}

/** Gives the emulator user with this email the custom claim staff: true. The user's ID
 * tokens minted before it do not carry it: sign in after this, or force a token refresh
 * (the admin pages do when they open). */
export function grantStaff(email: string): Promise<string> {
  return runStaff(['grant', email]);
}

/** Takes staff: true away from the emulator user with this email (other claims kept). */
export function revokeStaff(email: string): Promise<string> {
  return runStaff(['revoke', email]);
}

/** A new emulator user made staff, with an ID token minted after the grant (so it carries
 * staff: true) and the password to sign in through the shop's page. */
export async function staffUser(): Promise<Awaited<ReturnType<typeof emulatorUser>>> {
  const user = await emulatorUser();
  await grantStaff(user.email);
  const res = await fetch(`http://${process.env.AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password, returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`emulator sign-in failed: ${res.status}`);
  const body = (await res.json()) as { idToken: string };
  recordSecret('ID token', body.idToken);
  return { ...user, idToken: body.idToken };
}

/** A product's stock as staff see it (GET /api/admin/products/{sku}), read from page
 * with staff's ID token. */
export async function staffStock(page: Page, token: string, sku: string): Promise<number> {
  const got = await page.evaluate(
    async ({ sku, token }) => {
      const csrf = (await (await fetch('/api/csrf')).json()) as { token: string; header: string };
      const res = await fetch(`/api/admin/products/${sku}`, { headers: { Authorization: `Bearer ${token}`, [csrf.header]: csrf.token } });
      return { status: res.status, body: (await res.json()) as { product?: { stock: number }; error?: string } };
    },
    { sku, token },
  );
  expect(got.status, got.body.error).toBe(200);
  return got.body.product!.stock;
}
