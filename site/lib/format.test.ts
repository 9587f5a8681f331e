import { describe, expect, it } from 'vitest';
import { decimalPrice, formatPence, formatUkDate, formatUkDateTime, parsePounds, unitPriceLabel } from './format';

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

describe('parsePounds', () => {
  it.each([
    ['250', 25000],
    ['49.9', 4990],
    ['49.99', 4999],
    ['0.29', 29],
    ['.5', 50],
    ['12.', 1200],
    ['£1,234.56', 123456],
    ['  £ 2000 ', 200000],
    ['0', 0],
    ['007.10', 710],
    ['1,000,000', 100000000],
  ])('%j is %i pence', (text, pence) => {
    expect(parsePounds(text)).toBe(pence);
  });

  it.each(['', ' ', '.', '-5', '1.234', '12,34', '1,2345', 'abc', '5p', '1e3', '£', '12.5.0', '99999999999999'])('%j is not an amount', (text) => {
    expect(parsePounds(text)).toBeNull();
  });

  it('gives back what decimalPrice wrote', () => {
    for (const pence of [0, 1, 19, 100, 4999, 123456]) expect(parsePounds(decimalPrice(pence))).toBe(pence);
  });
});

describe('formatUkDateTime', () => {
  it('is the time on UK clocks', () => {
    expect(formatUkDateTime(Date.UTC(2026, 5, 30, 23, 30))).toBe('1 July 2026 at 00:30');
    expect(formatUkDateTime(Date.UTC(2026, 11, 1, 9, 5))).toBe('1 December 2026 at 09:05');
  });
});
