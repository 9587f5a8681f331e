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
    const w = new BuildWatcher(
      'b1',
      async (url) => (urls.push(url), { id, timestamp: 1 }),
      () => 1234,
    );
    expect(await w.check()).toBe(false);
    id = 'b2';
    expect(await w.check()).toBe(true);
    expect(w.newerId()).toBe('b2');
    expect(urls).toEqual(['/builds/latest.json?t=1234', '/builds/latest.json?t=1234']);
  });

  it('takes its baseline from the first answer when the page does not name its build', async () => {
    let id = 'b1';
    const w = new BuildWatcher(null, async () => ({ id, timestamp: 1 }));
    expect(w.currentId()).toBeNull();
    expect(await w.check()).toBe(false);
    expect(w.currentId()).toBe('b1');
    expect(await w.check()).toBe(false);
    id = 'b2';
    expect(await w.check()).toBe(true);
    expect(w.newerId()).toBe('b2');
    expect(w.currentId()).toBe('b1');
  });

  it('a failed first answer leaves no baseline; the next answer sets it', async () => {
    restore = setReportSink(() => undefined);
    let fail = true;
    const w = new BuildWatcher(null, async () => {
      if (fail) throw new Error('offline');
      return { id: 'b7', timestamp: 1 };
    });
    expect(await w.check()).toBe(false);
    expect(w.currentId()).toBeNull();
    fail = false;
    expect(await w.check()).toBe(false);
    expect(w.currentId()).toBe('b7');
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
