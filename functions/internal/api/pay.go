package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/cardpay"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/store"
)

// payAnswer is where to send the buyer to pay by card: Stripe's payment page (in the
// local stage, the local payment page).
type payAnswer struct {
	URL string `json:"url"`
}

// CardPayer starts card payments (cardpay.Service).
type CardPayer interface {
	Pay(ctx context.Context, uid, orderID string) (string, error)
}

var _ CardPayer = cardpay.Service{}

// msgCardOff answers Pay now where no Stripe key is set.
const msgCardOff = "Card payment is not available at the moment: pay by bank transfer as the invoice says, or try again later."

// handlePayOrder answers POST /api/orders/{id}/pay {token}: starts a card payment of
// what the buyer's order still owes and answers the page to send the buyer to. 409 with
// a sentence when the order is paid, cancelled or not invoiced yet; 404 for another's
// order; 503 when card payment is off (card nil).
func handlePayOrder(log *slog.Logger, verify auth.Verifier, card *cardpay.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		id := r.PathValue("id")
		if !orders.ValidID(id) {
			writeError(w, r, log, store.ErrNotFound)
			return
		}
		if card == nil {
			writeError(w, r, log, &errServiceMissing{msg: msgCardOff, cause: "no Stripe key"})
			return
		}
		url, err := card.Pay(r.Context(), who.UID, id)
		if errors.Is(err, cardpay.ErrOff) {
			err = &errServiceMissing{msg: msgCardOff, cause: "no Stripe client"}
		}
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		encode(w, http.StatusOK, payAnswer{URL: url})
	})
}

// orderPaymentAnswer is how an order is being paid (docs/payments.md "States"): state
// paid; none (on account and unpaid, or cancelled unpaid: nothing to pay now); awaiting
// (pro-forma or card, unpaid: no card attempt, or one under way); pending (reserved
// for a card payment Stripe is still processing); failed (the latest card attempt
// failed: failure is Stripe's sentence why); abandoned (the buyer left Stripe's page
// until it expired). can_pay_now says Pay now is offered; card_refunds are the refunds
// to the card of the order's payments, newest last.
type orderPaymentAnswer struct {
	State       string             `json:"state" ts:"'paid' | 'awaiting' | 'pending' | 'failed' | 'abandoned' | 'none'"`
	Failure     *string            `json:"failure"`
	CanPayNow   bool               `json:"can_pay_now"`
	CardRefunds []cardRefundAnswer `json:"card_refunds"`
}

// cardRefundAnswer is one refund to the card.
type cardRefundAnswer struct {
	ID         string     `json:"id"`
	Amount     int64      `json:"amount"`
	Status     string     `json:"status" ts:"'pending' | 'succeeded' | 'failed'"`
	Failure    *string    `json:"failure"`
	RecordedAt unixMillis `json:"recorded_at"`
}

// The order payment states.
const (
	PaymentPaid      = "paid"
	PaymentNone      = "none"
	PaymentAwaiting  = "awaiting"
	PaymentPending   = "pending"
	PaymentFailed    = "failed"
	PaymentAbandoned = "abandoned"
)

// orderPaymentOf is o's payment as the order pages show it, with o's card refunds among
// refunds (the account's; nil for none read). cardOn says Pay now can be offered (card
// payment is on).
func orderPaymentOf(o orders.Order, refunds []payments.Refund, cardOn bool) orderPaymentAnswer {
	a := orderPaymentAnswer{State: PaymentAwaiting, CardRefunds: []cardRefundAnswer{}}
	switch {
	case o.Paid():
		a.State = PaymentPaid
	case !o.ProForma() || o.Status == orders.StatusCancelling || o.Status == orders.StatusCancelled:
		a.State = PaymentNone
	case o.Card != nil && o.Card.State == orders.CardFailed:
		a.State = PaymentFailed
		if o.Card.Failure != "" {
			f := o.Card.Failure
			a.Failure = &f
		}
	case o.Card != nil && o.Card.State == orders.CardAbandoned:
		a.State = PaymentAbandoned
	}
	a.CanPayNow = cardOn && cardpay.CanPayNow(o)
	for _, r := range refunds {
		if r.Method != payments.MethodCard || r.OrderID != o.ID {
			continue
		}
		ra := cardRefundAnswer{ID: r.ID, Amount: r.Amount, Status: r.Status, RecordedAt: unixMillisOf(r.RecordedAt)}
		if r.Failure != "" {
			f := r.Failure
			ra.Failure = &f
		}
		a.CardRefunds = append(a.CardRefunds, ra)
	}
	return a
}

// RefundReader reads an account's refunds (the card refunds an order answer lists).
type RefundReader interface {
	Refunds(ctx context.Context, uid string) ([]payments.Refund, error)
}

// cardRefundsOf reads the refunds o's answer lists: only an order that went to Stripe
// can have refunds to a card, so no other costs a read.
func cardRefundsOf(ctx context.Context, st RefundReader, o orders.Order) ([]payments.Refund, error) {
	if o.Card == nil {
		return nil, nil
	}
	return st.Refunds(ctx, o.UID)
}
