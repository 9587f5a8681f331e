import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, screenshot, shopURL, signIn } from './browser';

/** Issue 14 item 10: the dashboard says when the sign-in's email address is not verified
 * and sends the verification email again; once verified, the notice goes. */

let browser: Browser;
let page: Page;

const emulator = () => `http://${process.env.AUTH_EMULATOR_HOST}`;
const project = process.env.FIREBASE_PROJECT_ID ?? 'demo-tradeshop';

/** The emulator's out-of-band codes for an email address (what it "sent"). */
async function oobCodes(email: string): Promise<{ requestType: string; oobLink: string }[]> {
  const res = await fetch(`${emulator()}/emulator/v1/projects/${project}/oobCodes`);
  const { oobCodes } = (await res.json()) as { oobCodes: { email: string; requestType: string; oobLink: string }[] };
  return oobCodes.filter((c) => c.email === email);
}

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
afterAll(async () => {
  await browser?.close();
});

describe('email verification', { timeout: 90_000 }, () => {
  it('an unverified sign-in sees the notice; Resend sends the email; after its link the notice is gone', async () => {
    const user = await signIn(page);
    await page.waitForURL(/\/account\/dashboard\/$/);
    const notice = page.locator('.email-verification');
    await expect.poll(() => notice.locator('strong').textContent()).toBe('Your email address is not verified.');
    const before = (await oobCodes(user.email)).filter((c) => c.requestType === 'VERIFY_EMAIL').length;

    await notice.getByRole('button', { name: 'Resend the verification email' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => notice.locator('[role="status"]').textContent())
      .toBe(`We have sent a verification email to ${user.email}. Open its link, then reload this page.`);
    await screenshot(page, 'dashboard-email-not-verified');
    const codes = (await oobCodes(user.email)).filter((c) => c.requestType === 'VERIFY_EMAIL');
    expect(codes.length).toBe(before + 1);

    // The buyer opens the link (the emulator applies it), then reloads the dashboard.
    expect((await fetch(codes.at(-1)!.oobLink)).ok).toBe(true);
    await page.reload();
    await expect.poll(() => page.locator('.dashboard-business').count()).toBe(1);
    await expect.poll(() => page.locator('main').textContent()).toContain('Recent orders');
    await page.waitForTimeout(1500); // the notice's own check of the sign-in service
    await expect(notice.count()).resolves.toBe(0);
  });
});
