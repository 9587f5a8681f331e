package orders

import (
	"fmt"
	"slices"
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
	// Applied is the part of the gross that the invoice still owed when the note was
	// issued takes (Apply); the rest, OnAccount, is the buyer's credit on account.
	Applied int64
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
	// Restocked is how many of the units went back to stock: all of them before
	// dispatch (they never left), those staff marked after (a return).
	Restocked int
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

// lineCredits answers, line by line, each of o's lines' share of its coupon and what its
// credit notes have credited of it so far: units, net ex VAT and VAT.
func lineCredits(o Order) (shares []int64, units []int, net, vat []int64) {
	amounts := make([]int64, len(o.Lines))
	for i, l := range o.Lines {
		amounts[i] = l.LineAmount
	}
	shares = pricing.ShareCoupon(amounts, o.CouponDiscount)
	units = CreditedUnits(o, o.CreditNotes)
	net, vat = make([]int64, len(o.Lines)), make([]int64, len(o.Lines))
	for _, e := range o.CreditNotes {
		for _, l := range e.Lines {
			if l.Line >= 0 && l.Line < len(o.Lines) {
				net[l.Line], vat[l.Line] = net[l.Line]+l.NetExVAT, vat[l.Line]+l.VAT
			}
		}
	}
	return shares, units, net, vat
}

// CancellationCreditNote is credit note n for cancelled order o (invoiced): what the
// invoice charged less what o's earlier credit notes credited, line by line, the delivery
// charge and per VAT rate, so that after it the order is credited in full, to the penny.
// With no earlier note that is every unit of every line and the delivery charge, and its
// per-rate totals are the invoice's. It is dated when the cancellation began and gives
// its reason.
func CancellationCreditNote(o Order, n int64) CreditNote {
	c := CreditNote{Number: n, IssuedAt: o.CancelledAt, Reason: "Order cancelled.",
		DeliveryExVAT: o.DeliveryCharge, DeliveryVAT: o.DeliveryVAT}
	if o.CancelReason != "" {
		c.Reason = "Order cancelled: " + o.CancelReason
	}
	credited := map[int]RateTotal{}
	for _, e := range o.CreditNotes {
		c.DeliveryExVAT, c.DeliveryVAT = c.DeliveryExVAT-e.DeliveryExVAT, c.DeliveryVAT-e.DeliveryVAT
		for _, r := range e.Rates {
			t := credited[r.Rate]
			credited[r.Rate] = RateTotal{Rate: r.Rate, NetExVAT: t.NetExVAT + r.NetExVAT, VAT: t.VAT + r.VAT}
		}
	}
	if o.Invoice != nil {
		c.Supplier, c.Invoice, c.InvoiceDate = o.Invoice.Supplier, o.Invoice.Number, o.Invoice.IssuedAt
		for _, r := range o.Invoice.Rates {
			left := RateTotal{Rate: r.Rate, NetExVAT: r.NetExVAT - credited[r.Rate].NetExVAT, VAT: r.VAT - credited[r.Rate].VAT}
			if left.NetExVAT != 0 || left.VAT != 0 {
				c.Rates = append(c.Rates, left)
			}
		}
	}
	shares, units, net, vat := lineCredits(o)
	for i, l := range o.Lines {
		if units[i] >= l.Quantity && net[i] >= l.LineAmount-shares[i] && vat[i] >= l.VAT {
			continue // credited in full already
		}
		c.Lines = append(c.Lines, CreditLine{Line: i, SKU: l.SKU, Name: l.Name, PackSize: l.PackSize, Units: l.Quantity - units[i], Restocked: l.Quantity - units[i],
			UnitPrice: l.UnitPrice, VATRate: l.VATRate, NetExVAT: l.LineAmount - shares[i] - net[i], VAT: l.VAT - vat[i]})
	}
	return c
}

// RestockedUnits answers the units o's notes put back to stock of each of its lines.
func RestockedUnits(o Order) []int {
	units := make([]int, len(o.Lines))
	for _, c := range o.CreditNotes {
		for _, l := range c.Lines {
			if l.Line >= 0 && l.Line < len(units) {
				units[l.Line] += l.Restocked
			}
		}
	}
	return units
}

// HeldStock is the stock o holds of each of its lines: its units less those its notes put
// back (what a cancellation gives back).
func HeldStock(o Order) []Line {
	back := RestockedUnits(o)
	out := slices.Clone(o.Lines)
	for i := range out {
		out[i].Quantity -= back[i]
	}
	return out
}

// StockProblems checks the stock invariant (docs/invoices.md "Part of an order"): for
// each product, its stock + the units ordered on every order − the units credited back
// to stock = its initial stock. initial and stock are by SKU; all is every order that
// may hold a SKU of them. A cancelled order's units came back with its note, as every
// other credit's restocked units did. Each one broken is a sentence.
func StockProblems(initial, stock map[string]int, all []Order) []string {
	held := map[string]int{}
	for _, o := range all {
		for _, l := range HeldStock(o) {
			held[l.SKU] += l.Quantity
		}
	}
	var out []string
	for sku, n := range initial {
		if stock[sku]+held[sku] != n {
			out = append(out, fmt.Sprintf("%s: stock %d + %d units held by orders is not its initial %d.", sku, stock[sku], held[sku], n))
		}
	}
	slices.Sort(out)
	return out
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

// CreditNoteProblems checks the credit note invariants (docs/invoices.md "Credit notes")
// and answers each one broken, as a sentence; none means they hold. issued are the
// numbers recorded (in order), counter the last number issued, and all the orders to
// check, among them every order a number names:
//   - the numbers are 1 to counter, none missing or repeated;
//   - each number is on the order it names, and each note on an order has its number;
//   - a note credits its order's invoice, at most the units invoiced of each line, and
//     per VAT rate at most what the invoice charged (invoiced − credited = supplied ≥ 0);
//   - a cancelled order is credited in full: per rate, credited = invoiced;
//   - each note applies between 0 and its gross to the invoice, and what payments
//     allocated to the invoice is at most its gross less what its notes applied.
//
// The stock invariant (stock + units ordered − units credited back to stock = initial
// stock) needs the products, so StockProblems checks it.
func CreditNoteProblems(issued []IssuedNumber, counter int64, all []Order) []string {
	var out []string
	byRef := map[OrderRef]Order{}
	for _, o := range all {
		byRef[OrderRef{UID: o.UID, ID: o.ID}] = o
	}
	if int64(len(issued)) != counter {
		out = append(out, fmt.Sprintf("%d credit note numbers are recorded but the counter says %d.", len(issued), counter))
	}
	named := map[int64]OrderRef{}
	for i, n := range issued {
		if n.Number != int64(i+1) {
			out = append(out, fmt.Sprintf("Credit note number %d is recorded in place %d: a number is missing or repeated.", n.Number, i+1))
		}
		named[n.Number] = n.Order
		o, ok := byRef[n.Order]
		if !ok {
			out = append(out, fmt.Sprintf("%s names order %s, which is not there.", CreditNoteNumber(n.Number), n.Order.ID))
			continue
		}
		if !slices.ContainsFunc(o.CreditNotes, func(c CreditNote) bool { return c.Number == n.Number }) {
			out = append(out, fmt.Sprintf("%s names order %s, which does not carry it.", CreditNoteNumber(n.Number), o.ID))
		}
	}
	for _, o := range all {
		for _, c := range o.CreditNotes {
			if ref, ok := named[c.Number]; !ok || ref != (OrderRef{UID: o.UID, ID: o.ID}) {
				out = append(out, fmt.Sprintf("Order %s carries %s, which is not recorded as its own.", o.ID, CreditNoteNumber(c.Number)))
			}
		}
		out = append(out, orderCreditProblems(o)...)
	}
	return out
}

// orderCreditProblems checks one order's credit notes against its invoice.
func orderCreditProblems(o Order) []string {
	if len(o.CreditNotes) == 0 {
		if o.Status == StatusCancelled && o.Invoice != nil {
			return []string{fmt.Sprintf("Order %s is cancelled but has no credit note.", o.ID)}
		}
		return nil
	}
	if o.Invoice == nil {
		return []string{fmt.Sprintf("Order %s has credit notes but no invoice.", o.ID)}
	}
	var out []string
	var applied int64
	for _, c := range o.CreditNotes {
		applied += c.Applied
		if c.Applied < 0 || c.Applied > c.TotalIncVAT() {
			out = append(out, fmt.Sprintf("%s on order %s applies %s of its %s.", CreditNoteNumber(c.Number), o.ID, Pounds(c.Applied), Pounds(c.TotalIncVAT())))
		}
	}
	if o.InvoicePaid > o.TotalIncVAT-applied {
		out = append(out, fmt.Sprintf("Order %s: %s is allocated to its invoice, which owes %s after its credit notes.", o.ID,
			Pounds(o.InvoicePaid), Pounds(o.TotalIncVAT-applied)))
	}
	for _, c := range o.CreditNotes {
		if c.Invoice != o.Invoice.Number {
			out = append(out, fmt.Sprintf("%s on order %s credits %s, not the order's %s.", CreditNoteNumber(c.Number), o.ID,
				InvoiceNumber(c.Invoice), InvoiceNumber(o.Invoice.Number)))
		}
	}
	for i, units := range CreditedUnits(o, o.CreditNotes) {
		if units > o.Lines[i].Quantity {
			out = append(out, fmt.Sprintf("Order %s line %d (%s): %d units credited of %d invoiced.", o.ID, i+1, o.Lines[i].SKU, units, o.Lines[i].Quantity))
		}
	}
	credited := map[int]RateTotal{}
	for _, c := range o.CreditNotes {
		for _, r := range c.Rates {
			t := credited[r.Rate]
			t.NetExVAT, t.VAT = t.NetExVAT+r.NetExVAT, t.VAT+r.VAT
			credited[r.Rate] = t
		}
	}
	invoiced := map[int]RateTotal{}
	for _, r := range o.Invoice.Rates {
		invoiced[r.Rate] = r
	}
	for rate, c := range credited {
		inv := invoiced[rate]
		if c.NetExVAT > inv.NetExVAT || c.VAT > inv.VAT {
			out = append(out, fmt.Sprintf("Order %s at %d%%: %s (VAT %s) credited of %s (VAT %s) invoiced.", o.ID, rate,
				Pounds(c.NetExVAT), Pounds(c.VAT), Pounds(inv.NetExVAT), Pounds(inv.VAT)))
		}
	}
	if o.Status == StatusCancelled {
		for rate, inv := range invoiced {
			if c := credited[rate]; c.NetExVAT != inv.NetExVAT || c.VAT != inv.VAT {
				out = append(out, fmt.Sprintf("Order %s is cancelled but at %d%% %s (VAT %s) is credited of %s (VAT %s) invoiced.", o.ID, rate,
					Pounds(c.NetExVAT), Pounds(c.VAT), Pounds(inv.NetExVAT), Pounds(inv.VAT)))
			}
		}
	}
	return out
}
