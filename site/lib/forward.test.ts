import { describe, expect, it } from 'vitest';
import { preOrderOpen, preOrderText } from './forward';

const f = { delivery_from: '2027-09-01', order_by: '2027-06-30' };

describe('preOrderOpen', () => {
  it('is open up to and including the order-by day, London time', () => {
    expect(preOrderOpen(f, '2027-06-29')).toBe(true);
    expect(preOrderOpen(f, '2027-06-30')).toBe(true);
    expect(preOrderOpen(f, '2027-07-01')).toBe(false);
  });
  it('holds the build view (open) until the browser knows the day', () => {
    expect(preOrderOpen(f, null)).toBe(true);
  });
  it('is never open for an ordinary product or a marking without a real date', () => {
    expect(preOrderOpen(null, '2027-01-01')).toBe(false);
    expect(preOrderOpen(undefined, null)).toBe(false);
    expect(preOrderOpen({ ...f, order_by: '2027-02-30' }, '2027-01-01')).toBe(false);
  });
});

describe('preOrderText', () => {
  it('says when to order and when it comes while open, in stock or not', () => {
    const open = ['Pre-order for delivery from 1 September 2027', 'Order by 30 June 2027'];
    expect(preOrderText(f, '2027-06-30', false)).toEqual(open);
    expect(preOrderText(f, '2027-01-15', true)).toEqual(open);
  });
  it('after the order-by day says pre-orders closed when out of stock, else nothing (the stock shows)', () => {
    expect(preOrderText(f, '2027-07-01', false)).toEqual(['Pre-orders closed on 30 June 2027']);
    expect(preOrderText(f, '2027-07-01', true)).toBeNull();
  });
  it('says nothing of an ordinary product', () => {
    expect(preOrderText(null, '2027-07-01', false)).toBeNull();
  });
  it('reads the day in London, whatever the order-by day is in winter or summer', () => {
    expect(preOrderText({ delivery_from: '2028-01-03', order_by: '2027-12-31' }, '2027-12-01', false)).toEqual([
      'Pre-order for delivery from 3 January 2028',
      'Order by 31 December 2027',
    ]);
  });
});
