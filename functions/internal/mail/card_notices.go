package mail

import (
	"fmt"
	htmltemplate "html/template"
	"strings"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
)

// KindCardFlagged is the staff notice of a card payment the webhook could not allocate
// to its order's invoice (docs/payments.md "Flags"): its outbox id is the order's and
// the payment's, so the one payment writes it once.
const KindCardFlagged = "card-flagged"

// CardFlag is a flagged card payment as its staff notice tells it.
type CardFlag struct {
	OrderID       string
	Payment       string // PAY-…
	PaymentIntent string // pi_…
	Amount        int64  // in the currency's minor unit
	Currency      string // lower case, as Stripe writes it
	Flag          string // payments.Flag*: why staff must look
	// Refunding says the payment is being refunded to the card whole (its order was
	// cancelled before it arrived).
	Refunding bool
}

// cardView is what the card-flagged templates show.
type cardView struct {
	Subject string
	Shop    shopView
	Order   string
	Payment string
	Intent  string
	Amount  string
	Flag    string
	// Refunding: the payment goes back to the card, and staff need only check it did.
	Refunding bool
}

// CardFlagged is the notice to the shop's contact address (where the new-order notices
// go) of card payment f that needs staff; none when the shop has no contact address.
func (n Notices) CardFlagged(f CardFlag) []outbox.Message {
	to := strings.TrimSpace(n.Shop.Contact.Email)
	if to == "" {
		return nil
	}
	amount := orders.Pounds(f.Amount)
	if !strings.EqualFold(f.Currency, "gbp") {
		amount = fmt.Sprintf("%d.%02d %s", f.Amount/100, f.Amount%100, strings.ToUpper(f.Currency))
	}
	subject := oneLine(fmt.Sprintf("Card payment %s for order %s needs you: %s", f.Payment, f.OrderID, amount))
	if f.Refunding {
		subject = oneLine(fmt.Sprintf("Card payment %s for cancelled order %s is being refunded: %s", f.Payment, f.OrderID, amount))
	}
	b, c := n.Shop.Business, n.Shop.Contact
	v := cardView{Subject: subject, Order: f.OrderID, Payment: f.Payment, Intent: f.PaymentIntent, Amount: amount, Flag: f.Flag, Refunding: f.Refunding,
		Shop: shopView{TradingName: b.TradingName, LegalName: b.LegalName, RegisteredIn: b.RegisteredIn, RegisteredAddress: b.RegisteredAddress,
			CompanyNumber: b.CompanyNumber, VATNumber: b.VATNumber, Address: c.Address, Phone: c.Phone, Email: c.Email, Hours: c.Hours}}
	var tb, hb strings.Builder
	text, html := "", ""
	if err := textTemplates.ExecuteTemplate(&tb, KindCardFlagged, v); err == nil {
		text = tb.String()
	}
	if err := htmlTemplates.ExecuteTemplate(&hb, KindCardFlagged, v); err == nil {
		html = hb.String()
	}
	if text == "" || html == "" {
		// As message does: the notice goes out short rather than not at all.
		text = fmt.Sprintf("%s\n\n%s\nPaymentIntent %s.\n", subject, f.Flag, f.PaymentIntent)
		html = "<!DOCTYPE html><html><body><p>" + htmltemplate.HTMLEscapeString(text) + "</p></body></html>"
	}
	return []outbox.Message{{ID: outbox.ID(f.OrderID, KindCardFlagged+"-"+f.Payment), To: to, Subject: subject, Text: text, HTML: html}}
}
