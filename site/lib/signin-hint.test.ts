import { describe, expect, it } from 'vitest';
import { SIGNIN_HINT_ATTR, SIGNIN_HINT_KEY, SIGNIN_HINT_SCRIPT, hasSignInHint, writeSignInHint, type HintStorage } from './signin-hint';

class MemoryStorage implements HintStorage {
  m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
}

const broken: HintStorage = {
  getItem() {
    throw new Error('SecurityError: storage is disabled');
  },
  setItem() {
    throw new Error('QuotaExceededError');
  },
};

describe('sign-in hint', () => {
  it('is set only after the SDK reported a signed-in user', () => {
    const s = new MemoryStorage();
    expect(hasSignInHint(s)).toBe(false); // first visit: no hint
    writeSignInHint(s, true);
    expect(s.getItem(SIGNIN_HINT_KEY)).toBe('1');
    expect(hasSignInHint(s)).toBe(true);
    writeSignInHint(s, false);
    expect(s.getItem(SIGNIN_HINT_KEY)).toBe('0');
    expect(hasSignInHint(s)).toBe(false);
    s.setItem(SIGNIN_HINT_KEY, 'garbage');
    expect(hasSignInHint(s)).toBe(false);
  });

  it('storage that throws, or none, counts as no hint and is never fatal', () => {
    expect(hasSignInHint(broken)).toBe(false);
    expect(hasSignInHint(undefined)).toBe(false);
    expect(() => writeSignInHint(broken, true)).not.toThrow();
    expect(() => writeSignInHint(undefined, true)).not.toThrow();
  });
});

describe('the inline hint script', () => {
  /** Runs the script as the page's <head> would, against a storage and a bare <html>. */
  function run(storage: HintStorage) {
    const attrs = new Map<string, string>();
    const documentElement = { setAttribute: (k: string, v: string) => attrs.set(k, v) };
    new Function('localStorage', 'document', SIGNIN_HINT_SCRIPT)(storage, { documentElement });
    return attrs;
  }

  it('marks <html> only when the hint says signed in', () => {
    const s = new MemoryStorage();
    expect(run(s).has(SIGNIN_HINT_ATTR)).toBe(false);
    writeSignInHint(s, false);
    expect(run(s).has(SIGNIN_HINT_ATTR)).toBe(false);
    writeSignInHint(s, true);
    expect(run(s).has(SIGNIN_HINT_ATTR)).toBe(true);
  });

  it('does not throw when storage is blocked (the links then show)', () => {
    expect(() => run(broken)).not.toThrow();
    expect(run(broken).has(SIGNIN_HINT_ATTR)).toBe(false);
  });

  it('reads the same key the provider writes', () => {
    expect(SIGNIN_HINT_SCRIPT).toContain(JSON.stringify(SIGNIN_HINT_KEY));
    expect(SIGNIN_HINT_SCRIPT).toContain(JSON.stringify(SIGNIN_HINT_ATTR));
  });
});
