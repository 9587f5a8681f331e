package payments

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/text"
)

// Credit hold (docs/back-office.md "Credit hold"): an account with an invoice on account
// that still owes something more than the shop's grace past its due date cannot place a
// new order on account until the invoice is paid or credited, or staff lift the hold.
//
// The hold is a check made when an order is placed, not a claim the placing transaction
// holds: time makes an invoice overdue, not a write, so there is no item whose change the
// transaction could condition on. A payment or credit note committed while the check
// reads only lifts the hold a moment later; an invoice cannot fall overdue within that
// moment except at midnight, where an order placed in the same second is as fair either
// way. So a read is right here, as it is for what an order costs.

// Hold is why an account is on credit hold: the invoice overdue the longest past the
// grace, and by how many days (from its due date).
type Hold struct {
	Invoice     Invoice
	DaysOverdue int
}

// HoldLift is staff's lift of an account's credit hold: the account may order on
// account, whatever is overdue, until the end of London day Until (YYYY-MM-DD).
type HoldLift struct {
	Until  string
	Reason string
	At     time.Time
	By     orders.Staff
}

// ActiveOn says the lift still holds on London day today.
func (l HoldLift) ActiveOn(today time.Time) bool {
	until, err := ParseDate(l.Until)
	return err == nil && !Day(today).After(until)
}

// HoldOf answers the hold of an account with invoices (as allocation reads them: what
// each still owes after credit notes and payments) on London day today, with graceDays:
// the invoice on account that still owes something and whose due date plus graceDays is
// before today, the one due first; nil when there is none.
func HoldOf(invoices []Invoice, today time.Time, graceDays int) *Hold {
	var held []Invoice
	for _, inv := range invoices {
		if inv.ProForma || !inv.open() {
			continue
		}
		if Day(today).After(inv.DueOn().AddDate(0, 0, graceDays)) {
			held = append(held, inv)
		}
	}
	if len(held) == 0 {
		return nil
	}
	first := slices.MinFunc(held, func(a, b Invoice) int {
		if c := a.DueOn().Compare(b.DueOn()); c != 0 {
			return c
		}
		return cmp.Compare(a.Number, b.Number)
	})
	return &Hold{Invoice: first, DaysOverdue: daysBetween(first.DueOn(), Day(today))}
}

// daysBetween counts the London days from a to b (both London midnights), whatever
// summer time does to the hours between.
func daysBetween(a, b time.Time) int {
	ua := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	ub := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(ub.Sub(ua).Hours() / 24)
}

// HoldError is the 409 of an order on account refused by hold h: one sentence naming the
// invoice and how long it is overdue, and offering pro-forma.
func HoldError(h Hold) error {
	days := "1 day"
	if h.DaysOverdue != 1 {
		days = fmt.Sprintf("%d days", h.DaysOverdue)
	}
	return &shoperr.ConflictError{Msg: fmt.Sprintf("Your account is on credit hold: invoice %s (order %s) is %s overdue with %s still to pay, so this order cannot go on account; pay pro-forma instead, or contact us.",
		orders.InvoiceNumber(h.Invoice.Number), h.Invoice.OrderID, days, orders.Pounds(h.Invoice.Outstanding())), Reason: shoperr.ReasonCreditHold}
}

// The bounds of a lift: until a day from today to MaxLiftDays ahead, DefaultLiftDays
// when staff name none.
const (
	DefaultLiftDays = 14
	MaxLiftDays     = 90
)

// LiftReason is why staff lift a hold, kept in the account's trail.
var LiftReason = text.Field{Name: "reason", Label: "Reason", Min: 3, Max: 200}

// HoldStore is what the credit hold reads and writes.
type HoldStore interface {
	// AccountBusiness answers the business name of account uid; store.ErrNotFound when
	// there is no such account.
	AccountBusiness(ctx context.Context, uid string) (string, error)
	// HoldLift reads account uid's lift of its credit hold, nil when there is none.
	HoldLift(ctx context.Context, uid string) (*HoldLift, error)
	// LiftHold writes account uid's lift and its audit entry in one transaction.
	LiftHold(ctx context.Context, uid string, l HoldLift, audit orders.AuditEntry) error
}

// InvoiceReader reads an account's invoices as allocation sees them (Service.Invoices).
type InvoiceReader interface {
	Invoices(ctx context.Context, uid string) ([]Invoice, error)
}

// Holds decides and lifts credit holds, with the shop's grace (shop.json
// credit.hold_grace_days).
type Holds struct {
	Store     HoldStore
	Invoices  InvoiceReader
	GraceDays int
	Now       func() time.Time
}

// HoldStatus is an account's credit hold now: Hold when an invoice is overdue past the
// grace (nil when none), Lift the last lift staff made (nil when none), and Held whether
// an order on account is refused now (a hold, and no lift in force).
type HoldStatus struct {
	Hold      *Hold
	Lift      *HoldLift
	Held      bool
	GraceDays int
}

// Status answers account uid's credit hold now.
func (h Holds) Status(ctx context.Context, uid string) (HoldStatus, error) {
	invs, err := h.Invoices.Invoices(ctx, uid)
	if err != nil {
		return HoldStatus{}, err
	}
	lift, err := h.Store.HoldLift(ctx, uid)
	if err != nil {
		return HoldStatus{}, err
	}
	now := h.Now()
	s := HoldStatus{Hold: HoldOf(invs, now, h.GraceDays), Lift: lift, GraceDays: h.GraceDays}
	s.Held = s.Hold != nil && (lift == nil || !lift.ActiveOn(now))
	return s, nil
}

// CheckOrder answers HoldError when account uid may not place an order on account now,
// nil when it may (orders.Placer calls it for an order on account).
func (h Holds) CheckOrder(ctx context.Context, uid string) error {
	s, err := h.Status(ctx, uid)
	if err != nil {
		return fmt.Errorf("credit hold of %s: %w", uid, err)
	}
	if s.Held {
		return HoldError(*s.Hold)
	}
	return nil
}

// LiftProblems answers what is wrong with a lift until day until ("" for the default)
// for reason, on London day today, by field name.
func LiftProblems(until, reason string, today time.Time) map[string]string {
	p := map[string]string{}
	if until != "" {
		d, err := ParseDate(until)
		switch {
		case err != nil:
			p["until"] = "The last day of the lift must be a day written YYYY-MM-DD."
		case d.Before(Day(today)):
			p["until"] = "The last day of the lift must not be before today."
		case d.After(Day(today).AddDate(0, 0, MaxLiftDays)):
			p["until"] = fmt.Sprintf("The last day of the lift must be at most %d days from today.", MaxLiftDays)
		}
	}
	var clean text.Cleaner
	clean.Clean(LiftReason, &reason)
	for k, v := range clean.Problems {
		p[k] = v
	}
	return p
}

// Lift lifts account uid's credit hold until London day until (DefaultLiftDays from
// today when "") for reason, audited in the account's trail as "lift credit hold" with
// the hold it lifted. It answers the status after.
func (h Holds) Lift(ctx context.Context, uid, until, reason string, by orders.Staff) (HoldStatus, error) {
	if !account.ValidUID(uid) {
		return HoldStatus{}, notFound("There is no such account.")
	}
	now := h.Now()
	if p := LiftProblems(until, reason, now); len(p) > 0 {
		return HoldStatus{}, &shoperr.FieldError{Field: firstKey(p), Problem: p[firstKey(p)]}
	}
	if until == "" {
		until = Day(now).AddDate(0, 0, DefaultLiftDays).Format(time.DateOnly)
	}
	reason, _ = LiftReason.Clean(reason)
	if _, err := h.Store.AccountBusiness(ctx, uid); err != nil {
		return HoldStatus{}, err
	}
	before, err := h.Status(ctx, uid)
	if err != nil {
		return HoldStatus{}, err
	}
	lift := HoldLift{Until: until, Reason: reason, At: now, By: by}
	was := map[string]any{"held": before.Held}
	if before.Hold != nil {
		was["invoice"] = orders.InvoiceNumber(before.Hold.Invoice.Number)
		was["days_overdue"] = before.Hold.DaysOverdue
	}
	if before.Lift != nil {
		was["lifted_until"] = before.Lift.Until
	}
	audit := orders.AuditEntry{At: now, By: by, Action: "lift credit hold", Before: was,
		After: map[string]any{"lifted_until": until, "reason": reason}}
	if err := h.Store.LiftHold(ctx, uid, lift, audit); err != nil {
		return HoldStatus{}, err
	}
	after := before
	after.Lift = &lift
	after.Held = false
	return after, nil
}

// firstKey is the first of p's keys in order, so one problem is named the same each time.
func firstKey(p map[string]string) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys[0]
}
