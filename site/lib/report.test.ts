import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  agentOf,
  boundedPath,
  boundedText,
  hashUid,
  isNetworkFailure,
  NETWORK_HOLD_MS,
  ReportCollector,
  reportError,
  setReportSink,
  watchPageHide,
  type CollectorEnv,
  type ErrorReport,
  type ErrorReportBatch,
} from './report';

describe('reportError', () => {
  let restore: ReturnType<typeof setReportSink> | undefined;
  afterEach(() => {
    if (restore) setReportSink(restore);
  });

  it('sends each report to the sink with its kind', () => {
    const got: ErrorReport[] = [];
    restore = setReportSink((r) => got.push(r));
    reportError(new TypeError('boom'), { fatal: true, statusCode: 500, path: '/x/' });
    reportError('Page not found: /nope/', { statusCode: 404 });
    reportError(new Error('chunk'), { kind: 'chunk' });
    expect(got).toHaveLength(3);
    expect(got[0]).toMatchObject({ kind: 'fatal', name: 'TypeError', message: 'boom', fatal: true, statusCode: 500, path: '/x/' });
    expect(got[1]).toMatchObject({ kind: 'other', message: 'Page not found: /nope/', fatal: false, statusCode: 404 });
    expect(got[2]).toMatchObject({ kind: 'chunk' });
    expect(typeof got[0]!.at).toBe('number');
  });

  it('reports an error object once, however many callers report it', () => {
    const got: ErrorReport[] = [];
    restore = setReportSink((r) => got.push(r));
    const err = new Error('once');
    expect(reportError(err, { kind: 'api' })).not.toBeNull();
    expect(reportError(err, { kind: 'basket' })).toBeNull();
    expect(got.map((r) => r.kind)).toEqual(['api']);
  });

  it('survives a sink that throws', () => {
    restore = setReportSink(() => {
      throw new Error('sink down');
    });
    expect(() => reportError(new Error('x'))).not.toThrow();
  });
});

const report = (over: Partial<ErrorReport> = {}): ErrorReport => ({
  kind: 'api',
  name: 'ApiError',
  message: 'GET /api/orders answered 500',
  fatal: false,
  path: '/basket/',
  at: 1,
  ...over,
});

function collector(over: Partial<CollectorEnv> = {}) {
  const sent: ErrorReportBatch[] = [];
  const c = new ReportCollector({
    crawler: false,
    agent: 'desktop',
    build: () => '20261126T231136Z-bd33f6',
    user: () => undefined,
    send: (body) => {
      sent.push(JSON.parse(body) as ErrorReportBatch);
      return true;
    },
    ...over,
  });
  return { c, sent };
}

describe('ReportCollector', () => {
  it('batches reports until flushed, with the build, agent and user hash', () => {
    const { c, sent } = collector({ user: () => 'a'.repeat(64), agent: 'phone' });
    c.add(report({ statusCode: 500 }));
    c.add(report({ kind: 'chunk', name: 'ChunkLoadError', message: 'Loading chunk 1 failed.' }));
    expect(sent).toHaveLength(0);
    c.flush();
    expect(sent).toEqual([
      {
        build: '20261126T231136Z-bd33f6',
        agent: 'phone',
        user: 'a'.repeat(64),
        reports: [
          { kind: 'api', name: 'ApiError', message: 'GET /api/orders answered 500', path: '/basket/', status: 500, count: 1, at: 1 },
          { kind: 'chunk', name: 'ChunkLoadError', message: 'Loading chunk 1 failed.', path: '/basket/', count: 1, at: 1 },
        ],
      },
    ]);
    c.flush();
    expect(sent).toHaveLength(1); // nothing waiting: nothing sent
  });

  it('leaves the user out when signed out, and a build that is not an id', () => {
    const { c, sent } = collector({ build: () => 'not an id!' });
    c.add(report());
    c.flush();
    expect(sent[0]!.build).toBe('');
    expect(sent[0]).not.toHaveProperty('user');
  });

  it('merges duplicates (kind, name, message and path) into one with a count', () => {
    const { c, sent } = collector();
    for (let i = 0; i < 5; i++) c.add(report());
    c.add(report({ path: '/other/' }));
    c.flush();
    expect(sent[0]!.reports.map((r) => [r.path, r.count])).toEqual([
      ['/basket/', 5],
      ['/other/', 1],
    ]);
  });

  it('holds a count at the endpoint’s 100', () => {
    const { c, sent } = collector();
    for (let i = 0; i < 150; i++) c.add(report());
    c.flush();
    expect(sent[0]!.reports[0]!.count).toBe(100);
  });

  it('sends a full batch of 10 at once, and no more than 10 reports a page view', () => {
    const { c, sent } = collector();
    for (let i = 0; i < 10; i++) c.add(report({ message: `failure ${i}` }));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.reports).toHaveLength(10);
    expect(c.add(report({ message: 'the eleventh' }))).toBe(false);
    c.flush();
    expect(sent).toHaveLength(1);
  });

  it('sends nothing for a crawler', () => {
    const { c, sent } = collector({ crawler: true });
    expect(c.add(report())).toBe(false);
    c.flush();
    expect(sent).toHaveLength(0);
  });

  it('bounds messages, names and paths so the endpoint never refuses one for its length', () => {
    const { c, sent } = collector();
    c.add(report({ name: 'N'.repeat(100), message: `line one\nline\ttwo\u0000\u0007 ${'é'.repeat(400)}`, path: `/cards/${'x'.repeat(300)}?q=1#top` }));
    c.add(report({ message: '\u0001\u0002', name: '' }));
    c.flush();
    const [long, empty] = sent[0]!.reports;
    expect(long!.name).toHaveLength(60);
    expect(long!.message.startsWith('line one line two ')).toBe(true);
    expect(Array.from(long!.message)).toHaveLength(300);
    expect(long!.message).not.toMatch(/[\u0000-\u001f]/);
    expect(long!.path).toHaveLength(200);
    expect(long!.path).not.toMatch(/[?#]/);
    expect(empty).toMatchObject({ name: 'Error', message: 'Error' });
  });

  it('splits a batch whose body would be over 16 KiB', () => {
    const { c, sent } = collector();
    for (let i = 0; i < 10; i++) c.add(report({ message: `${i} ${'😀'.repeat(300)}`, path: `/${'é'.repeat(199)}`, name: '€'.repeat(60) }));
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.flatMap((b) => b.reports)).toHaveLength(10);
    for (const b of sent) expect(new TextEncoder().encode(JSON.stringify(b)).length).toBeLessThanOrEqual(16 * 1024);
  });

  it('leaves out a status outside 100..599', () => {
    const { c, sent } = collector();
    c.add(report({ statusCode: 0 }));
    c.flush();
    expect(sent[0]!.reports[0]).not.toHaveProperty('status');
  });

  it('drops a network failure the page’s going cancelled, and sends one that stood', () => {
    vi.useFakeTimers();
    try {
      const { c, sent } = collector();
      const cancelled = report({ kind: 'basket', name: 'TypeError', message: 'Failed to fetch' });
      c.add(cancelled);
      vi.advanceTimersByTime(NETWORK_HOLD_MS - 1);
      c.flush(); // pagehide: the page was going
      expect(sent).toHaveLength(0);
      vi.advanceTimersByTime(NETWORK_HOLD_MS);
      c.flush();
      expect(sent).toHaveLength(0); // dropped, not sent later
      c.add(report({ kind: 'basket', name: 'TypeError', message: 'Load failed' }));
      vi.advanceTimersByTime(NETWORK_HOLD_MS);
      c.flush();
      expect(sent.map((b) => b.reports.map((r) => r.message))).toEqual([['Load failed']]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells fetch’s network failures from other errors', () => {
    expect(isNetworkFailure({ name: 'TypeError', message: 'Failed to fetch' })).toBe(true);
    expect(isNetworkFailure({ name: 'TypeError', message: 'NetworkError when attempting to fetch resource.' })).toBe(true);
    expect(isNetworkFailure({ name: 'TypeError', message: 'Load failed' })).toBe(true);
    expect(isNetworkFailure({ name: 'TypeError', message: "Cannot read properties of undefined (reading 'name')" })).toBe(false);
    expect(isNetworkFailure({ name: 'ApiError', message: 'Failed to fetch' })).toBe(false);
  });

  it('never throws when the send fails', () => {
    const { c } = collector({
      send: () => {
        throw new Error('gone');
      },
    });
    c.add(report());
    expect(() => c.flush()).not.toThrow();
    expect(c.pending()).toBe(0);
  });
});

describe('watchPageHide', () => {
  function fakeWindow() {
    const handlers = new Map<string, (() => void)[]>();
    const on = (type: string, fn: () => void) => handlers.set(type, [...(handlers.get(type) ?? []), fn]);
    const doc = { visibilityState: 'visible', addEventListener: on };
    const win = { addEventListener: on, document: doc };
    const fire = (type: string) => handlers.get(type)?.forEach((fn) => fn());
    return { win: win as unknown as Window, doc, fire };
  }

  it('flushes with a beacon on pagehide and when the page becomes hidden', () => {
    const { win, doc, fire } = fakeWindow();
    const { c, sent } = collector();
    watchPageHide(win, () => c.flush());
    c.add(report());
    fire('pagehide');
    expect(sent).toHaveLength(1);
    c.add(report({ message: 'later' }));
    fire('visibilitychange'); // still visible: nothing goes
    expect(sent).toHaveLength(1);
    doc.visibilityState = 'hidden';
    fire('visibilitychange');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.reports[0]!.message).toBe('later');
  });
});

describe('the fields', () => {
  it('hashes a uid to 64 lowercase hex (SHA-256)', async () => {
    // SHA-256 of "abc", from FIPS 180-2.
    await expect(hashUid('abc')).resolves.toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('classes a device as phone, tablet or desktop', () => {
    expect(agentOf({ mobile: true, tablet: false })).toBe('phone');
    expect(agentOf({ mobile: false, tablet: true })).toBe('tablet');
    expect(agentOf({ mobile: false, tablet: false })).toBe('desktop');
  });

  it('keeps a path without its query or hash, starting with /', () => {
    expect(boundedPath('/cards/birthday/?page=2#top')).toBe('/cards/birthday/');
    expect(boundedPath('cards/')).toBe('/cards/');
    expect(boundedText('  a \r\n b  ', 10)).toBe('a b');
  });
});
