package orders

import (
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/pricing"
)

// cancelledWithNote is a mixed order (three rates, a coupon, delivery), invoiced and
// cancelled, with its cancellation credit note n.
func cancelledWithNote(t *testing.T, n int64) Order {
	t.Helper()
	o := mixedOrder(t, account.PayOnAccount, &basket.Coupon{Coupon: pricing.Coupon{ID: "WELCOME5", Kind: "fixed", AmountPence: 503}}, 1)
	o.UID = "u1"
	inv := NewInvoice(o, testShop, 42, now)
	o.Invoice, o.Status, o.CancelledAt, o.CancelReason = &inv, StatusCancelled, now.Add(3600e9), "Short of stock"
	o.CreditNotes = []CreditNote{CancellationCreditNote(o, n)}
	return o
}

func TestCancellationCreditNoteCreditsTheInvoiceInFull(t *testing.T) {
	t.Parallel()
	o := cancelledWithNote(t, 7)
	c := o.CreditNotes[0]
	if c.NetExVAT() != o.NetExVAT || c.VAT() != o.VAT || c.TotalIncVAT() != o.TotalIncVAT {
		t.Fatalf("credited %d + %d = %d, the order is %d + %d = %d", c.NetExVAT(), c.VAT(), c.TotalIncVAT(), o.NetExVAT, o.VAT, o.TotalIncVAT)
	}
	var lines, vat int64
	for _, l := range c.Lines {
		lines += l.NetExVAT
		vat += l.VAT
	}
	if lines+c.DeliveryExVAT != o.NetExVAT || vat+c.DeliveryVAT != o.VAT {
		t.Errorf("the lines and delivery credited (%d, VAT %d) do not add up to the order (%d, VAT %d)", lines+c.DeliveryExVAT, vat+c.DeliveryVAT, o.NetExVAT, o.VAT)
	}
	if c.Invoice != 42 || c.Reason != "Order cancelled: Short of stock" || !c.IssuedAt.Equal(o.CancelledAt) || c.Supplier != o.Invoice.Supplier {
		t.Errorf("credit note %+v", c)
	}
	if CreditNoteNumber(c.Number) != "CN-000007" {
		t.Errorf("number %s", CreditNoteNumber(c.Number))
	}
}

func TestCreditNoteProblems(t *testing.T) {
	t.Parallel()
	ref := func(o Order) OrderRef { return OrderRef{UID: o.UID, ID: o.ID} }
	for _, tc := range []struct {
		name  string
		spoil func(issued []IssuedNumber, o *Order) ([]IssuedNumber, int64)
		want  string // "" for none
	}{
		{"they hold", func(is []IssuedNumber, _ *Order) ([]IssuedNumber, int64) { return is, 1 }, ""},
		{"a number missing", func(is []IssuedNumber, _ *Order) ([]IssuedNumber, int64) { return nil, 1 }, "counter says 1"},
		{"a number repeated", func(is []IssuedNumber, _ *Order) ([]IssuedNumber, int64) { return append(is, is[0]), 2 }, "missing or repeated"},
		{"a note not recorded", func(is []IssuedNumber, o *Order) ([]IssuedNumber, int64) {
			o.CreditNotes = append(o.CreditNotes, o.CreditNotes[0])
			o.CreditNotes[1].Number = 2
			return is, 1
		}, "not recorded"},
		{"more units credited than invoiced", func(is []IssuedNumber, o *Order) ([]IssuedNumber, int64) {
			o.CreditNotes[0].Lines[0].Units++
			return is, 1
		}, "units credited of"},
		{"a cancelled order not credited in full", func(is []IssuedNumber, o *Order) ([]IssuedNumber, int64) {
			o.CreditNotes[0].Rates = o.CreditNotes[0].Rates[1:]
			return is, 1
		}, "is cancelled but at"},
		{"a cancelled order with no note", func(_ []IssuedNumber, o *Order) ([]IssuedNumber, int64) {
			o.CreditNotes = nil
			return nil, 0
		}, "has no credit note"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := cancelledWithNote(t, 1)
			issued, counter := tc.spoil([]IssuedNumber{{Number: 1, Order: ref(o)}}, &o)
			got := strings.Join(CreditNoteProblems(issued, counter, []Order{o}), "\n")
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("want a problem with %q, got:\n%s", tc.want, got)
			}
		})
	}
}

// A credit note credits an invoice: an order whose invoice is still being issued cannot
// be cancelled yet, and says so; once invoiced it can.
func TestCancelWaitsForTheInvoice(t *testing.T) {
	t.Parallel()
	o := mixedOrder(t, account.PayOnAccount, nil, 1)
	o.Status, o.Version = StatusPlaced, 1
	err := Allowed(o, ActionCancel)
	if err == nil || !strings.Contains(err.Error(), "VAT invoice is still being issued: try the cancellation again in a minute.") {
		t.Fatalf("cancel before the invoice: %v", err)
	}
	inv := NewInvoice(o, testShop, 1, now)
	o.Invoice = &inv
	if err := Allowed(o, ActionCancel); err != nil {
		t.Fatalf("cancel of an invoiced order: %v", err)
	}
}

// After a credit note for part of the order (issue 35, item 2), the cancellation's note
// credits what is left, so that the order is credited in full, to the penny.
func TestCancellationCreditsWhatEarlierNotesLeft(t *testing.T) {
	t.Parallel()
	o := cancelledWithNote(t, 1)
	full := o.CreditNotes[0]
	// A first note of 2 units of line 0 and half the delivery charge.
	l0 := full.Lines[0]
	part := CreditNote{Number: 1, Invoice: full.Invoice, DeliveryExVAT: o.DeliveryCharge / 2, DeliveryVAT: o.DeliveryVAT / 2,
		Lines: []CreditLine{{Line: 0, Units: 2, UnitPrice: l0.UnitPrice, VATRate: l0.VATRate, NetExVAT: 2 * l0.UnitPrice, VAT: 2 * l0.UnitPrice * int64(l0.VATRate) / 100}}}
	part.Rates = []RateTotal{{Rate: l0.VATRate, NetExVAT: part.Lines[0].NetExVAT, VAT: part.Lines[0].VAT},
		{Rate: testShop.DefaultVATRate, NetExVAT: part.DeliveryExVAT, VAT: part.DeliveryVAT}}
	if l0.VATRate == testShop.DefaultVATRate {
		part.Rates = []RateTotal{{Rate: l0.VATRate, NetExVAT: part.Lines[0].NetExVAT + part.DeliveryExVAT, VAT: part.Lines[0].VAT + part.DeliveryVAT}}
	}
	o.CreditNotes = []CreditNote{part}
	rest := CancellationCreditNote(o, 2)
	o.CreditNotes = append(o.CreditNotes, rest)
	if p := CreditNoteProblems([]IssuedNumber{{1, OrderRef{o.UID, o.ID}}, {2, OrderRef{o.UID, o.ID}}}, 2, []Order{o}); len(p) != 0 {
		t.Fatalf("after the part and the rest: %v", p)
	}
	if rest.Lines[0].Units != l0.Units-2 || rest.TotalIncVAT()+part.TotalIncVAT() != o.TotalIncVAT {
		t.Errorf("the rest credits %d units of line 0 (want %d) and %d with the part's %d (the order is %d)",
			rest.Lines[0].Units, l0.Units-2, rest.TotalIncVAT(), part.TotalIncVAT(), o.TotalIncVAT)
	}
}
