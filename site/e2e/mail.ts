import { expect } from 'vitest';

// The local inbox (maildev, at MAILDEV_URL, which scripts/test sets) the shop's emails
// land in during the end-to-end tests.

/** maildev's address, '' when the run has none. */
export const maildev = (process.env.MAILDEV_URL ?? '').replace(/\/$/, '');

/** An email as maildev's API answers it. */
export type Email = { subject: string; text?: string; html?: string; to: { address: string }[]; headers?: Record<string, string> };

/** Every email the local inbox holds for address. */
export async function inbox(address: string): Promise<Email[]> {
  const res = await fetch(`${maildev}/api/email`);
  expect(res.status).toBe(200);
  const all = (await res.json()) as Email[];
  return all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
}
