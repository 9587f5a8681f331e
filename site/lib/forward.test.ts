import { describe, expect, it } from 'vitest';
import { londonToday, longDate, orderByText, preOrderOpen, preOrderText, preOrdersClosedText } from './forward';

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
