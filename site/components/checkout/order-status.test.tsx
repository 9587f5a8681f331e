import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Order } from '@/lib/checkout';
import { OrderStatus } from './order-status';

const base = {
  id: 'TS-100042',
  placed_at: Date.UTC(2026, 10, 24),
  lines: [],
  goods_ex_vat: 0,
  coupon_discount: 0,
  delivery_charge: 0,
  delivery_vat: 0,
  delivery_option: 'standard',
  net_ex_vat: 0,
  vat: 0,
  total_inc_vat: 0,
  invoice: null,
  credit_notes: [],
  paid_at: null,
  confirmed_at: null,
  dispatched_at: null,
  completed_at: null,
  cancelled_at: null,
  dispatch: null,
  delivery_charge_credited: 0,
  delivery_charge_left: 0,
  kind: '',
  companion: '',
  no_backorders: false,
  forward_of: '',
  receipt: '',
  payment: { state: 'awaiting', failure: null, can_pay_now: false, card_refunds: [] },
} satisfies Omit<Order, 'status'>;
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe("the buyer's order status", () => {
  it('reads an order from before the back office as placed', () => {
    expect(text(renderToStaticMarkup(<OrderStatus order={{ ...base, status: 'placed' }} />))).toBe('Status: Placed');
  });

  it('says when and how a dispatched order went out', () => {
    const html = renderToStaticMarkup(
      <OrderStatus order={{ ...base, status: 'dispatched', dispatched_at: Date.UTC(2026, 11, 3, 9), dispatch: { carrier: 'DPD', tracking: '15501234' } }} />,
    );
    expect(text(html)).toBe('Status: Dispatched Dispatched on 3 December 2026 by DPD, tracking reference 15501234 .');
  });

  it('says plainly that a cancelled (or cancelling) order is cancelled, with the date and reason', () => {
    const html = renderToStaticMarkup(
      <OrderStatus order={{ ...base, status: 'cancelled', cancelled_at: Date.UTC(2026, 11, 4, 9), cancel_reason: 'Out of stock' }} />,
    );
    expect(text(html)).toBe('This order has been cancelled (4 December 2026). Nothing will be sent. Reason: Out of stock');
    expect(text(renderToStaticMarkup(<OrderStatus order={{ ...base, status: 'cancelling' }} />))).toMatch(/^This order has been cancelled\./);
  });
});
