package cardpay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v84"

	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/store"
)

// Applying an event holds these invariants however often, and in whatever order, Stripe
// delivers events (docs/payments.md "Idempotency and order of events"):
//
//   - Σ card payments recorded for a PaymentIntent ≤ 1: its payment's id is
//     payments.CardPaymentID(pi), put on condition it is not there, whichever event (the
//     Checkout Session's or the PaymentIntent's) and however many deliveries carry it;
//   - invoice paid ≤ gross − applied credits: the payment is allocated in the transaction
//     that records it, on the invoice's conditions as any allocation (payments.RecordCard);
//   - every event applied at most once in effect: each effect is a conditional write that
//     a second application finds done (the payment's id taken, the refund's document
//     there, the card outcome's attempt moved on or the order paid).

// noPaymentMessage is the card state's failure when Stripe says why no more than that the
// payment failed (a Checkout Session's asynchronous payment).
const noPaymentMessage = "The payment did not go through."

// Apply applies event e (verified already) to the shop: a succeeded payment is recorded
// (payments.RecordCard), an outcome short of one is written on the order's card attempt,
// a refund's event is handed to ApplyRefundEvent, and any other type changes nothing.
// Applying an event twice, or after a later one, changes nothing more.
func (s Service) Apply(ctx context.Context, e stripe.Event) error {
	if e.Data == nil {
		return nil
	}
	switch e.Type {
	case stripe.EventTypeCheckoutSessionCompleted, stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded,
		stripe.EventTypeCheckoutSessionAsyncPaymentFailed, stripe.EventTypeCheckoutSessionExpired:
		var cs stripe.CheckoutSession
		if err := json.Unmarshal(e.Data.Raw, &cs); err != nil {
			return fmt.Errorf("event %s: checkout session: %w", e.ID, err)
		}
		return s.applySession(ctx, e, cs)
	case stripe.EventTypePaymentIntentSucceeded, stripe.EventTypePaymentIntentPaymentFailed:
		var pi stripe.PaymentIntent
		if err := json.Unmarshal(e.Data.Raw, &pi); err != nil {
			return fmt.Errorf("event %s: payment intent: %w", e.ID, err)
		}
		return s.applyIntent(ctx, e, pi)
	case stripe.EventTypeRefundCreated, stripe.EventTypeRefundUpdated, stripe.EventTypeRefundFailed, stripe.EventTypeChargeRefundUpdated:
		var r stripe.Refund
		if err := json.Unmarshal(e.Data.Raw, &r); err != nil {
			return fmt.Errorf("event %s: refund: %w", e.ID, err)
		}
		return s.ApplyRefundEvent(ctx, &r)
	}
	return nil
}

// applySession applies a Checkout Session's event.
func (s Service) applySession(ctx context.Context, e stripe.Event, cs stripe.CheckoutSession) error {
	ref, ok := refOf(cs.Metadata, cs.ClientReferenceID)
	if !ok {
		s.webhookLog().Warn("stripe event names no order of ours", "event", e.ID, "type", e.Type, "session", cs.ID)
		return nil
	}
	succeeded := e.Type == stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded ||
		(e.Type == stripe.EventTypeCheckoutSessionCompleted && cs.PaymentStatus == stripe.CheckoutSessionPaymentStatusPaid)
	switch {
	case succeeded:
		if cs.PaymentIntent == nil || cs.PaymentIntent.ID == "" {
			return fmt.Errorf("event %s: paid session %s names no PaymentIntent", e.ID, cs.ID)
		}
		return s.succeeded(ctx, ref, cs.PaymentIntent.ID, cs.AmountTotal, string(cs.Currency), time.Unix(e.Created, 0))
	case e.Type == stripe.EventTypeCheckoutSessionCompleted:
		return s.outcome(ctx, ref, "", orders.CardPending, "")
	case e.Type == stripe.EventTypeCheckoutSessionAsyncPaymentFailed:
		pi := ""
		if cs.PaymentIntent != nil {
			pi = cs.PaymentIntent.ID
		}
		return s.outcome(ctx, ref, pi, orders.CardFailed, noPaymentMessage)
	default: // expired
		return s.outcome(ctx, ref, "", orders.CardAbandoned, "")
	}
}

// applyIntent applies a PaymentIntent's event.
func (s Service) applyIntent(ctx context.Context, e stripe.Event, pi stripe.PaymentIntent) error {
	ref, ok := refOf(pi.Metadata, "")
	if !ok {
		s.webhookLog().Warn("stripe event names no order of ours", "event", e.ID, "type", e.Type, "payment_intent", pi.ID)
		return nil
	}
	if e.Type == stripe.EventTypePaymentIntentSucceeded {
		amount := pi.AmountReceived
		if amount == 0 {
			amount = pi.Amount
		}
		return s.succeeded(ctx, ref, pi.ID, amount, string(pi.Currency), time.Unix(e.Created, 0))
	}
	why := noPaymentMessage
	if pi.LastPaymentError != nil && pi.LastPaymentError.Msg != "" {
		why = pi.LastPaymentError.Msg
	}
	return s.outcome(ctx, ref, pi.ID, orders.CardFailed, why)
}

// orderRef is the order an event's object names in its metadata (written by the Checkout
// Session: order_id, uid, attempt).
type orderRef struct {
	UID, OrderID string
	Attempt      int // 0 when the metadata has none
}

// refOf reads the order of metadata md; fallback is the order id when md has none (a
// Checkout Session's client_reference_id).
func refOf(md map[string]string, fallback string) (orderRef, bool) {
	r := orderRef{UID: md["uid"], OrderID: md["order_id"]}
	if r.OrderID == "" {
		r.OrderID = fallback
	}
	r.Attempt, _ = strconv.Atoi(md["attempt"])
	return r, r.UID != "" && r.OrderID != ""
}

// succeeded records PaymentIntent pi's payment of amount for ref's order (once: see
// payments.RecordCard) and, when its order was cancelled before it arrived, refunds what
// of it is not refunded yet to the card. A redelivery finds the payment recorded and the
// refund asked (nothing unallocated), and does nothing.
func (s Service) succeeded(ctx context.Context, ref orderRef, pi string, amount int64, currency string, at time.Time) error {
	c := payments.CardPayment{UID: ref.UID, OrderID: ref.OrderID, PaymentIntent: pi, Amount: amount, Currency: currency, At: at,
		Notice: func(p payments.Payment) []outbox.Message {
			return s.Notify.CardFlagged(mail.CardFlag{OrderID: ref.OrderID, Payment: p.ID, PaymentIntent: pi, Amount: amount, Currency: currency,
				Flag: p.Flag, Refunding: p.Flag == payments.FlagCancelled})
		}}
	p, recorded, err := s.Payments.RecordCard(ctx, c)
	if err != nil {
		return fmt.Errorf("record card payment of %s for %s: %w", pi, ref.OrderID, err)
	}
	if recorded {
		s.webhookLog().Info("card payment recorded", "order", ref.OrderID, "payment", p.ID, "amount", p.Amount, "flag", p.Flag)
	}
	if p.Flag == payments.FlagCancelled && p.Unallocated() > 0 {
		reason := fmt.Sprintf("Order %s was cancelled before its card payment arrived", ref.OrderID)
		if _, err := s.RefundCard(ctx, ref.UID, ref.OrderID, p.ID, pi, p.Unallocated(), reason); err != nil {
			return fmt.Errorf("refund card payment %s of cancelled order %s: %w", p.ID, ref.OrderID, err)
		}
	}
	return nil
}

// outcome writes state (with failure) on ref's order's card attempt. An event of an
// older attempt, of an order paid already, or of a PaymentIntent whose payment is
// recorded (a failure delivered after the success) changes nothing.
func (s Service) outcome(ctx context.Context, ref orderRef, pi, state, failure string) error {
	if ref.Attempt == 0 {
		return nil
	}
	if pi != "" {
		_, err := s.Store.Payment(ctx, ref.UID, payments.CardPaymentID(pi))
		if err == nil {
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	err := s.Store.SetCardOutcome(ctx, ref.UID, ref.OrderID, ref.Attempt, state, failure, s.Now())
	if errors.Is(err, store.ErrCardStale) {
		return nil
	}
	return err
}
