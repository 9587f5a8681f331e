import { afterEach, describe, expect, it } from 'vitest';
import { BuildWatcher } from './build-watch';
import { setReportSink, type ErrorReport } from './report';

describe('BuildWatcher', () => {
  let restore: ReturnType<typeof setReportSink> | undefined;
  afterEach(() => {
    if (restore) setReportSink(restore);
  });

  it('polls latest.json with a timestamp and notices a different build', async () => {
    const urls: string[] = [];
    let id = 'b1';
    const w = new BuildWatcher('b1', async (url) => (urls.push(url), { id, timestamp: 1 }), () => 1234);
    expect(await w.check()).toBe(false);
    id = 'b2';
    expect(await w.check()).toBe(true);
    expect(w.newerId()).toBe('b2');
    expect(urls).toEqual(['/builds/latest.json?t=1234', '/builds/latest.json?t=1234']);
  });

  it('only reports a failed fetch', async () => {
    const got: ErrorReport[] = [];
    restore = setReportSink((r) => got.push(r));
    const w = new BuildWatcher('b1', async () => {
      throw new Error('offline');
    });
    await expect(w.check()).resolves.toBe(false);
    expect(got[0]).toMatchObject({ message: 'offline', fatal: false });
  });
});
