import { describe, expect, it } from 'vitest';
import { deliveryWindowText, lineStateText, orderByText } from './forward-orders';

const line = (state: string, ordered: number, allocated: number, backordered: number, cancelled: number) => ({
  state,
  ordered_packs: ordered,
  allocated_packs: allocated,
  backordered_packs: backordered,
  cancelled_packs: cancelled,
});

describe('lineStateText', () => {
  it.each([
    [line('ordered', 5, 0, 0, 0), 'Ordered'],
    [line('ordered', 5, 0, 0, 2), 'Ordered 3 packs (2 packs cancelled)'],
    [line('allocated', 5, 3, 0, 2), 'Allocated 3 of 5 packs (2 packs cancelled)'],
    [line('allocated', 5, 5, 0, 0), 'Allocated 5 of 5 packs'],
    [line('backordered', 5, 0, 5, 0), 'Backordered 5 packs'],
    [line('backordered', 5, 3, 2, 0), 'Allocated 3 of 5 packs, backordered 2 packs'],
    [line('backordered', 2, 1, 1, 0), 'Allocated 1 of 2 packs, backordered 1 pack'],
    [line('cancelled', 5, 0, 0, 5), 'Cancelled'],
  ])('%o reads %s', (l, want) => {
    expect(lineStateText(l)).toBe(want);
  });
});

describe('deliveryWindowText and orderByText', () => {
  it('says one date, or the window of several', () => {
    expect(deliveryWindowText({ delivery_from: '2027-09-01', delivery_to: '2027-09-01' })).toBe('from 1 September 2027');
    expect(deliveryWindowText({ delivery_from: '2027-09-01', delivery_to: '2027-10-01' })).toBe('from 1 September 2027 to 1 October 2027');
    expect(deliveryWindowText({ delivery_from: '', delivery_to: '' })).toBe('');
  });
  it('says the order-by date while the line can change, and that pre-orders closed after it', () => {
    expect(orderByText({ order_by: '2027-06-30', can_change: true, open_packs: 2 })).toBe('Order by 30 June 2027');
    expect(orderByText({ order_by: '2027-06-30', can_change: false, open_packs: 2 })).toBe('Pre-orders closed on 30 June 2027');
    expect(orderByText({ order_by: '2027-06-30', can_change: false, open_packs: 0 })).toBe('');
  });
});
