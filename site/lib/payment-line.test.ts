import { describe, expect, it } from 'vitest';
import type { OrderPaymentAnswer, PaymentState } from './card-payment-types';
import { formatUkDateTime } from './format';
import { cardRefundLine, paymentLine, paymentSettled, staffCardRefundText, staffPaymentText, type PaymentFacts } from './payment-line';

const payment = (state: PaymentState, more: Partial<OrderPaymentAnswer> = {}): OrderPaymentAnswer => ({
  state,
  failure: null,
  can_pay_now: false,
  card_refunds: [],
  ...more,
});
const card = (p: OrderPaymentAnswer, more: Partial<PaymentFacts> = {}): PaymentFacts => ({
  status: 'placed',
  paid_at: null,
  billing: {
    company: 'C',
    contact: 'J',
    address: { line1: '1', line2: '', town: 'T', postcode: 'EX1 2AB' },
    vat_number: '',
    po_ref: '',
    payment_method: 'card',
  },
  payment: p,
  ...more,
});

describe('the buyer’s payment line, per state', () => {
  it('paid by card says when; paid otherwise says paid; no Pay now', () => {
    expect(paymentLine(card(payment('paid'), { paid_at: Date.UTC(2026, 11, 3, 10) }))).toEqual({
      kind: 'paid',
      text: 'Paid by card on 3 December 2026',
      payNow: false,
    });
    const bank = card(payment('paid', { can_pay_now: true }), { paid_at: Date.UTC(2026, 11, 3, 10) });
    expect(paymentLine({ ...bank, billing: { ...bank.billing!, payment_method: 'proforma' } })).toEqual({ kind: 'paid', text: 'Paid', payNow: false });
  });

  it('awaiting payment offers Pay now when the server says so', () => {
    expect(paymentLine(card(payment('awaiting', { can_pay_now: true })))).toEqual({ kind: 'awaiting', text: 'Awaiting payment', payNow: true });
    expect(paymentLine(card(payment('awaiting')))?.payNow).toBe(false);
  });

  it('pending waits for the confirmation, without Pay now; late says to reload', () => {
    expect(paymentLine(card(payment('pending', { can_pay_now: true })))).toEqual({
      kind: 'pending',
      text: 'We are waiting for the card payment to be confirmed.',
      payNow: false,
    });
    expect(paymentLine(card(payment('pending')), { late: true })?.text).toMatch(/taking longer than usual: reload this page/);
  });

  it('failed says why, in Stripe’s words, with Pay now', () => {
    expect(paymentLine(card(payment('failed', { failure: 'Your card was declined.', can_pay_now: true })))).toEqual({
      kind: 'failed',
      text: 'Payment failed: Your card was declined.',
      payNow: true,
    });
    expect(paymentLine(card(payment('failed')))?.text).toBe('Payment failed.');
  });

  it('abandoned says the payment was not finished, with Pay now', () => {
    expect(paymentLine(card(payment('abandoned', { can_pay_now: true })))).toEqual({
      kind: 'abandoned',
      text: 'The card payment was not finished.',
      payNow: true,
    });
  });

  it('says nothing of an order on account not paid yet, nor of a cancelled order not paid', () => {
    expect(paymentLine(card(payment('none')))).toBeNull();
    expect(paymentLine(card(payment('awaiting', { can_pay_now: true }), { status: 'cancelled' }))).toBeNull();
    expect(paymentLine(card(payment('failed'), { status: 'cancelling' }))).toBeNull();
  });

  it('reads an order answered before card payments by its paid_at', () => {
    expect(paymentLine(card(undefined as unknown as OrderPaymentAnswer, { paid_at: Date.UTC(2026, 11, 3), payment: undefined }))?.kind).toBe('paid');
    expect(paymentLine({ status: 'placed', paid_at: null })).toBeNull();
  });

  it('back from the payment page (?paid=1) it is pending until the order says paid or failed', () => {
    for (const state of ['awaiting', 'pending', 'abandoned'] as const) {
      const o = card(payment(state, { can_pay_now: true }));
      expect(paymentLine(o, { returning: true })).toMatchObject({ kind: 'pending', payNow: false });
      expect(paymentSettled(o, true)).toBe(false);
    }
    expect(paymentLine(card(payment('paid'), { paid_at: Date.UTC(2026, 11, 3) }), { returning: true })?.kind).toBe('paid');
    expect(paymentLine(card(payment('failed', { failure: 'Declined.' })), { returning: true })?.kind).toBe('failed');
    expect(paymentSettled(card(payment('failed')), true)).toBe(true);
  });

  it('a page stops waiting once the state is not pending', () => {
    expect(paymentSettled(card(payment('pending')), false)).toBe(false);
    for (const state of ['paid', 'awaiting', 'failed', 'abandoned', 'none'] as const) expect(paymentSettled(card(payment(state)), false)).toBe(true);
  });
});

describe('card refunds', () => {
  const refund = { id: 'REF-0A1B2C3D4E5F', amount: 12345, failure: null, recorded_at: Date.UTC(2026, 11, 3, 10, 15) };

  it('tell the buyer where the refund is and when to expect it', () => {
    expect(cardRefundLine({ ...refund, status: 'pending' })).toBe('Refund of £123.45 to your card: pending');
    expect(cardRefundLine({ ...refund, status: 'succeeded' })).toBe('Refund of £123.45 to your card: issued (5 to 10 working days)');
    expect(cardRefundLine({ ...refund, status: 'failed', failure: 'Card expired' })).toBe('Refund of £123.45 to your card: failed (we will contact you)');
  });

  it('tell staff the status, with Stripe’s reason for a failure', () => {
    const at = formatUkDateTime(refund.recorded_at);
    expect(staffCardRefundText({ ...refund, status: 'succeeded' })).toBe(`REF-0A1B2C3D4E5F £123.45 to the card, succeeded (${at})`);
    expect(staffCardRefundText({ ...refund, status: 'failed', failure: 'Card expired' })).toBe(
      `REF-0A1B2C3D4E5F £123.45 to the card, failed: Card expired (${at})`,
    );
  });
});

describe('the payment as staff read it', () => {
  it('says paid with when, or where the card payment is', () => {
    const paidAt = Date.UTC(2026, 11, 3, 10, 15);
    expect(staffPaymentText({ paid_at: paidAt, payment: payment('paid') })).toBe(`paid ${formatUkDateTime(paidAt)}`);
    expect(staffPaymentText({ paid_at: null, payment: payment('failed', { failure: 'Your card was declined.' }) })).toBe(
      'card payment failed: Your card was declined.',
    );
    expect(staffPaymentText({ paid_at: null, payment: payment('pending') })).toBe('card payment sent to Stripe, no outcome yet');
    expect(staffPaymentText({ paid_at: null, payment: payment('awaiting') })).toBe('awaiting payment');
    expect(staffPaymentText({ paid_at: null })).toBe('not paid');
  });
});
