import type { CardRefundAnswer as CardRefund, CardRefundStatus, Order, OrderPaymentAnswer, PaymentState } from './card-payment-types';
import { formatPence, formatUkDate, formatUkDateTime } from './format';
import { isCancelled } from './order-status';

/** What the buyer's pages say of an order's payment: the state shown (kind), the sentence,
 * and whether Pay now is offered. */
export interface PaymentLine {
  kind: Exclude<PaymentState, 'none'>;
  text: string;
  payNow: boolean;
}

/** What the line reads of an order. */
export type PaymentFacts = Pick<Order, 'payment' | 'paid_at' | 'billing' | 'status'>;

/** The buyer's payment line for an order (docs/payments.md "States"), or null when there is
 * nothing to say: an order on account not paid yet, or a cancelled order not paid. The
 * server decides Pay now (can_pay_now). returning: the buyer has just come back from the
 * payment page (?paid=1), so until the order says paid (or failed) the line says the payment
 * is being confirmed, without Pay now; Stripe's word may land after the browser. late: the
 * page has stopped asking for the order again. */
export function paymentLine(o: PaymentFacts, { returning = false, late = false } = {}): PaymentLine | null {
  const p: OrderPaymentAnswer | undefined = o.payment;
  // An order answered before card payments: only paid_at says anything.
  const state: PaymentState = p?.state ?? (o.paid_at ? 'paid' : 'none');
  if (state === 'paid') {
    const text = o.billing?.payment_method === 'card' && o.paid_at ? `Paid by card on ${formatUkDate(o.paid_at)}` : 'Paid';
    return { kind: 'paid', text, payNow: false };
  }
  if (isCancelled(o.status)) return null;
  const payNow = !!p?.can_pay_now;
  if (state === 'pending' || (returning && state !== 'failed')) {
    const text = late
      ? 'We are waiting for the card payment to be confirmed. It is taking longer than usual: reload this page in a minute.'
      : 'We are waiting for the card payment to be confirmed.';
    return { kind: 'pending', text, payNow: false };
  }
  switch (state) {
    case 'none':
      return null;
    case 'awaiting':
      return { kind: 'awaiting', text: 'Awaiting payment', payNow };
    case 'failed':
      return { kind: 'failed', text: p?.failure ? `Payment failed: ${p.failure}` : 'Payment failed.', payNow };
    case 'abandoned':
      return { kind: 'abandoned', text: 'The card payment was not finished.', payNow };
  }
}

/** Whether a page waiting on the order's card payment can stop asking: it is paid, or has an
 * outcome the buyer acts on. returning: the buyer came back from the payment page, where
 * only paid or failed is an outcome. */
export function paymentSettled(o: PaymentFacts, returning: boolean): boolean {
  const line = paymentLine(o, { returning });
  return line === null || line.kind !== 'pending';
}

const REFUND_WORDS: Record<CardRefundStatus, string> = {
  pending: 'pending',
  succeeded: 'issued (5 to 10 working days)',
  failed: 'failed (we will contact you)',
};

/** A refund to the buyer's card in words: "Refund of £12.00 to your card: pending". */
export const cardRefundLine = (r: CardRefund) => `Refund of ${formatPence(r.amount)} to your card: ${REFUND_WORDS[r.status] ?? r.status}`;

const STAFF_WORDS: Record<PaymentState, string> = {
  paid: 'paid',
  awaiting: 'awaiting payment',
  pending: 'card payment sent to Stripe, no outcome yet',
  failed: 'card payment failed',
  abandoned: 'card payment not finished (the payment page expired)',
  none: 'not paid',
};

/** An order's payment as staff read it: "paid 3 December 2026, 10:15", "card payment
 * failed: Your card was declined.", "awaiting payment". */
export function staffPaymentText(o: Pick<Order, 'payment' | 'paid_at'>): string {
  const state: PaymentState = o.payment?.state ?? (o.paid_at ? 'paid' : 'none');
  if (state === 'paid') return o.paid_at ? `paid ${formatUkDateTime(o.paid_at)}` : 'paid';
  const failure = state === 'failed' && o.payment?.failure ? `: ${o.payment.failure}` : '';
  return STAFF_WORDS[state] + failure;
}

const STAFF_REFUND_WORDS: Record<CardRefundStatus, string> = { pending: 'pending at Stripe', succeeded: 'succeeded', failed: 'failed' };

/** A card refund as staff read it: "REF-… £12.00 to the card, succeeded (3 December 2026,
 * 10:15)", with Stripe's reason when it failed. */
export function staffCardRefundText(r: CardRefund): string {
  const failure = r.status === 'failed' && r.failure ? `: ${r.failure}` : '';
  return `${r.id} ${formatPence(r.amount)} to the card, ${STAFF_REFUND_WORDS[r.status] ?? r.status}${failure} (${formatUkDateTime(r.recorded_at)})`;
}
