package cardpay

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"

	"github.com/stripe/stripe-go/v84"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// Currency is the one currency the shop charges in.
const Currency = "gbp"

// The metadata keys of every Checkout Session and its PaymentIntent (the webhook reads
// them to find the order an event is about) and of every refund.
const (
	MetaOrderID  = "order_id"
	MetaUID      = "uid"
	MetaAttempt  = "attempt"
	MetaRefundID = "refund_id"
)

// payTries bounds Pay's attempts: each lost race (another Pay of the same order at
// once) is one.
const payTries = 3

// ErrOff is card payment asked for where no Stripe key is set.
var ErrOff = errors.New("card payment is off: no Stripe key is set")

// Pay starts a card payment of what uid's order orderID still owes on its invoice: a
// Checkout Session for that amount (never the browser's), recorded on the order as its
// next attempt, and answers where to send the buyer (Stripe's hosted page; in the local
// stage, the local payment page). It refuses (a *shoperr.ConflictError) an order that
// is paid, cancelled, on account, not invoiced yet or owes nothing, and another buyer's order is not
// found. A session of an earlier attempt still open is expired first, so that only the
// newest can take money.
func (s Service) Pay(ctx context.Context, uid, orderID string) (string, error) {
	if s.Stripe == nil {
		return "", ErrOff
	}
	for try := 0; try < payTries; try++ {
		o, err := s.Store.Order(ctx, uid, orderID)
		if err != nil {
			return "", err
		}
		inv, err := payable(o)
		if err != nil {
			return "", err
		}
		seen := 0
		if o.Card != nil {
			seen = o.Card.Attempt
			if err := s.expire(ctx, o); err != nil {
				return "", err
			}
		}
		cs, err := s.createSession(ctx, o, inv, seen+1)
		if err != nil {
			return "", err
		}
		err = s.Store.StartCardAttempt(ctx, uid, orderID, seen, cs.ID, s.Now())
		if errors.Is(err, store.ErrCardAttemptMoved) {
			// Another Pay of the same attempt at once (the same idempotency key, so the
			// same session) answers the same page; anything else is read again.
			if again, rerr := s.Store.Order(ctx, uid, orderID); rerr == nil && again.Card != nil && again.Card.Session == cs.ID {
				return s.payURL(o, seen+1, cs), nil
			}
			continue
		}
		if err != nil {
			return "", err
		}
		return s.payURL(o, seen+1, cs), nil
	}
	return "", &shoperr.ConflictError{Msg: "This order's payment changed while we were starting yours: refresh the page and try again."}
}

// payable answers o's invoice when o may be paid by card now, else the sentence why not.
func payable(o orders.Order) (payments.Invoice, error) {
	switch {
	case o.Status == orders.StatusCancelling || o.Status == orders.StatusCancelled:
		return payments.Invoice{}, &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s is cancelled: there is nothing to pay.", o.ID)}
	case o.Paid():
		return payments.Invoice{}, &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s is paid already.", o.ID)}
	case !o.ProForma():
		return payments.Invoice{}, &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s is on account: pay it as its invoice says.", o.ID)}
	}
	inv, ok := payments.InvoiceOf(o)
	if !ok {
		return payments.Invoice{}, &shoperr.ConflictError{Msg: fmt.Sprintf("The invoice for order %s is still being issued: try again in a minute.", o.ID)}
	}
	if inv.Outstanding() <= 0 {
		return payments.Invoice{}, &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s owes nothing on its invoice.", o.ID)}
	}
	return inv, nil
}

// CanPayNow says the buyer may start a card payment of o now (the order answers'
// can_pay_now): it is pro-forma or paid by card, invoiced, owes something, is neither
// paid nor cancelled.
func CanPayNow(o orders.Order) bool {
	_, err := payable(o)
	return err == nil
}

// expire expires the Checkout Session of o's latest attempt, so a page the buyer left
// open cannot take a second payment once a new one starts. A session Stripe says is
// complete is a payment on its way: Pay waits for its event rather than start another.
func (s Service) expire(ctx context.Context, o orders.Order) error {
	if o.Card.Session == "" || o.Card.State == orders.CardAbandoned {
		return nil
	}
	_, err := s.Stripe.V1CheckoutSessions.Expire(ctx, o.Card.Session, &stripe.CheckoutSessionExpireParams{})
	if err == nil {
		return nil
	}
	cs, gerr := s.Stripe.V1CheckoutSessions.Retrieve(ctx, o.Card.Session, nil)
	switch {
	case gerr != nil:
		return fmt.Errorf("expire checkout session %s of %s: %w", o.Card.Session, o.ID, err)
	case cs.Status == stripe.CheckoutSessionStatusExpired:
		return nil
	case cs.Status == stripe.CheckoutSessionStatusComplete:
		return &shoperr.ConflictError{Msg: fmt.Sprintf("Your card payment for order %s is being confirmed: refresh the page in a minute.", o.ID)}
	}
	return fmt.Errorf("expire checkout session %s of %s: %w", o.Card.Session, o.ID, err)
}

// Metadata is what a Checkout Session and its PaymentIntent carry of the order they pay.
func Metadata(o orders.Order, attempt int) map[string]string {
	return map[string]string{MetaOrderID: o.ID, MetaUID: o.UID, MetaAttempt: strconv.Itoa(attempt)}
}

// SessionKey is the idempotency key of the Checkout Session of o's attempt: a retry of
// the same attempt is the same session, never a second charge.
func SessionKey(orderID string, attempt int) string {
	return "checkout-" + orderID + "-" + strconv.Itoa(attempt)
}

// createSession creates the Checkout Session of o's attempt for what its invoice owes.
func (s Service) createSession(ctx context.Context, o orders.Order, inv payments.Invoice, attempt int) (*stripe.CheckoutSession, error) {
	p := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModePayment)),
		ClientReferenceID: stripe.String(o.ID),
		SuccessURL:        stripe.String(s.Config.SiteURL + "/checkout/complete/" + o.ID + "/?paid=1"),
		CancelURL:         stripe.String(s.orderPage(o.ID)),
		Metadata:          Metadata(o, attempt),
		LineItems: []*stripe.CheckoutSessionCreateLineItemParams{{
			Quantity: stripe.Int64(1),
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String(Currency),
				UnitAmount:  stripe.Int64(inv.Outstanding()),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(LineName(o))},
			},
		}},
		PaymentIntentData: &stripe.CheckoutSessionCreatePaymentIntentDataParams{
			Description: stripe.String(LineName(o)),
			Metadata:    Metadata(o, attempt),
		},
	}
	if o.Email != "" {
		p.CustomerEmail = stripe.String(o.Email)
	}
	p.SetIdempotencyKey(SessionKey(o.ID, attempt))
	cs, err := s.Stripe.V1CheckoutSessions.Create(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("create checkout session %d of %s: %w", attempt, o.ID, err)
	}
	return cs, nil
}

// LineName is the one line of an order's Checkout Session.
func LineName(o orders.Order) string {
	if o.Invoice == nil {
		return "Order " + o.ID
	}
	return fmt.Sprintf("Order %s (invoice %s)", o.ID, orders.InvoiceNumber(o.Invoice.Number))
}

// orderPage is the address of the buyer's order page of orderID.
func (s Service) orderPage(orderID string) string {
	return s.Config.SiteURL + "/account/orders/?id=" + url.QueryEscape(orderID)
}

// payURL is where the buyer goes to pay attempt of o through cs: Stripe's page, or in the
// local stage the local payment page (stripe-mock's sessions have no page to show).
func (s Service) payURL(o orders.Order, attempt int, cs *stripe.CheckoutSession) string {
	if s.Config.Local() {
		q := url.Values{"order": {o.ID}, "attempt": {strconv.Itoa(attempt)}, "session": {cs.ID}}
		return s.Config.SiteURL + LocalPagePath + "?" + q.Encode()
	}
	return cs.URL
}
