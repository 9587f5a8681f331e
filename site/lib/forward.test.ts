import { describe, expect, it } from 'vitest';
import { londonToday, longDate, orderByText, preOrderLines, preOrderOpen, preOrderOpenOn, preOrderText, preOrdersClosedText } from './forward';

describe('forward dates', () => {
  it('writes ISO dates as sentences do', () => {
    expect(longDate('2027-09-01')).toBe('1 September 2027');
    expect(longDate('2027-12-25')).toBe('25 December 2027');
    expect(longDate('not a date')).toBe('not a date');
    expect(preOrderText('2027-09-01')).toBe('Pre-order for delivery from 1 September 2027');
    expect(orderByText('2027-06-30')).toBe('Order by 30 June 2027');
    expect(preOrdersClosedText('2027-06-30')).toBe('Pre-orders closed on 30 June 2027');
  });

  it("takes London's date, not the browser's", () => {
    // 23:30 UTC on 14 June 2027 is 00:30 on 15 June in London (BST).
    expect(londonToday(new Date(Date.UTC(2027, 5, 14, 23, 30)))).toBe('2027-06-15');
    // 23:30 UTC on 14 January is still 14 January in London (GMT).
    expect(londonToday(new Date(Date.UTC(2027, 0, 14, 23, 30)))).toBe('2027-01-14');
  });

  it('is open up to and including the order-by date', () => {
    const f = { delivery_from: '2027-09-01', order_by: '2027-06-14' };
    expect(preOrderOpen(f, new Date(Date.UTC(2027, 5, 14, 12)))).toBe(true);
    expect(preOrderOpen(f, new Date(Date.UTC(2027, 5, 14, 23, 30)))).toBe(false);
    expect(preOrderOpen(null)).toBe(false);
  });
});

const f = { delivery_from: '2027-09-01', order_by: '2027-06-30' };

describe('preOrderOpenOn', () => {
  it('is open up to and including the order-by day', () => {
    expect(preOrderOpenOn(f, '2027-06-29')).toBe(true);
    expect(preOrderOpenOn(f, '2027-06-30')).toBe(true);
    expect(preOrderOpenOn(f, '2027-07-01')).toBe(false);
  });
  it('holds the build view (open) until the browser knows the day', () => {
    expect(preOrderOpenOn(f, null)).toBe(true);
  });
  it('is never open for an ordinary product', () => {
    expect(preOrderOpenOn(null, '2027-01-01')).toBe(false);
    expect(preOrderOpenOn(undefined, null)).toBe(false);
  });
});

describe('preOrderLines', () => {
  it('says when to order and when it comes while open, in stock or not', () => {
    const open = ['Pre-order for delivery from 1 September 2027', 'Order by 30 June 2027'];
    expect(preOrderLines(f, '2027-06-30', false)).toEqual(open);
    expect(preOrderLines(f, '2027-01-15', true)).toEqual(open);
  });
  it('after the order-by day says pre-orders closed when out of stock, else nothing (the stock shows)', () => {
    expect(preOrderLines(f, '2027-07-01', false)).toEqual(['Pre-orders closed on 30 June 2027']);
    expect(preOrderLines(f, '2027-07-01', true)).toBeNull();
  });
  it('says nothing of an ordinary product', () => {
    expect(preOrderLines(null, '2027-07-01', false)).toBeNull();
  });
});
