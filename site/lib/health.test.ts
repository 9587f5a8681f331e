import { describe, expect, it } from 'vitest';
import { lastPublish, ORDERS_ALARM_MS, overdue, waitedFor } from './health';

describe('the Health page’s helpers', () => {
  it('says a backlog is overdue only past its alarm’s threshold', () => {
    const now = 10_000_000;
    expect(overdue(null, ORDERS_ALARM_MS, now)).toBe(false);
    expect(overdue(now - ORDERS_ALARM_MS, ORDERS_ALARM_MS, now)).toBe(false);
    expect(overdue(now - ORDERS_ALARM_MS - 1, ORDERS_ALARM_MS, now)).toBe(true);
  });

  it('words a wait', () => {
    expect(waitedFor(30_000)).toBe('less than a minute');
    expect(waitedFor(60_000)).toBe('1 minute');
    expect(waitedFor(11 * 60_000)).toBe('11 minutes');
    expect(waitedFor(2 * 3_600_000)).toBe('2 hours');
    expect(waitedFor(3_600_000 + 5 * 60_000)).toBe('1 hour 5 minutes');
  });

  it('reads the last publish from builds/latest.json and its Last-Modified', async () => {
    const asked: string[] = [];
    const fetchImpl = (async (url: string) => {
      asked.push(url);
      return new Response('{"id":"20261126T231136Z-bd33f6","timestamp":1795734763889}', { headers: { 'Last-Modified': 'Thu, 26 Nov 2026 23:15:00 GMT' } });
    }) as unknown as typeof fetch;
    await expect(lastPublish(fetchImpl)).resolves.toEqual({
      id: '20261126T231136Z-bd33f6',
      builtAt: 1795734763889,
      publishedAt: Date.UTC(2026, 10, 26, 23, 15),
    });
    expect(asked[0]).toMatch(/^\/builds\/latest\.json\?t=\d+$/);
  });

  it('refuses an answer that is not a build', async () => {
    const fetchImpl = (async () => new Response('{"id":3}')) as unknown as typeof fetch;
    await expect(lastPublish(fetchImpl)).rejects.toThrow('not a build');
    const missing = (async () => new Response('', { status: 404 })) as unknown as typeof fetch;
    await expect(lastPublish(missing)).rejects.toThrow('404');
  });
});
