package orders

import (
	"fmt"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/pricing"
)

// CreditNote is a VAT credit note (docs/invoices.md "Credit notes"): it credits lines of
// an order's VAT invoice, with the next number of its own gap-free sequence, and never
// changes. The invoice it credits is never changed either. A cancellation credits every
// unit of every line and the delivery charge; the lines a note holds say exactly what it
// credits, so a note can also credit part of an order.
type CreditNote struct {
	Number   int64 // 1, 2, 3, … with no gap: CreditNoteNumber formats it
	IssuedAt time.Time
	// Supplier is the supplier as the credited invoice names it.
	Supplier config.Business
	// Invoice and InvoiceDate are the number and date of the invoice credited.
	Invoice     int64
	InvoiceDate time.Time
	Lines       []CreditLine
	// DeliveryExVAT and DeliveryVAT are the delivery charge credited and its VAT.
	DeliveryExVAT int64
	DeliveryVAT   int64
	Rates         []RateTotal // per VAT rate credited, highest rate first
	Reason        string
}

// CreditLine is what a credit note credits of one line of the order.
type CreditLine struct {
	Line      int // the line's index in the order
	SKU       string
	Name      string
	PackSize  int
	Units     int   // units credited, at most the units invoiced
	UnitPrice int64 // ex VAT, the price charged
	VATRate   int
	// NetExVAT is the amount credited ex VAT (after the line's share of the coupon) and
	// VAT the VAT credited on it.
	NetExVAT int64
	VAT      int64
}

// CreditNoteNumber formats a credit note's number as buyers and the accounts package
// see it.
func CreditNoteNumber(n int64) string { return fmt.Sprintf("CN-%06d", n) }

// NetExVAT is the total credited ex VAT.
func (c CreditNote) NetExVAT() int64 {
	var t int64
	for _, r := range c.Rates {
		t += r.NetExVAT
	}
	return t
}

// VAT is the VAT credited.
func (c CreditNote) VAT() int64 {
	var t int64
	for _, r := range c.Rates {
		t += r.VAT
	}
	return t
}

// TotalIncVAT is the total credited inc VAT.
func (c CreditNote) TotalIncVAT() int64 { return c.NetExVAT() + c.VAT() }

// CancellationCreditNote is credit note n for cancelled order o (invoiced): every unit
// of every line and the delivery charge, so its per-rate totals are the invoice's, to
// the penny. It is dated when the cancellation began and gives its reason.
func CancellationCreditNote(o Order, n int64) CreditNote {
	c := CreditNote{Number: n, IssuedAt: o.CancelledAt, Reason: "Order cancelled.",
		DeliveryExVAT: o.DeliveryCharge, DeliveryVAT: o.DeliveryVAT}
	if o.CancelReason != "" {
		c.Reason = "Order cancelled: " + o.CancelReason
	}
	if o.Invoice != nil {
		c.Supplier, c.Invoice, c.InvoiceDate = o.Invoice.Supplier, o.Invoice.Number, o.Invoice.IssuedAt
		c.Rates = o.Invoice.Rates
	}
	amounts := make([]int64, len(o.Lines))
	for i, l := range o.Lines {
		amounts[i] = l.LineAmount
	}
	shares := pricing.ShareCoupon(amounts, o.CouponDiscount)
	for i, l := range o.Lines {
		c.Lines = append(c.Lines, CreditLine{Line: i, SKU: l.SKU, Name: l.Name, PackSize: l.PackSize, Units: l.Quantity,
			UnitPrice: l.UnitPrice, VATRate: l.VATRate, NetExVAT: l.LineAmount - shares[i], VAT: l.VAT})
	}
	return c
}

// CreditedUnits answers the units the notes credit of each of o's lines.
func CreditedUnits(o Order, notes []CreditNote) []int {
	units := make([]int, len(o.Lines))
	for _, c := range notes {
		for _, l := range c.Lines {
			if l.Line >= 0 && l.Line < len(units) {
				units[l.Line] += l.Units
			}
		}
	}
	return units
}
