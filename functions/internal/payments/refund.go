package payments

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
)

// MethodReversal is a refund that is no money paid back: it takes back a payment
// recorded in error, or a cheque that bounced, whole, while nothing of it is allocated.
const MethodReversal = "reversal"

// RefundMethods lists how money goes back to a buyer, as the refund form offers them.
var RefundMethods = []string{MethodBankTransfer, MethodCheque, MethodReversal}

// Refund is money paid back to a trade account (or a payment taken back, a reversal)
// from what a payment or credit on account holds unallocated: a document, never changed
// once recorded. Its source keeps it as an allocation ({Refund: ID, Amount}), so the
// source can never give out more than it holds.
type Refund struct {
	ID         string // REF-…
	UID        string
	Source     string // the payment's id (PAY-…) or the credit note's number (CN-…)
	Method     string // RefundMethods
	Date       string // the day it was paid back, YYYY-MM-DD (a London day)
	Amount     int64  // pence
	Reference  string
	RecordedAt time.Time
	By         orders.Staff
	// A refund to a card (Method MethodCard, issue 36) goes back through Stripe: to
	// PaymentIntent (pi_…), as Stripe's refund StripeRefund (re_…, "" until Stripe has
	// answered), its Status moving only forward (RefundPending, then RefundSucceeded or
	// RefundFailed, with Stripe's Failure reason), for OrderID's money.
	PaymentIntent string
	StripeRefund  string
	Status        string
	Failure       string
	OrderID       string
}

// The statuses of a refund to a card. A refund by bank transfer or cheque is paid when
// recorded, and has none.
const (
	RefundPending   = "pending"
	RefundSucceeded = "succeeded"
	RefundFailed    = "failed"
)

// RefundRequest is a member of staff's record of a refund.
type RefundRequest struct {
	Source    string
	Method    string
	Date      string
	Amount    int64
	Reference string
	By        orders.Staff
}

// RefundWrite is one refund as the store writes it, in one transaction: the refund
// (new), its source's allocations (on condition it still holds Refund.Amount
// unallocated) and the account's audit entry.
type RefundWrite struct {
	Refund Refund
	Source Payment // as read
	Audit  orders.AuditEntry
}

// RefundProblems answers what is wrong with r, by field name (empty when nothing is), on
// London day today.
func RefundProblems(r RefundRequest, today time.Time) map[string]string {
	p := map[string]string{}
	if !validSource(r.Source) {
		p["source"] = "The source must be a payment (PAY-…) or a credit note's credit on account (CN-…)."
	}
	if !slices.Contains(RefundMethods, r.Method) {
		p["method"] = "The method must be bank_transfer, cheque or reversal."
	}
	moneyProblems(p, r.Date, r.Amount, r.Reference, today)
	return p
}

// validSource says id names something a refund or an allocation may take from.
func validSource(id string) bool {
	return strings.HasPrefix(id, "PAY-") || strings.HasPrefix(id, "CN-")
}

// Refund records refund r of account uid: it takes r.Amount from what its source holds
// unallocated, in one transaction with the refund document, so two members of staff
// refunding the same money at once can never take more than it holds. It answers the
// refund and its source after.
func (s Service) Refund(ctx context.Context, uid string, r RefundRequest) (Refund, Payment, error) {
	if !account.ValidUID(uid) {
		return Refund{}, Payment{}, notFound("There is no such account.")
	}
	if !validSource(r.Source) {
		return Refund{}, Payment{}, notFound("There is no such payment.")
	}
	ref, _ := Reference.Clean(r.Reference)
	for attempt := 0; attempt < attempts; attempt++ {
		src, err := s.Store.Payment(ctx, uid, r.Source)
		if err != nil {
			return Refund{}, Payment{}, err
		}
		if err := checkRefund(src, r); err != nil {
			return Refund{}, Payment{}, err
		}
		now := s.Now()
		w := RefundWrite{
			Refund: Refund{ID: NewRefundID(), UID: uid, Source: src.ID, Method: r.Method, Date: r.Date, Amount: r.Amount,
				Reference: ref, RecordedAt: now, By: r.By},
			Source: src,
		}
		w.Audit = orders.AuditEntry{At: now, By: r.By, Action: "refund",
			Before: map[string]any{"source": src.ID, "allocated": src.Allocated},
			After: map[string]any{"refund": w.Refund.ID, "source": src.ID, "method": r.Method, "date": r.Date, "amount": r.Amount,
				"reference": ref, "allocated": src.Allocated + r.Amount}}
		err = s.Store.WriteRefund(ctx, w)
		switch {
		case err == nil:
			after := src
			after.Allocations = append(slices.Clone(src.Allocations), Allocation{Refund: w.Refund.ID, Amount: r.Amount, At: now, By: r.By})
			after.Allocated += r.Amount
			return w.Refund, after, nil
		case errors.Is(err, ErrPaymentMoved), errors.Is(err, ErrBusy):
			// Read the source again: what another took shows in the sentence.
		default:
			return Refund{}, Payment{}, err
		}
		pause(ctx, attempt)
	}
	return Refund{}, Payment{}, fmt.Errorf("refund from %s: still racing after %d attempts", r.Source, attempts)
}

// checkRefund says what is wrong with refunding r from src as read: a sentence, or nil.
func checkRefund(src Payment, r RefundRequest) error {
	if r.Method == MethodReversal {
		switch {
		case src.IsCredit():
			return conflict(fmt.Sprintf("%s is not a payment received: refund it by bank transfer or cheque, or allocate it.", src.Name()))
		case src.Allocated > 0:
			return conflict(fmt.Sprintf("%s has %s allocated or refunded already: only a payment with nothing allocated can be reversed.",
				src.Name(), orders.Pounds(src.Allocated)))
		case r.Amount != src.Amount:
			return conflict(fmt.Sprintf("A reversal takes back the whole payment: %s.", orders.Pounds(src.Amount)))
		}
		return nil
	}
	if src.Unallocated() == 0 {
		return conflict(fmt.Sprintf("%s has nothing left to refund.", src.Name()))
	}
	if r.Amount > src.Unallocated() {
		return conflict(fmt.Sprintf("%s has only %s left: refund at most that.", src.Name(), orders.Pounds(src.Unallocated())))
	}
	return nil
}

// dateProblem says what is wrong with a document's date on London day today ("" when
// nothing is).
func dateProblem(date string, today time.Time) string {
	d, err := ParseDate(date)
	switch {
	case err != nil:
		return "The date must be a day written YYYY-MM-DD."
	case d.After(Day(today)):
		return "The date must not be after today."
	case d.Year() < 2000:
		return "The date must be in 2000 or after."
	}
	return ""
}

// NewRefundID makes a refund's id: REF- and 12 random hex digits, upper case.
func NewRefundID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "REF-" + strings.ToUpper(hex.EncodeToString(b[:]))
}
