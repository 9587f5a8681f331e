package mail

import (
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/payments"
)

// TestCardOrderConfirmationSaysPayNow: a card order's confirmation says "card", the card
// terms and links its order page to Pay now; no bank details; the new-order notice says
// card. Once paid, no Pay now.
func TestCardOrderConfirmationSaysPayNow(t *testing.T) {
	t.Parallel()
	shop := testShop(t)
	o := order()
	o.Billing.PaymentMethod = account.PayByCard
	n := Notices{Shop: shop, SiteURL: "https://shop.example"}
	msgs := n.Placed(o)
	c := byKind(t, msgs, outbox.KindConfirmation)
	link := "https://shop.example/account/orders/?id=TS-100042"
	has(t, "confirmation text", flat(c.Text), "Payment: card", orders.CardTerms(o), "Pay now: "+link)
	has(t, "confirmation HTML", c.HTML, `href="`+link+`"`, "Pay now")
	for _, body := range []string{c.Text, shown(c.HTML)} {
		lacks(t, "a card confirmation", body, "sort code", "pro-forma")
	}
	has(t, "new-order text", flat(byKind(t, msgs, outbox.KindNewOrder).Text), "card (dispatch once paid)")

	o.PaidAt = time.Now()
	lacks(t, "a paid card order's confirmation", byKind(t, n.Placed(o), outbox.KindConfirmation).Text, "Pay now:")
}

// TestCardRefundNotices: the buyer's says the amount, the card and 5 to 10 working days;
// staff's names the refund, why it failed and where the money is now.
func TestCardRefundNotices(t *testing.T) {
	t.Parallel()
	shop := testShop(t)
	n := Notices{Shop: shop}
	r := payments.Refund{ID: "REF-0A1B2C3D4E5F", UID: "uid-1", Amount: 5717, OrderID: "TS-100042", PaymentIntent: "pi_1", Failure: "The card could not take the refund (expired or canceled card)."}
	m := n.CardRefunded(r, "buyer@cards.test")
	if m.ID != "TS-100042/card-refund-REF-0A1B2C3D4E5F" || m.To != "buyer@cards.test" || !strings.Contains(m.Subject, "£57.17") {
		t.Fatalf("buyer's notice %q to %q: %q", m.ID, m.To, m.Subject)
	}
	has(t, "buyer's notice", flat(m.Text), "£57.17", "card you paid order TS-100042 with", "5 to 10 working days", "REF-0A1B2C3D4E5F")
	has(t, "buyer's notice HTML", m.HTML, "5 to 10 working days")
	s, ok := n.CardRefundFailed(r, payments.Payment{ID: "PAY-ABCDEF123456"})
	if !ok || s.To != shop.Contact.Email {
		t.Fatalf("staff's notice to %q", s.To)
	}
	has(t, "staff's notice", flat(s.Text), "REF-0A1B2C3D4E5F", "expired or canceled card", "PAY-ABCDEF123456", "TS-100042")
}
