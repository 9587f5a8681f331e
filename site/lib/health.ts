import type { AdminHealthAnswer, AppErrorGroupAnswer, BacklogAnswer } from './api-types';
import type { ReportKind } from './report';

// The answer of GET /api/admin/health, as generated from the Go answer types (times in
// Unix ms, null where there is nothing; a group's status is 0 when it has none; more:
// the server read as many as it reads, and there are more).

/** One group of app error reports: one kind, name, message and path. */
export type AppErrorGroup = AppErrorGroupAnswer;
/** A backlog: how many wait, and since when the oldest has. */
export type Backlog = BacklogAnswer;
/** GET /api/admin/health. */
export type HealthAnswer = AdminHealthAnswer;

/** The alarms' thresholds (docs/operations.md): an email waiting longer than 15 minutes,
 * an order pending or waiting for its invoice longer than 10 minutes. */
export const OUTBOX_ALARM_MS = 900_000;
export const ORDERS_ALARM_MS = 600_000;

/** Whether the oldest of a backlog has waited longer than the alarm allows, at now. */
export const overdue = (oldestAt: number | null, limitMs: number, now: number): boolean => oldestAt !== null && now - oldestAt > limitMs;

/** A wait in words: "3 minutes", "2 hours 5 minutes", "less than a minute". */
export function waitedFor(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'less than a minute';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (h === 0) return part(m, 'minute');
  return m === 0 ? part(h, 'hour') : `${part(h, 'hour')} ${part(m, 'minute')}`;
}

/** The last publish as the page reads it: builds/latest.json's id and build time, and when
 * the file was last written (its Last-Modified: the publish, or a rollback, that made it current). */
export interface LastPublish {
  id: string;
  builtAt: number;
  publishedAt: number | null;
}

/** Reads builds/latest.json (never cached: docs/build-and-release.md). */
export async function lastPublish(fetchImpl: typeof fetch = fetch): Promise<LastPublish> {
  const res = await fetchImpl(`/builds/latest.json?t=${Date.now()}`, { cache: 'no-store' });
  if (!res.ok) throw new Error(`builds/latest.json answered ${res.status}`);
  const body = (await res.json()) as { id?: unknown; timestamp?: unknown };
  if (typeof body.id !== 'string' || typeof body.timestamp !== 'number') throw new Error('builds/latest.json is not a build');
  const modified = Date.parse(res.headers.get('Last-Modified') ?? '');
  return { id: body.id, builtAt: body.timestamp, publishedAt: Number.isNaN(modified) ? null : modified };
}

/** What each kind of report means, in the back office's words. */
export const KIND_LABELS: Record<ReportKind, string> = {
  chunk: 'Code did not load',
  fatal: 'Error page shown',
  unhandled: 'Unhandled error',
  hydration: 'Page did not start',
  api: 'Failed API call',
  basket: 'Basket did not load',
  other: 'Other',
};
