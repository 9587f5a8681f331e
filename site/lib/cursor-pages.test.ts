import { describe, expect, it } from 'vitest';
import { cursorOf, firstPage, pageAfter, pageBefore, readTrail, writeTrail } from './cursor-pages';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
};

describe('a cursor trail', () => {
  it('goes forward by the next cursor and back by the ones seen', () => {
    let t = firstPage();
    expect(cursorOf(t)).toBeNull();
    t = pageAfter(t, 'c2');
    t = pageAfter(t, 'c3');
    expect(cursorOf(t)).toBe('c3');
    t = pageBefore(t);
    expect(cursorOf(t)).toBe('c2');
    // Forward again from page 2 replaces what lay beyond it.
    t = pageAfter(t, 'c3b');
    expect(t).toEqual({ cursors: [null, 'c2', 'c3b'], at: 2 });
    expect(pageBefore(pageBefore(pageBefore(t)))).toEqual({ cursors: [null, 'c2', 'c3b'], at: 0 });
  });

  it('is kept per list and read back; anything else is the first page', () => {
    const s = memory();
    const t = pageAfter(firstPage(), 'abc');
    writeTrail(s, 'orders|placed|', t);
    expect(readTrail(s, 'orders|placed|')).toEqual(t);
    expect(readTrail(s, 'orders||')).toEqual(firstPage());
    for (const bad of ['nonsense', '{"cursors":["x"],"at":0}', '{"cursors":[null],"at":1}', '{"cursors":[null,5],"at":1}', '{"cursors":[],"at":0}']) {
      s.m.set('admin:pages:bad', bad);
      expect(readTrail(s, 'bad'), bad).toEqual(firstPage());
    }
    expect(readTrail(undefined, 'x')).toEqual(firstPage());
  });

  it('survives a storage that throws', () => {
    const throwing = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    };
    expect(readTrail(throwing, 'x')).toEqual(firstPage());
    expect(() => writeTrail(throwing, 'x', firstPage())).not.toThrow();
  });
});
