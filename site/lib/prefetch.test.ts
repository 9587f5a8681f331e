import { describe, expect, it } from 'vitest';
import { payloadURL, prefetchAllowed } from './prefetch';

describe('prefetch', () => {
  it.each([
    [undefined, true],
    [{ effectiveType: '4g' }, true],
    [{ effectiveType: '3g' }, true],
    [{ effectiveType: '2g' }, false],
    [{ effectiveType: 'slow-2g' }, false],
    [{ effectiveType: '4g', saveData: true }, false],
  ])('connection %j allowed: %s', (c, want) => {
    expect(prefetchAllowed(c)).toBe(want);
  });

  it.each([
    ['/outlet/r/wholesale_balloons/', '/outlet/r/wholesale_balloons/_payload.json?b1'],
    ['/help/faq', '/help/faq/_payload.json?b1'],
    ['/', '/_payload.json?b1'],
    ['/account/dashboard/', null],
    ['/admin/orders/', null],
    ['/checkout/basket/', null],
    ['/search/', null],
    ['/robots.txt', null],
  ])('%s -> %s', (path, want) => {
    expect(payloadURL(path, 'b1')).toBe(want);
  });
});
