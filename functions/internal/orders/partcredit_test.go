package orders

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
)

// invoicedOrder is a mixed order (three rates, a coupon, a delivery charge), invoiced and
// confirmed at version 2.
func invoicedOrder(t *testing.T) Order {
	t.Helper()
	o := mixedOrder(t, account.PayOnAccount, &basket.Coupon{Coupon: pricing.Coupon{ID: "WELCOME5", Kind: "fixed", AmountPence: 503}}, 1)
	o.UID = "u1"
	inv := NewInvoice(o, testShop, 42, now)
	o.Invoice, o.Status, o.Version = &inv, StatusConfirmed, 2
	if o.DeliveryCharge == 0 {
		t.Fatal("the test order needs a delivery charge")
	}
	return o
}

// credit issues c on o as note n and answers o with it.
func credit(t *testing.T, o Order, c CreditAction, n int64) Order {
	t.Helper()
	c.Version = o.Version
	note, err := PartCreditNote(o, c, n, now.Add(time.Hour), testShop.DefaultVATRate)
	if err != nil {
		t.Fatalf("credit %+v: %v", c, err)
	}
	note.Apply(o)
	o.CreditNotes = append(o.CreditNotes, note)
	o.Version++
	return o
}

func TestPartCreditsAddUpToTheInvoice(t *testing.T) {
	t.Parallel()
	o := invoicedOrder(t)
	// Every line in three steps of uneven units, the delivery in two: the notes, and the
	// cancellation's of what is left, credit exactly what the invoice charged.
	n := int64(1)
	for step := 0; step < 2; step++ {
		c := CreditAction{Reason: "Short of stock", Delivery: o.DeliveryCharge / 3}
		for i, l := range o.Lines {
			c.Lines = append(c.Lines, CreditUnits{Line: i, Units: l.Quantity/3 + step})
		}
		o = credit(t, o, c, n)
		n++
	}
	if p := orderCreditProblems(o); len(p) > 0 {
		t.Fatalf("after two part credits: %v", p)
	}
	o.Status, o.CancelledAt = StatusCancelled, now.Add(2*time.Hour)
	o.CreditNotes = append(o.CreditNotes, CancellationCreditNote(o, n))
	var net, vat, gross int64
	for _, c := range o.CreditNotes {
		net, vat, gross = net+c.NetExVAT(), vat+c.VAT(), gross+c.TotalIncVAT()
	}
	if net != o.NetExVAT || vat != o.VAT || gross != o.TotalIncVAT {
		t.Errorf("the notes credit %d + %d = %d, the invoice charged %d + %d = %d", net, vat, gross, o.NetExVAT, o.VAT, o.TotalIncVAT)
	}
	if p := orderCreditProblems(o); len(p) > 0 {
		t.Errorf("cancelled after part credits: %v", p)
	}
}

func TestPartCreditOfOneLineWithoutACoupon(t *testing.T) {
	t.Parallel()
	o := mixedOrder(t, account.PayOnAccount, nil, 1)
	inv := NewInvoice(o, testShop, 42, now)
	o.Invoice, o.Status = &inv, StatusPlaced
	l := o.Lines[1]
	c, err := PartCreditNote(o, CreditAction{Version: o.Version, Lines: []CreditUnits{{Line: 1, Units: 2}}, Reason: "Damaged pack"}, 9, now, 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Lines) != 1 || c.Lines[0].NetExVAT != 2*l.UnitPrice || c.Lines[0].Units != 2 || c.DeliveryExVAT != 0 {
		t.Errorf("note %+v: want 2 × %d", c, l.UnitPrice)
	}
	if len(c.Rates) != 1 || c.Rates[0].Rate != l.VATRate || c.Rates[0].NetExVAT != 2*l.UnitPrice {
		t.Errorf("rates %+v", c.Rates)
	}
	if want := "Lines removed before dispatch: 2 × " + l.SKU + ". Damaged pack"; c.Reason != want {
		t.Errorf("reason %q, want %q", c.Reason, want)
	}
}

func TestPartCreditRefusals(t *testing.T) {
	t.Parallel()
	o := invoicedOrder(t)
	all := CreditAction{Reason: "Short"}
	for i, l := range o.Lines {
		all.Lines = append(all.Lines, CreditUnits{Line: i, Units: l.Quantity})
	}
	dispatched := o
	dispatched.Status = StatusDispatched
	for _, tc := range []struct {
		name  string
		o     Order
		c     CreditAction
		field string // a FieldError's field, or "" for a ConflictError containing want
		want  string
	}{
		{"a stale version", o, CreditAction{Version: 1, Lines: []CreditUnits{{Line: 0, Units: 1}}}, "", "changed by someone else"},
		{"nothing", o, CreditAction{Version: 2}, "lines", ""},
		{"a line not on the order", o, CreditAction{Version: 2, Lines: []CreditUnits{{Line: 9, Units: 1}}}, "lines[0].line", ""},
		{"no units", o, CreditAction{Version: 2, Lines: []CreditUnits{{Line: 0, Units: 0}}}, "lines[0].units", ""},
		{"a line twice", o, CreditAction{Version: 2, Lines: []CreditUnits{{Line: 0, Units: 1}, {Line: 0, Units: 1}}}, "lines[1].line", ""},
		{"more units than are left", o, CreditAction{Version: 2, Lines: []CreditUnits{{Line: 0, Units: 7}}}, "", "has 6 units left to credit, not 7"},
		{"more delivery than charged", o, CreditAction{Version: 2, Delivery: o.DeliveryCharge + 1}, "delivery", ""},
		{"every unit before dispatch", o, CreditAction{Version: 2, Lines: all.Lines}, "", "cancel the order instead"},
		{"a cancelled order", func() Order { c := o; c.Status = StatusCancelled; return c }(), CreditAction{Version: 2, Delivery: 1}, "", "cancellation credits it in full"},
		{"no invoice yet", func() Order { c := o; c.Invoice = nil; return c }(), CreditAction{Version: 2, Delivery: 1}, "", "still being issued"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := PartCreditNote(tc.o, tc.c, 1, now, 20)
			var fe *shoperr.FieldError
			var ce *shoperr.ConflictError
			switch {
			case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field):
				t.Errorf("got %v, want a problem with %s", err, tc.field)
			case tc.field == "" && (!errors.As(err, &ce) || !strings.Contains(ce.Msg, tc.want)):
				t.Errorf("got %v, want a refusal saying %q", err, tc.want)
			}
		})
	}
	// After dispatch every unit may come back: a return of the whole order.
	all.Version = 2
	c, err := PartCreditNote(dispatched, all, 1, now, 20)
	if err != nil || !strings.HasPrefix(c.Reason, "Returned: ") {
		t.Errorf("a return of everything: %v, %q", err, c.Reason)
	}
	if got := Restocked(dispatched, CreditAction{Lines: []CreditUnits{{Line: 0, Units: 2, Restock: true}, {Line: 1, Units: 1}}}); len(got) != 1 || got[0].Quantity != 2 {
		t.Errorf("restocked after dispatch %+v, want line 0's 2 units only", got)
	}
	if got := Restocked(o, CreditAction{Lines: []CreditUnits{{Line: 0, Units: 2}, {Line: 1, Units: 1}}}); len(got) != 2 {
		t.Errorf("restocked before dispatch %+v, want both lines", got)
	}
}

func TestAppliedAndCreditOnAccount(t *testing.T) {
	t.Parallel()
	o := invoicedOrder(t)
	gross := o.TotalIncVAT
	o.InvoicePaid = gross - 100 // £1 still owed
	o = credit(t, o, CreditAction{Lines: []CreditUnits{{Line: 0, Units: 6}}, Reason: "Damaged"}, 1)
	note := o.CreditNotes[0]
	if note.Applied != 100 || note.OnAccount() != note.TotalIncVAT()-100 {
		t.Errorf("applied %d, on account %d of %d: want 100 applied", note.Applied, note.OnAccount(), note.TotalIncVAT())
	}
	if Owed(o) != 0 {
		t.Errorf("the invoice owes %d after the note, want 0", Owed(o))
	}
	o = credit(t, o, CreditAction{Delivery: 10, Reason: "Late"}, 2)
	if got := o.CreditNotes[1]; got.Applied != 0 || !strings.HasPrefix(got.Reason, "Delivery charge credited: ") {
		t.Errorf("a note on an invoice that owes nothing: applied %d, %q", got.Applied, got.Reason)
	}
	o.InvoicePaid = gross
	if p := orderCreditProblems(o); len(p) == 0 || !strings.Contains(strings.Join(p, " "), "allocated") {
		t.Errorf("an invoice paid beyond what it owes after its notes is not named: %v", p)
	}
}

func TestStockProblems(t *testing.T) {
	t.Parallel()
	o := invoicedOrder(t)
	sku := o.Lines[0].SKU
	initial := map[string]int{sku: 100}
	// Placed: the order holds its units. A part credit before dispatch gives 2 back; a
	// return not restocked gives none.
	stock := map[string]int{sku: 100 - o.Lines[0].Quantity}
	if p := StockProblems(initial, stock, []Order{o}); len(p) != 0 {
		t.Fatalf("placed: %v", p)
	}
	o = credit(t, o, CreditAction{Lines: []CreditUnits{{Line: 0, Units: 2}}, Reason: "Short"}, 1)
	stock[sku] += 2
	o.Status = StatusDispatched
	o = credit(t, o, CreditAction{Lines: []CreditUnits{{Line: 0, Units: 1, Restock: false}}, Reason: "Damaged"}, 2)
	if p := StockProblems(initial, stock, []Order{o}); len(p) != 0 {
		t.Fatalf("after a part credit and a return not restocked: %v", p)
	}
	stock[sku]++ // a unit back that no note put back
	if p := StockProblems(initial, stock, []Order{o}); len(p) != 1 || !strings.Contains(p[0], sku) {
		t.Errorf("a unit too many is not named: %v", p)
	}
}
