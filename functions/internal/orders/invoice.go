package orders

import (
	"cmp"
	"fmt"
	"slices"
	"time"
	_ "time/tzdata" // invoice dates are London days, in a Lambda with no zone files too

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/pricing"
)

// Invoice is an order's UK VAT invoice (docs/invoices.md). It is issued once, right after
// the order is placed, with the next number of its own gap-free sequence, and never
// changes: the supplier and the payment terms are kept as they were on the day, so a later
// change of shop.json does not rewrite an invoice already issued.
type Invoice struct {
	Number int64 // 1, 2, 3, … with no gap: InvoiceNumber formats it
	// IssuedAt is the invoice date and the tax point: a VAT invoice issued before the
	// goods are sent fixes the time of supply at its own date.
	IssuedAt     time.Time
	Supplier     config.Business
	Rates        []RateTotal // highest rate first
	PaymentTerms string
	// TermsDays is how many days from the invoice date it is due in, as the terms were
	// when it was issued: PaymentDays on account, 0 for pro-forma (due at once). Invoices
	// issued before it was kept read as those same terms (store).
	TermsDays int
}

// RateTotal is what an invoice charges at one VAT rate: goods (after the coupon) and
// delivery at that rate, ex VAT, and their VAT.
type RateTotal struct {
	Rate     int // percent
	NetExVAT int64
	VAT      int64
}

// InvoiceNumber formats an invoice's number as buyers and the accounts package see it.
func InvoiceNumber(n int64) string { return fmt.Sprintf("INV-%06d", n) }

// PaymentDays is how long an order on account has to be paid, from the invoice date.
const PaymentDays = 30

// NewInvoice is o's VAT invoice with number n, issued at: the totals per VAT rate (each
// line's amount less its share of the coupon, shared as pricing shares it, and delivery
// at the shop's rate) and the payment terms of o's payment method.
func NewInvoice(o Order, shop config.Shop, n int64, at time.Time) Invoice {
	return Invoice{Number: n, IssuedAt: at, Supplier: shop.Business, Rates: RateTotals(o, shop.DefaultVATRate),
		PaymentTerms: paymentTerms(o, shop, at), TermsDays: TermsDaysOf(o)}
}

// TermsDaysOf is how many days o's invoice gives to pay: PaymentDays on account, none
// for pro-forma.
func TermsDaysOf(o Order) int {
	if o.ProForma() {
		return 0
	}
	return PaymentDays
}

// RateTotals adds o up per VAT rate, highest rate first; delivery is charged at
// deliveryRate. The rates' net amounts add up to o.NetExVAT and their VAT to o.VAT.
func RateTotals(o Order, deliveryRate int) []RateTotal {
	amounts := make([]int64, len(o.Lines))
	for i, l := range o.Lines {
		amounts[i] = l.LineAmount
	}
	shares := pricing.ShareCoupon(amounts, o.CouponDiscount)
	by := map[int]*RateTotal{}
	at := func(rate int) *RateTotal {
		if by[rate] == nil {
			by[rate] = &RateTotal{Rate: rate}
		}
		return by[rate]
	}
	for i, l := range o.Lines {
		r := at(l.VATRate)
		r.NetExVAT += l.LineAmount - shares[i]
		r.VAT += l.VAT
	}
	if o.DeliveryCharge > 0 || o.DeliveryVAT > 0 {
		r := at(deliveryRate)
		r.NetExVAT += o.DeliveryCharge
		r.VAT += o.DeliveryVAT
	}
	out := make([]RateTotal, 0, len(by))
	for _, r := range by {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b RateTotal) int { return cmp.Compare(b.Rate, a.Rate) })
	return out
}

// london is the time zone of invoice dates: a UK business's calendar day.
var london = func() *time.Location {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		return time.UTC
	}
	return loc
}()

// InvoiceDate formats t as an invoice date: the calendar day in London.
func InvoiceDate(t time.Time) string { return t.In(london).Format("2 January 2006") }

// paymentTerms says how and when o is to be paid.
func paymentTerms(o Order, shop config.Shop, at time.Time) string {
	if o.Billing != nil && o.Billing.PaymentMethod == account.PayProForma {
		return ProFormaTerms(o, shop.BankTransfer)
	}
	if o.Billing != nil && o.Billing.PaymentMethod == account.PayByCard {
		return CardTerms(o)
	}
	return fmt.Sprintf("On account: payment of %s is due within %d days of the invoice date, by %s.",
		Pounds(o.TotalIncVAT), PaymentDays, InvoiceDate(at.AddDate(0, 0, PaymentDays)))
}

// CardTerms is how card order o is paid: its total by card, through Pay now on the order's
// page (docs/payments.md). The invoice's payment terms and the order confirmation say it.
func CardTerms(o Order) string {
	return fmt.Sprintf("Card: please pay %s by card (Pay now on the order's page), quoting %s if you ask us about it. "+
		"We dispatch as soon as your payment reaches us.", Pounds(o.TotalIncVAT), o.ID)
}

// ProFormaTerms is how pro-forma order o is paid: its total by bank transfer to b, quoting
// the order number. The invoice's payment terms and the order confirmation email both say it.
func ProFormaTerms(o Order, b config.BankTransfer) string {
	return fmt.Sprintf("Pro-forma: please pay %s by bank transfer to %s, sort code %s, account %s, quoting %s. "+
		"We dispatch as soon as your payment reaches us.", Pounds(o.TotalIncVAT), b.AccountName, b.SortCode, b.AccountNumber, o.ID)
}
