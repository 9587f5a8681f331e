package cardpay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v84"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// refundActor is who the audit trail says recorded a refund to a card: the shop's card
// payments, on a cancellation, a part credit or a payment that came too late.
var refundActor = orders.Staff{Email: "card refunds"}

// refundTries bounds RefundCard's attempts: each lost race for its source is one.
const refundTries = 20

// CardRefundID is the id of the refund of amount from source to PaymentIntent pi:
// REF- and 12 upper-case hex digits of their hash. The same refund asked twice (a retry,
// a sweep, a webhook delivered again) is the same id, so the same conditional Put.
func CardRefundID(source, pi string, amount int64) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "card-refund/%s/%s/%d", source, pi, amount))
	return "REF-" + strings.ToUpper(hex.EncodeToString(sum[:6]))
}

// ReturnedID is the id of the credit document that puts failed refund refundID's money
// back on account: deterministic, so it is written once.
func ReturnedID(refundID string) string {
	sum := sha256.Sum256([]byte("refund-returned/" + refundID))
	return "PAY-" + strings.ToUpper(hex.EncodeToString(sum[:6]))
}

// RefundCard refunds amount of what source (a payment, PAY-…, or credit on account,
// CN-…) of account uid holds unallocated to the card of PaymentIntent pi, for order
// orderID (the refund's order, which the caller knows: the credit note's, or the
// cancelled order the payment arrived for). It writes the
// refund document first, with its allocation on the source, in one transaction (its id
// CardRefundID: asking again is the same write), then asks Stripe for the refund with
// the refund's id as the idempotency key, then stores Stripe's re_ id and status. A
// refund whose Stripe call fails for a while (or made where no key is set) stays
// pending: the sweep asks again.
func (s Service) RefundCard(ctx context.Context, uid, orderID, source, pi string, amount int64, reason string) (payments.Refund, error) {
	if amount <= 0 || !strings.HasPrefix(pi, "pi_") {
		return payments.Refund{}, fmt.Errorf("refund %d to %q from %s: not a refund to a card", amount, pi, source)
	}
	r, err := s.recordCardRefund(ctx, uid, orderID, source, pi, amount, reason)
	if err != nil {
		return payments.Refund{}, err
	}
	if r.StripeRefund != "" || r.Status != payments.RefundPending || s.Stripe == nil {
		// Asked before; or no Stripe key here (a webhook verified with its secret
		// alone): the sweep of a function with the key sends it.
		return r, nil
	}
	return s.askStripe(ctx, r, false)
}

// recordCardRefund writes the refund document of RefundCard (or reads it, written before).
func (s Service) recordCardRefund(ctx context.Context, uid, orderID, source, pi string, amount int64, reason string) (payments.Refund, error) {
	id := CardRefundID(source, pi, amount)
	for try := 0; try < refundTries; try++ {
		if r, err := s.Store.Refund(ctx, uid, id); err == nil {
			return r, nil
		} else if !errors.Is(err, store.ErrNotFound) {
			return payments.Refund{}, err
		}
		src, err := s.Store.Payment(ctx, uid, source)
		if err != nil {
			return payments.Refund{}, err
		}
		if src.Unallocated() < amount {
			return payments.Refund{}, &shoperr.ConflictError{Msg: fmt.Sprintf("%s has only %s left: %s cannot go back to the card.",
				src.Name(), orders.Pounds(src.Unallocated()), orders.Pounds(amount))}
		}
		now := s.Now()
		r := payments.Refund{ID: id, UID: uid, Source: source, Method: payments.MethodCard, Date: payments.Day(now).Format(time.DateOnly),
			Amount: amount, Reference: pi, RecordedAt: now, By: refundActor, PaymentIntent: pi, Status: payments.RefundPending, OrderID: orderID}
		w := payments.RefundWrite{Refund: r, Source: src, Audit: orders.AuditEntry{At: now, By: refundActor, Action: "refund to card",
			Before: map[string]any{"source": src.ID, "allocated": src.Allocated},
			After: map[string]any{"refund": id, "source": src.ID, "method": payments.MethodCard, "payment_intent": pi, "amount": amount,
				"order": orderID, "reason": reason, "allocated": src.Allocated + amount}}}
		err = s.Store.WriteCardRefund(ctx, w)
		switch {
		case err == nil:
			return r, nil
		case errors.Is(err, store.ErrRefundExists), errors.Is(err, payments.ErrPaymentMoved), errors.Is(err, payments.ErrBusy):
			// Read again: the refund written meanwhile, or what another took of the source.
		default:
			return payments.Refund{}, err
		}
		time.Sleep(time.Duration(5+5*try) * time.Millisecond)
	}
	return payments.Refund{}, fmt.Errorf("refund %s from %s: still racing after %d attempts", id, source, refundTries)
}

// askStripe asks Stripe for refund r (idempotency key its id), stores the re_ id and
// settles the status Stripe answers. lookFirst (the sweep's) first looks among the
// PaymentIntent's refunds for one made for r already, as an idempotency key is kept
// only 24 hours. A refusal of Stripe's that asking again cannot change (a 4xx other than
// a rate limit) fails the refund: its money goes back on account.
func (s Service) askStripe(ctx context.Context, r payments.Refund, lookFirst bool) (payments.Refund, error) {
	var re *stripe.Refund
	if lookFirst {
		re = s.findStripeRefund(ctx, r)
	}
	if re == nil {
		p := &stripe.RefundCreateParams{PaymentIntent: stripe.String(r.PaymentIntent), Amount: stripe.Int64(r.Amount),
			Reason:   stripe.String(string(stripe.RefundReasonRequestedByCustomer)),
			Metadata: map[string]string{MetaRefundID: r.ID, MetaOrderID: r.OrderID, MetaUID: r.UID}}
		p.SetIdempotencyKey(r.ID)
		var err error
		re, err = s.Stripe.V1Refunds.Create(ctx, p)
		var se *stripe.Error
		if errors.As(err, &se) && se.HTTPStatusCode >= 400 && se.HTTPStatusCode < 500 && se.HTTPStatusCode != http.StatusTooManyRequests &&
			se.HTTPStatusCode != http.StatusConflict {
			failure := "Stripe refused the refund: " + se.Msg
			return s.settle(ctx, r, "", payments.RefundFailed, failure)
		}
		if err != nil {
			return r, fmt.Errorf("ask stripe for refund %s: %w", r.ID, err)
		}
	}
	if err := s.Store.SetCardRefundStripe(ctx, r.UID, r.ID, re.ID); err != nil {
		return r, err
	}
	r.StripeRefund = re.ID
	status, failure := refundStatus(re)
	if status == payments.RefundPending {
		return r, nil
	}
	return s.settle(ctx, r, re.ID, status, failure)
}

// findStripeRefund looks among r's PaymentIntent's refunds for one whose metadata names r.
func (s Service) findStripeRefund(ctx context.Context, r payments.Refund) *stripe.Refund {
	params := &stripe.RefundListParams{PaymentIntent: stripe.String(r.PaymentIntent)}
	for re, err := range s.Stripe.V1Refunds.List(ctx, params) {
		if err != nil {
			return nil
		}
		if re.Metadata[MetaRefundID] == r.ID {
			return re
		}
	}
	return nil
}

// refundStatus is Stripe refund re's status as the shop keeps it: requires_action is
// still pending; canceled is failed (the money did not go back).
func refundStatus(re *stripe.Refund) (status, failure string) {
	switch re.Status {
	case stripe.RefundStatusSucceeded:
		return payments.RefundSucceeded, ""
	case stripe.RefundStatusFailed, stripe.RefundStatusCanceled:
		why := string(re.FailureReason)
		if why == "" {
			why = string(re.Status)
		}
		return payments.RefundFailed, "The card could not take the refund (" + strings.ReplaceAll(why, "_", " ") + ")."
	}
	return payments.RefundPending, ""
}

// ApplyRefundEvent applies a refund event's refund re (refund.created, refund.updated,
// refund.failed, charge.refund.updated) to the refund document its metadata names: its
// re_ id stored if it had none, its status moved forward only (pending to succeeded or
// failed; a late pending changes nothing). A refund the shop did not ask for (no
// refund_id: made in Stripe's dashboard) is logged and left alone.
func (s Service) ApplyRefundEvent(ctx context.Context, re *stripe.Refund) error {
	id, uid := re.Metadata[MetaRefundID], re.Metadata[MetaUID]
	if id == "" || uid == "" {
		s.Log.WarnContext(ctx, "stripe refund not the shop's: left alone", "refund", re.ID)
		return nil
	}
	r, err := s.Store.Refund(ctx, uid, id)
	if errors.Is(err, store.ErrNotFound) {
		s.Log.WarnContext(ctx, "stripe refund names no refund of the shop's: left alone", "refund", re.ID, "refund_id", id)
		return nil
	}
	if err != nil {
		return err
	}
	if r.StripeRefund == "" {
		if err := s.Store.SetCardRefundStripe(ctx, uid, id, re.ID); err != nil {
			return err
		}
		r.StripeRefund = re.ID
	}
	status, failure := refundStatus(re)
	if status == payments.RefundPending || r.Status != payments.RefundPending {
		return nil
	}
	_, err = s.settle(ctx, r, re.ID, status, failure)
	return err
}

// settle moves pending refund r to status in one transaction, on condition it is still
// pending: a succeeded refund writes the buyer's email; a failed one puts its money back
// on account as a new credit document (ReturnedID: a payment of method card, free to
// allocate or refund another way) and tells staff. It answers the refund as it is after.
func (s Service) settle(ctx context.Context, r payments.Refund, stripeRefund, status, failure string) (payments.Refund, error) {
	now := s.Now()
	c := store.CardRefundSettle{UID: r.UID, ID: r.ID, StripeRefund: stripeRefund, Status: status, Failure: failure, At: now}
	after := r
	after.Status, after.Failure = status, failure
	if after.StripeRefund == "" {
		after.StripeRefund = stripeRefund
	}
	switch status {
	case payments.RefundSucceeded:
		if to := s.buyerEmail(ctx, r); to != "" {
			c.Emails = append(c.Emails, s.Notify.CardRefunded(after, to))
		}
	case payments.RefundFailed:
		back := payments.Payment{ID: ReturnedID(r.ID), UID: r.UID, Method: payments.MethodCard, Date: payments.Day(now).Format(time.DateOnly),
			Amount: r.Amount, Reference: "Refund " + r.ID + " failed", RecordedAt: now, By: refundActor, OrderID: ""}
		c.Returned = &back
		c.ReturnedAudit = orders.AuditEntry{At: now, By: refundActor, Action: "refund to card failed",
			Before: map[string]any{"refund": r.ID, "status": payments.RefundPending},
			After: map[string]any{"refund": r.ID, "status": status, "failure": failure, "payment": back.ID, "amount": r.Amount,
				"method": back.Method, "date": back.Date, "reference": back.Reference, "allocated": 0}}
		if m, ok := s.Notify.CardRefundFailed(after, back); ok {
			c.Emails = append(c.Emails, m)
		}
	}
	for try := 0; try < refundTries; try++ {
		done, err := s.Store.SettleCardRefund(ctx, c)
		switch {
		case errors.Is(err, payments.ErrBusy):
			time.Sleep(time.Duration(5+5*try) * time.Millisecond)
			continue
		case err != nil:
			return r, err
		case !done:
			// Settled before (an event delivered twice, or out of order): as it is.
			return s.Store.Refund(ctx, r.UID, r.ID)
		}
		return after, nil
	}
	return r, fmt.Errorf("settle refund %s: still busy after %d attempts", r.ID, refundTries)
}

// buyerEmail is where the buyer's email of refund r goes: its order's address, else the
// account's ("" for none).
func (s Service) buyerEmail(ctx context.Context, r payments.Refund) string {
	if r.OrderID != "" {
		if o, err := s.Store.Order(ctx, r.UID, r.OrderID); err == nil && strings.TrimSpace(o.Email) != "" {
			return strings.TrimSpace(o.Email)
		}
	}
	if p, err := s.Store.Profile(ctx, r.UID); err == nil {
		return strings.TrimSpace(p.Email)
	}
	return ""
}

// RefundCredit refunds to the card the credit on account a credit note (a cancellation,
// or a part credit) left on order o, when o was paid by card: each credit note's credit
// on account still unallocated, up to what the card paid and has not had back, to the
// PaymentIntent of the card payment allocated to o's invoice. Safe to call again (each
// refund is CardRefundID's), so the sweep calls it for recent cancellations a crash may
// have left unrefunded. Failures are logged as well as answered: the cancellation or the
// credit stands whatever Stripe says.
func (s Service) RefundCredit(ctx context.Context, o orders.Order) error {
	err := s.refundCredit(ctx, o)
	if err != nil {
		s.Log.ErrorContext(ctx, "refund credit to the card", "order", o.ID, "err", err)
	}
	return err
}

func (s Service) refundCredit(ctx context.Context, o orders.Order) error {
	if o.Card == nil || o.Invoice == nil || s.Stripe == nil {
		return nil // never went to Stripe
	}
	held, err := s.Store.Payments(ctx, o.UID)
	if err != nil {
		return err
	}
	refunds, err := s.Store.Refunds(ctx, o.UID)
	if err != nil {
		return err
	}
	// What each card payment allocated to o's invoice paid, less what went back to it.
	left := map[string]int64{}
	var pis []string
	for _, p := range held {
		if p.Method != payments.MethodCard || !strings.HasPrefix(p.Reference, "pi_") {
			continue
		}
		for _, a := range p.Allocations {
			if a.Invoice == o.Invoice.Number {
				if _, ok := left[p.Reference]; !ok {
					pis = append(pis, p.Reference)
				}
				left[p.Reference] += a.Amount
			}
		}
	}
	if len(pis) == 0 {
		return nil // not paid by card
	}
	for _, r := range refunds {
		if r.Method == payments.MethodCard && r.Status != payments.RefundFailed {
			if _, ok := left[r.PaymentIntent]; ok {
				left[r.PaymentIntent] -= r.Amount
			}
		}
	}
	var errs []error
	for _, p := range held {
		if !p.IsCredit() || p.OrderID != o.ID || p.Unallocated() <= 0 {
			continue
		}
		credit := p.Unallocated()
		for _, pi := range pis {
			amount := min(credit, left[pi])
			if amount <= 0 {
				continue
			}
			reason := fmt.Sprintf("Credit note %s of order %s", p.ID, o.ID)
			if _, err := s.RefundCard(ctx, o.UID, o.ID, p.ID, pi, amount, reason); err != nil {
				errs = append(errs, err)
				continue
			}
			credit -= amount
			left[pi] -= amount
		}
	}
	return errors.Join(errs...)
}

// recentCredits is how far back the sweep looks for credit notes (a cancellation's or a
// part credit's) whose card refund a crash may have left unasked, and recentCreditsMany
// how many notes it reads at most, newest first.
const (
	recentCredits     = 24 * time.Hour
	recentCreditsMany = 100
	// unansweredAfter is how long a refund may wait for Stripe's answer before the sweep
	// asks again (its own request may still be on the way).
	unansweredAfter = time.Minute
)

// Sweep asks Stripe again for the refunds to a card it has not answered (a crash, or
// Stripe unreachable, after the refund was recorded), and refunds the credit of recent
// credit notes (cancellations and part credits) of card orders a crash left unrefunded. It answers how many refunds it
// asked for.
func (s Service) Sweep(ctx context.Context) (int, error) {
	if s.Stripe == nil {
		return 0, nil
	}
	now := s.Now()
	refs, err := s.Store.CardRefundsUnanswered(ctx, now.Add(-unansweredAfter))
	if err != nil {
		return 0, err
	}
	var errs []error
	n := 0
	for _, ref := range refs {
		r, err := s.Store.Refund(ctx, ref.UID, ref.ID)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if r.StripeRefund != "" || r.Status != payments.RefundPending {
			// Answered, its marker left behind: take it away.
			errs = append(errs, s.Store.ForgetCardRefunding(ctx, r.ID))
			continue
		}
		if _, err := s.askStripe(ctx, r, true); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	// Every credit note of the last day, a cancellation's or a part credit's: an order paid
	// by card whose note left credit a crash kept from the card is refunded now
	// (refundCredit refunds only what is not refunded yet, so asking again is harmless).
	noted, err := s.Store.RecentCreditNotes(ctx, now.Add(-recentCredits), recentCreditsMany)
	if err != nil {
		return n, errors.Join(append(errs, err)...)
	}
	for _, ref := range noted {
		o, err := s.Store.Order(ctx, ref.UID, ref.ID)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if o.Card != nil && o.Paid() {
			if err := s.refundCredit(ctx, o); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return n, errors.Join(errs...)
}
