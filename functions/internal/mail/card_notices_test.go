package mail

import (
	"strings"
	"testing"
)

// TestCardFlaggedNotice: the staff notice of a flagged card payment goes to the shop's
// contact address, once per payment (its id), names the order, the payment, the
// PaymentIntent and the flag, and renders from its templates (not the short fallback).
func TestCardFlaggedNotice(t *testing.T) {
	t.Parallel()
	n := Notices{Shop: testShop(t)}
	for _, f := range []CardFlag{
		{OrderID: "TS-100001", Payment: "PAY-0123456789AB", PaymentIntent: "pi_1", Amount: 4999, Currency: "gbp",
			Flag: "The card payment is not what the order's invoice owed: it is not allocated."},
		{OrderID: "TS-100002", Payment: "PAY-0123456789AC", PaymentIntent: "pi_2", Amount: 5000, Currency: "gbp",
			Flag: "Its order was cancelled before the card payment arrived: the payment is refunded to the card.", Refunding: true},
		{OrderID: "TS-100003", Payment: "PAY-0123456789AD", PaymentIntent: "pi_3", Amount: 5000, Currency: "eur", Flag: "Not in pounds."},
	} {
		msgs := n.CardFlagged(f)
		if len(msgs) != 1 {
			t.Fatalf("%d messages", len(msgs))
		}
		m := msgs[0]
		if m.ID != f.OrderID+"/card-flagged-"+f.Payment || m.To != n.Shop.Contact.Email {
			t.Errorf("id %s to %s", m.ID, m.To)
		}
		for _, body := range []string{m.Text, shown(m.HTML)} {
			has(t, "notice", body, f.OrderID, f.Payment, f.PaymentIntent, strings.Fields(f.Flag)[0])
			if !strings.Contains(body, n.Shop.Business.TradingName) {
				t.Errorf("the notice lacks the footer (the templates' fallback?): %s", body)
			}
		}
		if f.Refunding && !strings.Contains(m.Subject, "cancelled order") {
			t.Errorf("subject %q", m.Subject)
		}
		if f.Currency == "eur" && !strings.Contains(m.Subject, "50.00 EUR") {
			t.Errorf("subject %q", m.Subject)
		}
	}
}
