import { describe, expect, it } from 'vitest';
import { validateRoute } from './route-validation';

describe('validateRoute', () => {
  it.each([
    ['/outlet/section/value-cards/120/', 'valid'],
    ['/outlet/section/value-cards/abc/', 'invalid'],
    ['/outlet/section/Value Cards/120/', 'invalid'],
    ['/outlet/r/wholesale_balloons/', 'valid'],
    ['/outlet/r/<script>/', 'invalid'],
    ['/checkout/complete/TS-100234/', 'valid'],
    ['/checkout/complete/x/', 'invalid'],
    ['/no/such/page/', 'unknown'],
  ])('%s is %s', (path, want) => {
    expect(validateRoute(path)).toBe(want);
  });
});
