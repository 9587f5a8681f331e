package payments

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/shoperr"
)

func TestHoldOf(t *testing.T) {
	t.Parallel()
	// Invoice 7 was issued on London day 2026-03-02 with 30 days' terms: due 2026-04-01.
	issued := day("2026-03-02")
	inv := Invoice{Number: 7, OrderID: "TS-100007", IssuedAt: issued, Gross: 12000, TermsDays: 30, Status: orders.StatusDispatched}
	// Issued at 23:30 UTC on 30 June, which is 00:30 on 1 July in London (summer time):
	// its London day is 1 July, so with 0 days' terms it is due on 1 July.
	lateNight := Invoice{Number: 8, OrderID: "TS-100008", IssuedAt: time.Date(2026, 6, 30, 23, 30, 0, 0, time.UTC), Gross: 500,
		Status: orders.StatusPlaced}
	with := func(f func(*Invoice)) Invoice { i := inv; f(&i); return i }
	cases := []struct {
		name     string
		invs     []Invoice
		today    string
		grace    int
		wantDays int // 0: no hold
		wantInv  int64
	}{
		{"due but within the grace", []Invoice{inv}, "2026-04-10", 14, 0, 0},
		{"the last day of the grace", []Invoice{inv}, "2026-04-15", 14, 0, 0},
		{"the day after the grace", []Invoice{inv}, "2026-04-16", 14, 15, 7},
		{"no grace: the day after it was due", []Invoice{inv}, "2026-04-02", 0, 1, 7},
		{"no grace: the day it is due", []Invoice{inv}, "2026-04-01", 0, 0, 0},
		{"paid in full", []Invoice{with(func(i *Invoice) { i.Paid = 12000 })}, "2026-06-01", 14, 0, 0},
		{"paid in part still holds", []Invoice{with(func(i *Invoice) { i.Paid = 11999 })}, "2026-06-01", 14, 61, 7},
		{"credited in full", []Invoice{with(func(i *Invoice) { i.Credited = 12000 })}, "2026-06-01", 14, 0, 0},
		{"credited and paid together", []Invoice{with(func(i *Invoice) { i.Credited, i.Paid = 2000, 10000 })}, "2026-06-01", 14, 0, 0},
		{"cancelled", []Invoice{with(func(i *Invoice) { i.Status = orders.StatusCancelled })}, "2026-06-01", 14, 0, 0},
		{"pro-forma is never held", []Invoice{with(func(i *Invoice) { i.ProForma = true })}, "2026-06-01", 14, 0, 0},
		{"the London day, not the UTC day, starts the terms", []Invoice{lateNight}, "2026-07-02", 0, 1, 8},
		{"issued after 23:00 UTC in summer: due on the next UTC day, not overdue on it", []Invoice{lateNight}, "2026-07-01", 0, 0, 0},
		{"the one due first names the hold", []Invoice{with(func(i *Invoice) { i.Number, i.IssuedAt = 9, day("2026-03-20") }), inv}, "2026-06-01", 14, 61, 7},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := HoldOf(c.invs, day(c.today), c.grace)
			switch {
			case c.wantDays == 0 && h != nil:
				t.Fatalf("held by %v, want no hold", h)
			case c.wantDays != 0 && h == nil:
				t.Fatal("no hold, want one")
			case h != nil && (h.DaysOverdue != c.wantDays || h.Invoice.Number != c.wantInv):
				t.Fatalf("held by invoice %d, %d days overdue; want %d, %d", h.Invoice.Number, h.DaysOverdue, c.wantInv, c.wantDays)
			}
		})
	}
}

func TestHoldOfLondonMidnight(t *testing.T) {
	t.Parallel()
	inv := Invoice{Number: 1, OrderID: "TS-1", IssuedAt: day("2026-01-05"), Gross: 100, TermsDays: 30, Status: orders.StatusPlaced}
	// Due 2026-02-04; grace 1: held from London day 2026-02-06, which in winter begins at
	// midnight UTC.
	if h := HoldOf([]Invoice{inv}, time.Date(2026, 2, 5, 23, 59, 0, 0, time.UTC), 1); h != nil {
		t.Fatalf("held at 23:59 on the last day of the grace: %v", h)
	}
	if h := HoldOf([]Invoice{inv}, time.Date(2026, 2, 6, 0, 0, 0, 0, time.UTC), 1); h == nil || h.DaysOverdue != 2 {
		t.Fatalf("at midnight after the grace: %v, want held 2 days overdue", h)
	}
}

func TestHoldError(t *testing.T) {
	t.Parallel()
	err := HoldError(Hold{Invoice: Invoice{Number: 42, OrderID: "TS-100042", Gross: 123456, Paid: 23456}, DaysOverdue: 1})
	var c *shoperr.ConflictError
	if !errors.As(err, &c) || c.Reason != shoperr.ReasonCreditHold {
		t.Fatalf("got %#v, want a credit_hold conflict", err)
	}
	const want = "Your account is on credit hold: invoice INV-000042 (order TS-100042) is 1 day overdue with £1,000.00 still to pay, so this order cannot go on account; pay pro-forma instead, or contact us."
	if c.Msg != want {
		t.Fatalf("got %q\nwant %q", c.Msg, want)
	}
}

// holdFake is a HoldStore and an InvoiceReader in memory.
type holdFake struct {
	invs  []Invoice
	lift  *HoldLift
	audit []orders.AuditEntry
}

func (f *holdFake) AccountBusiness(context.Context, string) (string, error) { return "Acme", nil }
func (f *holdFake) HoldLift(context.Context, string) (*HoldLift, error)     { return f.lift, nil }
func (f *holdFake) Invoices(context.Context, string) ([]Invoice, error)     { return f.invs, nil }
func (f *holdFake) LiftHold(_ context.Context, _ string, l HoldLift, a orders.AuditEntry) error {
	f.lift, f.audit = &l, append(f.audit, a)
	return nil
}

func TestHoldsLift(t *testing.T) {
	t.Parallel()
	const uid = "abcdefghijklmnopqrstuvwxyz12"
	overdue := Invoice{Number: 3, OrderID: "TS-100003", IssuedAt: day("2026-01-02"), Gross: 5000, TermsDays: 30, Status: orders.StatusDispatched}
	now := day("2026-03-10")
	f := &holdFake{invs: []Invoice{overdue}}
	h := Holds{Store: f, Invoices: f, GraceDays: 14, Now: func() time.Time { return now }}
	ctx := context.Background()
	if err := h.CheckOrder(ctx, uid); err == nil {
		t.Fatal("an overdue account may order on account")
	}
	if _, err := h.Lift(ctx, uid, "2026-06-30", "Paying by the end of the week", orders.Staff{Email: "jo@example.co.uk"}); err == nil {
		t.Fatalf("a lift beyond %d days was taken", MaxLiftDays)
	}
	if _, err := h.Lift(ctx, uid, "", "no", orders.Staff{Email: "jo@example.co.uk"}); err == nil {
		t.Fatal("a two-letter reason was taken")
	}
	s, err := h.Lift(ctx, uid, "", "Paying by the end of the week", orders.Staff{Email: "jo@example.co.uk"})
	if err != nil || s.Held || s.Lift == nil || s.Lift.Until != "2026-03-24" {
		t.Fatalf("lift: %+v, %v; want lifted until 2026-03-24 (%d days)", s, err, DefaultLiftDays)
	}
	if len(f.audit) != 1 || f.audit[0].Action != "lift credit hold" || f.audit[0].Before["invoice"] != "INV-000003" || f.audit[0].After["reason"] != "Paying by the end of the week" {
		t.Fatalf("audit: %+v", f.audit)
	}
	if err := h.CheckOrder(ctx, uid); err != nil {
		t.Fatalf("refused while lifted: %v", err)
	}
	now = day("2026-03-24")
	if err := h.CheckOrder(ctx, uid); err != nil {
		t.Fatalf("refused on the lift's last day: %v", err)
	}
	now = day("2026-03-25")
	if err := h.CheckOrder(ctx, uid); err == nil {
		t.Fatal("the lift still holds the day after its last day")
	}
	f.invs[0].Paid = 5000
	if err := h.CheckOrder(ctx, uid); err != nil {
		t.Fatalf("refused once paid: %v", err)
	}
}
