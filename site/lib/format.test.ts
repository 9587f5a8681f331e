import { describe, expect, it } from 'vitest';
import { formatPence, unitPriceLabel } from './format';

describe('formatPence', () => {
  it.each([
    [0, '£0.00'],
    [19, '£0.19'],
    [100, '£1.00'],
    [105, '£1.05'],
    [123456, '£1,234.56'],
    [-250, '-£2.50'],
  ])('%i pence is %s', (pence, text) => {
    expect(formatPence(pence)).toBe(text);
  });

  it('refuses fractions of a penny', () => {
    expect(() => formatPence(1.5)).toThrow(RangeError);
  });
});

describe('unitPriceLabel', () => {
  it('shows value cards in £ and as 19p', () => {
    expect(unitPriceLabel(19)).toBe('£0.19 each (19p)');
  });
  it('shows pounds from £1', () => {
    expect(unitPriceLabel(125)).toBe('£1.25 each');
  });
});
