import type { AdminOrderAnswer, BillingAnswer, LedgerEntryAnswer, OrderAnswer, UnixMillis, Pence } from './api-types';

// The wire of card payments (issue 36, the contract's item 8), written by hand while the Go
// answer types that will generate them (functions/internal/api/answers.go) land on other
// branches. At merge `go generate ./internal/api/` puts these shapes into api-types.ts and
// this file shrinks to the re-exports the site uses, or goes; nothing here is a rule of its
// own. The new fields are optional where an answer of today lacks them, so the pages read
// an order answered before card payments as having no card payment.

/** How a buyer pays: on account (30 days), pro-forma by bank transfer, or by card through
 * Stripe before dispatch (a card order is pro-forma in every other respect). */
export type PaymentMethod = 'account' | 'proforma' | 'card';

/** The billing details with the card as a third way to pay. */
export type Billing = Omit<BillingAnswer, 'payment_method'> & { payment_method: PaymentMethod };

/** Where an order's payment is: paid; awaiting (pro-forma or card, unpaid, no card attempt
 * or none under way); pending (sent to Stripe, no outcome yet); failed (the card was
 * refused: failure says why, in Stripe's words); abandoned (the payment page expired);
 * none (on account and not paid yet: nothing to pay now). */
export type PaymentState = 'paid' | 'awaiting' | 'pending' | 'failed' | 'abandoned' | 'none';

/** Where a card refund is: asked of Stripe, done (the money is on its way to the card), or
 * refused (failure says why; the money went back on account). */
export type CardRefundStatus = 'pending' | 'succeeded' | 'failed';

/** A refund to the card the order was paid with (REF-…), in pence. */
export interface CardRefundAnswer {
  id: string;
  amount: Pence;
  status: CardRefundStatus;
  failure: string | null;
  recorded_at: UnixMillis;
}

/** An order's payment as the server reads it: its state, why a card payment failed, whether
 * Pay now is offered, and the refunds to its card. */
export interface OrderPaymentAnswer {
  state: PaymentState;
  failure: string | null;
  can_pay_now: boolean;
  card_refunds: CardRefundAnswer[];
}

/** POST /api/orders/{id}/pay: where to send the buyer to pay (Stripe's page, or the local
 * payment page on the local stage). */
export interface PayOrderAnswer {
  url: string;
}

/** The buyer's order with its payment and the card among the billing's methods. */
export type Order = Omit<OrderAnswer, 'billing' | 'payment'> & { billing?: Billing; payment?: OrderPaymentAnswer };

/** Staff's order with its payment and the card among the billing's methods. */
export type AdminOrder = Omit<AdminOrderAnswer, 'billing' | 'payment'> & { billing?: Billing; payment?: OrderPaymentAnswer };

/** A ledger entry with what card payments add: a payment's flag (why staff must look at
 * it: an amount or currency not the invoice's, an order already paid or cancelled) and a
 * card refund's status and failure. */
export type LedgerEntry = LedgerEntryAnswer;
