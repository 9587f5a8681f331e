package mail

import (
	"fmt"
	htmltemplate "html/template"
	"strings"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/payments"
)

// The outbox kinds of the card refund emails (issue 36): each message's id names its
// refund, as an order may have several.
const (
	KindCardRefund       = "card-refund"
	KindCardRefundFailed = "card-refund-failed"
)

// RefundDays is when a refund to a card reaches the buyer's account, as the email says.
const RefundDays = "5 to 10 working days"

// CardRefunded is the buyer's notice, to to, that refund r went back to their card: the
// amount, the card and when to expect it.
func (n Notices) CardRefunded(r payments.Refund, to string) outbox.Message {
	what := "your card payment"
	if r.OrderID != "" {
		what = "the card you paid order " + r.OrderID + " with"
	}
	subject := oneLine(fmt.Sprintf("Refund of %s to your card", orders.Pounds(r.Amount)))
	paras := []string{
		fmt.Sprintf("We have refunded %s to %s (refund %s).", orders.Pounds(r.Amount), what, r.ID),
		fmt.Sprintf("Card refunds usually reach your account within %s; your bank's statement shows it as a refund from %s.",
			RefundDays, n.Shop.Business.TradingName),
		fmt.Sprintf("Questions to %s or %s.", n.Shop.Contact.Email, n.Shop.Contact.Phone),
	}
	return n.plain(outbox.ID(refundThing(r), KindCardRefund+"-"+r.ID), to, n.Shop.Contact.Email, subject, paras)
}

// CardRefundFailed is staff's notice that refund r to a card failed and its money is
// back on the account as credit document back; ok is false where the shop has no
// contact address to send it to.
func (n Notices) CardRefundFailed(r payments.Refund, back payments.Payment) (outbox.Message, bool) {
	to := strings.TrimSpace(n.Shop.Contact.Email)
	if to == "" {
		return outbox.Message{}, false
	}
	subject := oneLine(fmt.Sprintf("Card refund %s of %s failed", r.ID, orders.Pounds(r.Amount)))
	order := ""
	if r.OrderID != "" {
		order = " for order " + r.OrderID
	}
	paras := []string{
		fmt.Sprintf("The refund %s of %s%s to the card of payment %s failed: %s", r.ID, orders.Pounds(r.Amount), order, r.PaymentIntent, r.Failure),
		fmt.Sprintf("The money is back on the buyer's account (%s) as %s, unallocated. Refund it another way (bank transfer) or allocate it: the account's payments page in the back office.",
			r.UID, back.ID),
	}
	return n.plain(outbox.ID(refundThing(r), KindCardRefundFailed+"-"+r.ID), to, "", subject, paras), true
}

// refundThing is the first part of a refund email's outbox id: its order, else the refund.
func refundThing(r payments.Refund) string {
	if r.OrderID != "" {
		return r.OrderID
	}
	return r.ID
}

// plain makes a short email of paragraphs, as text and as simple HTML (escaped).
func (n Notices) plain(id, to, replyTo, subject string, paras []string) outbox.Message {
	var text, html strings.Builder
	html.WriteString("<!DOCTYPE html><html><body>")
	for _, p := range paras {
		text.WriteString(p + "\n\n")
		html.WriteString("<p>" + htmltemplate.HTMLEscapeString(p) + "</p>")
	}
	text.WriteString(n.Shop.Business.TradingName + "\n")
	html.WriteString("<p>" + htmltemplate.HTMLEscapeString(n.Shop.Business.TradingName) + "</p></body></html>")
	return outbox.Message{ID: id, To: to, ReplyTo: replyTo, Subject: subject, Text: text.String(), HTML: html.String()}
}
