import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Order, OrderPayment, PaymentState } from '@/lib/checkout';
import { PaymentStatus } from './payment-status';

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
  status: 'placed',
  billing: {
    company: 'C',
    contact: 'J',
    address: { line1: '1', line2: '', town: 'T', postcode: 'EX1 2AB' },
    vat_number: '',
    po_ref: '',
    payment_method: 'card',
  },
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
} satisfies Order;
const payment = (state: PaymentState, more: Partial<OrderPayment> = {}): OrderPayment => ({
  state,
  failure: null,
  can_pay_now: false,
  card_refunds: [],
  ...more,
});
const render = (o: Order, returning = false) => renderToStaticMarkup(<PaymentStatus order={o} returning={returning} />);
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('the payment line on the buyer’s pages, per state', () => {
  it('paid by card: a live line saying when, and no Pay now', () => {
    const html = render({ ...base, paid_at: Date.UTC(2026, 11, 3, 10), payment: payment('paid') });
    expect(html).toContain('role="status"');
    expect(text(html)).toBe('Paid by card on 3 December 2026');
  });

  it('awaiting: Pay now, a real button, when the server offers it', () => {
    const html = render({ ...base, payment: payment('awaiting', { can_pay_now: true }) });
    expect(text(html)).toBe('Awaiting payment Pay now');
    expect(html).toMatch(/<button type="button" class="button pay-now"[^>]*>Pay now<\/button>/);
    expect(text(render({ ...base, payment: payment('awaiting') }))).toBe('Awaiting payment');
  });

  it('pending: waiting for the confirmation, no Pay now', () => {
    expect(text(render({ ...base, payment: payment('pending', { can_pay_now: true }) }))).toBe('We are waiting for the card payment to be confirmed.');
  });

  it('failed: why, and Pay now', () => {
    const html = render({ ...base, payment: payment('failed', { failure: 'Your card was declined.', can_pay_now: true }) });
    expect(text(html)).toBe('Payment failed: Your card was declined. Pay now');
    expect(html).toContain('payment-failed');
  });

  it('abandoned: not finished, and Pay now', () => {
    expect(text(render({ ...base, payment: payment('abandoned', { can_pay_now: true }) }))).toBe('The card payment was not finished. Pay now');
  });

  it('back from the payment page (?paid=1): pending until the order says paid', () => {
    expect(text(render({ ...base, payment: payment('awaiting', { can_pay_now: true }) }, true))).toBe('We are waiting for the card payment to be confirmed.');
  });

  it('on account and unpaid: nothing', () => {
    expect(render({ ...base, billing: { ...base.billing, payment_method: 'account' }, payment: payment('none') })).toBe('');
  });

  it('a cancelled paid order: paid, and each refund to the card with where it is', () => {
    const refunds = [
      { id: 'REF-000000000001', amount: 12000, status: 'pending' as const, failure: null, recorded_at: Date.UTC(2026, 11, 4) },
      { id: 'REF-000000000002', amount: 345, status: 'succeeded' as const, failure: null, recorded_at: Date.UTC(2026, 11, 4) },
    ];
    const html = render({ ...base, status: 'cancelled', paid_at: Date.UTC(2026, 11, 3), payment: payment('paid', { card_refunds: refunds }) });
    expect(text(html)).toBe(
      'Paid by card on 3 December 2026 Refund of £120.00 to your card: pending Refund of £3.45 to your card: issued (5 to 10 working days)',
    );
  });
});
