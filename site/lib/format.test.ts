import { describe, expect, it } from 'vitest';
import { formatPence, formatUkDate, unitPriceLabel } from './format';

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

describe('formatUkDate', () => {
  it('gives the date in words as it falls in London, in winter (GMT) and in summer (BST)', () => {
    expect(formatUkDate(Date.UTC(2025, 11, 31, 23, 59, 59))).toBe('31 December 2025');
    // 23:30 UTC on 30 June is 00:30 on 1 July in London.
    expect(formatUkDate(Date.UTC(2026, 5, 30, 23, 30))).toBe('1 July 2026');
  });
});
