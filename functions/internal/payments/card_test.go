package payments

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
)

func TestCardPaymentIDIsTheSameForOnePaymentIntent(t *testing.T) {
	t.Parallel()
	a, b := CardPaymentID("pi_3Abc"), CardPaymentID("pi_3Abc")
	if a != b || !regexp.MustCompile(`^PAY-[0-9A-F]{12}$`).MatchString(a) {
		t.Errorf("CardPaymentID: %s, %s: want one PAY- and 12 upper-case hex digits", a, b)
	}
	if CardPaymentID("pi_3Abd") == a {
		t.Error("two PaymentIntents share a payment id")
	}
	// sha256("pi_123") starts 8b bf 7c 44 c8 4a: the id is its first 6 bytes.
	if got := CardPaymentID("pi_123"); got != "PAY-8BBF7C44C84A" {
		t.Errorf("CardPaymentID(pi_123) = %s", got)
	}
}

// TestRecordCard: a card payment of what the invoice owes is allocated to it and pays the
// order; one that cannot be is recorded unallocated with its flag and the staff notice in
// the same write; one recorded already is answered as it is, recorded false.
func TestRecordCard(t *testing.T) {
	t.Parallel()
	at := day("2026-11-27")
	cancelled := invoicedOrder("TS-1", 1, 5000, true)
	cancelled.Status = orders.StatusCancelled
	paid := invoicedOrder("TS-1", 1, 5000, true)
	paid.InvoicePaid, paid.PaidAt = 5000, at
	uninvoiced := invoicedOrder("TS-1", 1, 5000, true)
	uninvoiced.Invoice = nil
	cases := []struct {
		name     string
		order    orders.Order
		amount   int64
		currency string
		flag     string
	}{
		{"matching", invoicedOrder("TS-1", 1, 5000, true), 5000, "gbp", ""},
		{"short", invoicedOrder("TS-1", 1, 5000, true), 4999, "gbp", FlagAmount},
		{"in euros", invoicedOrder("TS-1", 1, 5000, true), 5000, "eur", FlagCurrency},
		{"cancelled", cancelled, 5000, "gbp", FlagCancelled},
		{"paid already", paid, 5000, "gbp", FlagAlreadyPaid},
		{"no invoice", uninvoiced, 5000, "gbp", FlagNoInvoice},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeStore{orders: []orders.Order{c.order}, payments: map[string]Payment{}, lose: []error{ErrInvoiceMoved}}
			s := Service{Store: f, Now: func() time.Time { return at }}
			notice := func(p Payment) []outbox.Message { return []outbox.Message{{ID: "TS-1/card-flagged-" + p.ID}} }
			cp := CardPayment{UID: "u1", OrderID: "TS-1", PaymentIntent: "pi_1", Amount: c.amount, Currency: c.currency, At: at, Notice: notice}
			p, recorded, err := s.RecordCard(context.Background(), cp)
			if err != nil || !recorded {
				t.Fatalf("recorded %v, %v", recorded, err)
			}
			if p.ID != CardPaymentID("pi_1") || p.Method != MethodCard || p.Reference != "pi_1" || p.Flag != c.flag || p.By != CardStaff {
				t.Errorf("payment %+v, want flag %q", p, c.flag)
			}
			w := f.writes[0]
			switch {
			case c.flag == "":
				if p.Allocated != 5000 || len(w.Lines) != 1 || !w.Lines[0].Covers || len(w.Messages) != 0 || !f.orders[0].Paid() {
					t.Errorf("matching: allocated %d, write %+v", p.Allocated, w)
				}
			default:
				if p.Allocated != 0 || len(w.Lines) != 0 || len(w.Messages) != 1 {
					t.Errorf("flagged: allocated %d, %d lines, %d messages", p.Allocated, len(w.Lines), len(w.Messages))
				}
			}
			// Delivered again: the id is taken.
			f.lose = []error{ErrPaymentMoved}
			again, recorded, err := s.RecordCard(context.Background(), cp)
			if err != nil || recorded || again.ID != p.ID || len(f.writes) != 1 {
				t.Errorf("again: recorded %v, %v, %d writes", recorded, err, len(f.writes))
			}
		})
	}
}
