import { expect } from 'vitest';
import type { Page } from 'playwright-core';

// What the catalogue's back-office e2e files share (catalogue-import.test.ts,
// product-rename.test.ts): the slug rule, the export as staff download it, its CSV read and
// written, and Publish catalogue run to its end.

/** Catalogue.Slugify: lower case, & as "and", anything else not a letter or digit a hyphen. */
export const slugify = (s: string) =>
  s
    .toLowerCase()
    .replaceAll('&', '-and-')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** The products file as staff export it (GET /api/admin/catalogue/export), fetched by page
 * with staff's ID token. */
export async function exportedProducts(page: Page, staffToken: string): Promise<string> {
  const got = await page.evaluate(async (token) => {
    const csrf = (await (await fetch('/api/csrf')).json()) as { token: string; header: string };
    const res = await fetch('/api/admin/catalogue/export?file=products', { headers: { Authorization: `Bearer ${token}`, [csrf.header]: csrf.token } });
    return { status: res.status, text: await res.text() };
  }, staffToken);
  expect(got.status, got.text.slice(0, 200)).toBe(200);
  return got.text;
}

/** Presses Publish catalogue on the back office's Catalogue page (open in page) and waits for
 * this publish's "Published: build … is live."; a failed publish fails at once with its
 * message and last lines. The page may show an earlier publish's "Published: …" (the local
 * edge keeps its last one, and an earlier test file may have published): that one, named by
 * its build, does not count. */
export async function publishCatalogue(page: Page): Promise<void> {
  const done = page.locator('[role="status"]').filter({ hasText: /^Published: / });
  const failed = page.locator('[role="status"]').filter({ hasText: /^The publish failed/ });
  const earlier = (await done.count()) ? await done.textContent() : null;
  await page.getByRole('button', { name: 'Publish catalogue' }).click();
  await expect
    .poll(
      async () => {
        if (await failed.count())
          return `failed: ${await failed.textContent()} ${await page
            .locator('.publish-log')
            .textContent()
            .catch(() => '')}`;
        return (await done.count()) && (await done.textContent()) !== earlier ? 1 : 0;
      },
      { timeout: 840_000, interval: 5_000 },
    )
    .toBe(1);
}

// The catalogue file's CSV, read and written with the code the scripts use.
export { csvLine, parseCSV } from '../lib/csv.mjs';
