package payments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
)

// CardStaff is who records card payments: the Stripe webhook, in the audit trails and
// as the payment's By. It is no member of staff (no uid).
var CardStaff = orders.Staff{Email: "stripe"}

// The flags of a card payment (Payment.Flag), each a sentence for staff. They are fixed
// sentences, so code may tell them apart; the staff email gives the amounts.
const (
	FlagCancelled   = "Its order was cancelled before the card payment arrived: the payment is refunded to the card."
	FlagAlreadyPaid = "Its order was paid already when the card payment arrived: it is not allocated."
	FlagAmount      = "The card payment is not what the order's invoice owed: it is not allocated."
	FlagCurrency    = "The card payment is not in pounds: it is not allocated."
	FlagNoInvoice   = "The card payment's order has no invoice to allocate it to: it is not allocated."
)

// CardPaymentID is the id of the card payment of PaymentIntent pi: "PAY-" and the upper
// hex of the first 6 bytes of its SHA-256. It is the same on every delivery of every
// event of pi, so recording it is one conditional Put however often it is tried.
func CardPaymentID(pi string) string {
	sum := sha256.Sum256([]byte(pi))
	return "PAY-" + strings.ToUpper(hex.EncodeToString(sum[:6]))
}

// CardPayment is a succeeded PaymentIntent as the webhook reads it.
type CardPayment struct {
	UID           string
	OrderID       string
	PaymentIntent string // pi_…
	Amount        int64  // in the currency's minor unit (pence for gbp)
	Currency      string // lower case, as Stripe writes it
	At            time.Time
	// Notice makes the staff emails of a flagged payment (p.Flag set), written in the
	// payment's transaction; nil writes none.
	Notice func(p Payment) []outbox.Message
}

// RecordCard records card payment c against account uid once: the payment of id
// CardPaymentID(c.PaymentIntent), allocated to its order's invoice in the same transaction
// when it is exactly what that invoice owes (the order is then paid, as "Mark paid" makes
// it), otherwise recorded unallocated with its Flag and the staff notice. recorded is false,
// with no error, when the payment was recorded already (by another delivery of this or
// another event of the same PaymentIntent): the payment answered is then the stored one.
// A race with staff (an allocation, a credit note, a cancellation) is read again and tried
// again, as allocate does; the flag is decided on what the retry reads.
func (s Service) RecordCard(ctx context.Context, c CardPayment) (Payment, bool, error) {
	if !account.ValidUID(c.UID) {
		return Payment{}, false, notFound("There is no such account.")
	}
	id := CardPaymentID(c.PaymentIntent)
	for attempt := 0; attempt < attempts; attempt++ {
		d, err := s.invoices(ctx, c.UID)
		if err != nil {
			return Payment{}, false, err
		}
		now := s.Now()
		p := Payment{ID: id, UID: c.UID, Method: MethodCard, Date: Day(c.At).Format(time.DateOnly), Amount: c.Amount,
			Reference: c.PaymentIntent, RecordedAt: now, By: CardStaff}
		inv, found := invoiceOfOrder(d.Invoices, c.OrderID)
		p.Flag = cardFlag(c, inv, found)
		var lines []Line
		if p.Flag == "" {
			lines = []Line{{Invoice: inv.Number, Amount: c.Amount}}
		}
		w := s.write(p, true, lines, d.Invoices, CardStaff, now)
		w.Audit.After["flag"] = p.Flag
		w.Audit.After["order"] = c.OrderID
		if p.Flag != "" && c.Notice != nil {
			w.Messages = c.Notice(w.Payment)
		}
		err = s.Store.WriteAllocation(ctx, w)
		switch {
		case err == nil:
			return w.Payment, true, nil
		case errors.Is(err, ErrPaymentMoved):
			// The id is taken: recorded already, by this delivery's twin.
			p, err := s.Store.Payment(ctx, c.UID, id)
			return p, false, err
		case errors.Is(err, ErrInvoiceMoved), errors.Is(err, ErrBusy):
		default:
			return Payment{}, false, err
		}
		pause(ctx, attempt)
	}
	return Payment{}, false, fmt.Errorf("record card payment %s: still racing after %d attempts", id, attempts)
}

// cardFlag says why card payment c cannot be allocated to its order's invoice inv (found
// false: the order has no invoice), "" when it can.
func cardFlag(c CardPayment, inv Invoice, found bool) string {
	switch {
	case found && (inv.Status == orders.StatusCancelling || inv.Status == orders.StatusCancelled):
		return FlagCancelled
	case !strings.EqualFold(c.Currency, "gbp"):
		return FlagCurrency
	case !found:
		return FlagNoInvoice
	case inv.Outstanding() <= 0:
		return FlagAlreadyPaid
	case c.Amount != inv.Outstanding():
		return FlagAmount
	}
	return ""
}

// invoiceOfOrder finds the invoice of order id among invs.
func invoiceOfOrder(invs []Invoice, id string) (Invoice, bool) {
	for _, inv := range invs {
		if inv.OrderID == id {
			return inv, true
		}
	}
	return Invoice{}, false
}
