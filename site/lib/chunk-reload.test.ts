import { describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_GUARD_MS, claimChunkReload, isChunkLoadError } from './chunk-reload';

class MemoryStorage {
  m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
}

describe('isChunkLoadError', () => {
  it.each([
    [Object.assign(new Error('Loading chunk 123 failed.'), { name: 'ChunkLoadError' }), true],
    [new Error('Failed to load chunk /_next/static/chunks/abc.js from module 42'), true],
    [new TypeError('Failed to fetch dynamically imported module: /x.js'), true],
    ['Loading CSS chunk 7 failed', true],
    [new Error('Cannot read properties of undefined'), false],
    [undefined, false],
    [42, false],
  ])('%s -> %s', (reason, want) => {
    expect(isChunkLoadError(reason)).toBe(want);
  });
});

describe('claimChunkReload', () => {
  it('reloads once per 10 s per path', () => {
    const s = new MemoryStorage();
    const t = 1_000_000;
    expect(claimChunkReload(s, '/a/', t)).toBe(true);
    expect(claimChunkReload(s, '/a/', t + 1)).toBe(false);
    expect(claimChunkReload(s, '/a/', t + CHUNK_RELOAD_GUARD_MS - 1)).toBe(false);
    expect(claimChunkReload(s, '/b/', t + 1)).toBe(true); // another path has its own guard
    expect(claimChunkReload(s, '/a/', t + CHUNK_RELOAD_GUARD_MS)).toBe(true);
  });

  it('does not trust a timestamp from the future or garbage', () => {
    const s = new MemoryStorage();
    s.setItem('chunk-reload:/a/', String(5_000_000));
    expect(claimChunkReload(s, '/a/', 1_000_000)).toBe(true);
    s.setItem('chunk-reload:/b/', 'nonsense');
    expect(claimChunkReload(s, '/b/', 1_000_000)).toBe(true);
  });
});

describe('reloadAfterChunkError', () => {
  /** A page load's own copy of the module: whether a reload is under way is per page. */
  const reports: string[] = [];
  const freshModule = async () => {
    vi.resetModules();
    reports.length = 0;
    (await import('./report')).setReportSink((r) => reports.push(r.message));
    return import('./chunk-reload');
  };
  const env = (s: MemoryStorage, at: number) => {
    const reloads: string[] = [];
    return { reloads, env: () => ({ storage: s, path: '/account/dashboard/', now: at, reload: () => reloads.push('reload') }) };
  };

  it('reloads for a failed import of the sign-in SDK, then stays put while the reload is under way', async () => {
    const { reloadAfterChunkError, chunkReloadPending } = await freshModule();
    const s = new MemoryStorage();
    const e = env(s, 1_000_000);
    const sdk = new Error('Failed to load chunk /_next/static/chunks/0f3a.js from module 4581');
    expect(chunkReloadPending()).toBe(false);
    expect(reloadAfterChunkError(sdk, e.env)).toBe('reloading');
    expect(e.reloads).toEqual(['reload']);
    expect(chunkReloadPending()).toBe(true);
    expect(reloadAfterChunkError(sdk, e.env)).toBe('reloading'); // the same failure seen again
    expect(e.reloads).toEqual(['reload']);
    expect(reports).toEqual([sdk.message]);
    expect(s.getItem('chunk-reload:/account/dashboard/')).toBe('1000000');
  });

  it('does not reload twice within 10 s of the same path, and ignores other errors', async () => {
    const { reloadAfterChunkError } = await freshModule();
    const s = new MemoryStorage();
    s.setItem('chunk-reload:/account/dashboard/', String(1_000_000 - 2000)); // reloaded 2 s ago
    const e = env(s, 1_000_000);
    expect(reloadAfterChunkError(new TypeError('Failed to fetch dynamically imported module: /x.js'), e.env)).toBe('guarded');
    expect(reloadAfterChunkError(new Error('Cannot read properties of undefined'), e.env)).toBe('other');
    expect(e.reloads).toEqual([]);
  });
});
