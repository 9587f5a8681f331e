import { describe, expect, it } from 'vitest';
import { archUrlCookie, readArchUrl, remembersPage } from './archurl';

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
    expect(archUrlCookie('/search/', '?q=birthday cards')).toBe(
      'archUrl=%2Fsearch%2F%3Fq%3Dbirthday%20cards; Path=/; Max-Age=2592000; SameSite=Lax',
    );
    expect(archUrlCookie('/account/login/')).toBeNull();
  });

  it('reads it back, and refuses anything but a site path', () => {
    expect(readArchUrl('a=1; archUrl=%2Fsearch%2F%3Fq%3Dx; b=2')).toBe('/search/?q=x');
    expect(readArchUrl('archUrl=https%3A%2F%2Fevil.example%2F')).toBeNull();
    expect(readArchUrl('archUrl=%2F%2Fevil.example%2F')).toBeNull();
    expect(readArchUrl('archUrl=%E0%A4%A')).toBeNull();
    expect(readArchUrl('other=1')).toBeNull();
  });
});
