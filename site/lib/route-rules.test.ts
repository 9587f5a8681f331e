import { describe, expect, it } from 'vitest';
import { applyRules, normalisePath, withTrailingSlash, type Manifest } from './route-rules';

const manifest: Manifest = {
  id: 'b1',
  timestamp: 1,
  redirects: [
    { source: '/christmas/', target: '/outlet/r/wholesale-christmas/', status: 301 },
    { source: '/feedback/', target: 'https://survey.example.com/f', status: 302 },
    { source: '/promo/', target: '/outlet/r/wholesale_balloons/?utm=promo', status: 302 },
  ],
};

describe('route rules', () => {
  it.each([
    ['/christmas/', '', { href: '/outlet/r/wholesale-christmas/', external: false }],
    ['/christmas', '?ref=ad', { href: '/outlet/r/wholesale-christmas/?ref=ad', external: false }],
    ['/feedback/', '?x=1', { href: 'https://survey.example.com/f', external: true }],
    ['/promo/', '?x=1', { href: '/outlet/r/wholesale_balloons/?utm=promo', external: false }],
    ['/christmas/cards/', '', null],
    ['/', '', null],
  ])('%s%s', (path, search, want) => {
    expect(applyRules(manifest, path, search)).toEqual(want);
  });

  it('matches nothing without a manifest', () => {
    expect(applyRules(null, '/christmas/')).toBeNull();
  });

  it('normalises directory paths only', () => {
    expect(normalisePath('/a/b')).toBe('/a/b/');
    expect(normalisePath('/a/b/')).toBe('/a/b/');
    expect(normalisePath('/builds/latest.json')).toBe('/builds/latest.json');
  });

  it.each([
    ['/outlet/r/x', '/outlet/r/x/'],
    ['/search?q=a/b', '/search/?q=a/b'],
    ['/help/faq#delivery', '/help/faq/#delivery'],
    ['/', '/'],
    ['https://example.com/a', 'https://example.com/a'],
    ['//cdn.example.com/a', '//cdn.example.com/a'],
    ['/robots.txt', '/robots.txt'],
  ])('withTrailingSlash(%s)', (href, want) => {
    expect(withTrailingSlash(href)).toBe(want);
  });
});
