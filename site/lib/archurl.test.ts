import { describe, expect, it } from 'vitest';
import { archUrlCookie, forgetPage, readArchUrl, rememberPage, remembersPage, type CookieJar } from './archurl';

describe('archUrl', () => {
  it.each([
    ['/account/login/', false],
    ['/account/login', false],
    ['/account/register/', false],
    ['/account/password_reset/', false],
    ['/account/logout/', false],
    ['/account/dashboard/', true],
    ['/outlet/r/wholesale_balloons/', true],
    ['/', true],
    ['/checkout/basket/', true],
  ])('%s remembered: %s', (path, want) => {
    expect(remembersPage(path)).toBe(want);
  });

  it('writes path and query, encoded, site-wide', () => {
    expect(archUrlCookie('/search/', '?q=birthday cards')).toBe('archUrl=%2Fsearch%2F%3Fq%3Dbirthday%20cards; Path=/; Max-Age=2592000; SameSite=Lax');
    expect(archUrlCookie('/account/login/')).toBeNull();
  });

  it('reads it back, and refuses anything but a site path', () => {
    expect(readArchUrl('a=1; archUrl=%2Fsearch%2F%3Fq%3Dx; b=2')).toBe('/search/?q=x');
    expect(readArchUrl('archUrl=https%3A%2F%2Fevil.example%2F')).toBeNull();
    expect(readArchUrl('archUrl=%2F%2Fevil.example%2F')).toBeNull();
    expect(readArchUrl('archUrl=%E0%A4%A')).toBeNull();
    expect(readArchUrl('other=1')).toBeNull();
  });

  it('refuses a path a browser would read as another site: a backslash, a tab or newline, an encoded one', () => {
    for (const evil of ['/\\evil.example/', '/\t/evil.example/', '/\n/evil.example/', '\\\\evil.example/', '/\\/evil.example/', '/\r\n/evil.example/']) {
      expect(readArchUrl(`archUrl=${encodeURIComponent(evil)}`, 'https://shop.example'), JSON.stringify(evil)).toBeNull();
    }
    expect(readArchUrl('archUrl=%2Forders%2F%3Fid%3DTS-1', 'https://shop.example')).toBe('/orders/?id=TS-1');
  });

  it('marks the cookie Secure behind HTTPS only', () => {
    const before = (globalThis as { location?: unknown }).location;
    try {
      (globalThis as { location?: unknown }).location = { protocol: 'https:' };
      expect(archUrlCookie('/search/')).toMatch(/; SameSite=Lax; Secure$/);
      (globalThis as { location?: unknown }).location = { protocol: 'http:' };
      expect(archUrlCookie('/search/')).not.toMatch(/Secure/);
    } finally {
      (globalThis as { location?: unknown }).location = before;
    }
  });
});

/** A cookie jar that behaves like document.cookie for one cookie name: writing sets or
 * (Max-Age=0) deletes it, reading gives "name=value" pairs. */
function jar(initial?: string): CookieJar & { value: () => string | undefined } {
  const m = new Map<string, string>();
  if (initial) m.set('archUrl', encodeURIComponent(initial));
  return {
    get cookie() {
      return [...m].map(([k, v]) => `${k}=${v}`).join('; ');
    },
    set cookie(c: string) {
      const [pair] = c.split(';');
      const [k, v] = pair!.split('=');
      if (/Max-Age=0\b/.test(c)) m.delete(k!);
      else m.set(k!, v!);
    },
    value: () => (m.has('archUrl') ? decodeURIComponent(m.get('archUrl')!) : undefined),
  };
}

describe('rememberPage', () => {
  it('follows a change of query alone (paging)', () => {
    const j = jar();
    rememberPage(j, '/outlet/section/value-cards/120/', '', false);
    rememberPage(j, '/outlet/section/value-cards/120/', '?page=2', false);
    expect(j.value()).toBe('/outlet/section/value-cards/120/?page=2');
  });

  it('never remembers a 404 or an excluded page', () => {
    const j = jar('/help/faq/');
    rememberPage(j, '/no-such-page/', '', true);
    rememberPage(j, '/account/login/', '', false);
    expect(j.value()).toBe('/help/faq/');
  });

  it('forgets a page that turned out to be a 404 after it was remembered, going back to the page before', () => {
    const j = jar('/help/faq/');
    rememberPage(j, '/checkout/complete/abc/', '?x=1', false);
    expect(j.value()).toBe('/checkout/complete/abc/?x=1');
    forgetPage(j, '/checkout/complete/abc/', '?x=1');
    expect(j.value()).toBe('/help/faq/');
    // With no page before, the cookie goes.
    const k = jar();
    rememberPage(k, '/checkout/complete/abc/', '', false);
    forgetPage(k, '/checkout/complete/abc/', '');
    expect(k.value()).toBeUndefined();
  });

  it('forgetting another page changes nothing', () => {
    const j = jar('/help/faq/');
    rememberPage(j, '/outlet/r/wholesale_balloons/', '', false);
    forgetPage(j, '/no-such-page/', '');
    expect(j.value()).toBe('/outlet/r/wholesale_balloons/');
  });
});
