import { describe, expect, it } from 'vitest';
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
