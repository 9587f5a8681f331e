package orders

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/text"
)

// Part of an order (docs/invoices.md "Part of an order"): before dispatch staff take lines
// or units off an order (short stock, a damaged pack), after dispatch they record a
// return, and either way they may credit the delivery charge in whole or part. Each is a
// credit note of the same sequence as a cancellation's, issued with everything it moves in
// one transaction; the order keeps its lines as ordered.

// CreditReason is the reason staff give for a part credit (required: the note prints it).
var CreditReason = text.Field{Name: "reason", Label: "Reason", Min: 3, Max: 200}

// MaxCreditLines bounds the lines one part credit moves: its transaction writes the
// counter, the order, the number, each restocked product, the account, the credit on
// account, the audit entry and the email, within DynamoDB's 100 items. A credit of more
// lines is refused with a sentence (credit the rest in a second note).
const MaxCreditLines = 80

// CreditUnits is one line of a part credit: units of the order's line Line (its index),
// and whether they go back to stock (always before dispatch: they never left).
type CreditUnits struct {
	Line    int
	Units   int
	Restock bool
}

// CreditAction is staff's part credit of one order, on the version they saw.
type CreditAction struct {
	Version  int64
	Lines    []CreditUnits
	Delivery int64 // the delivery charge credited, pence ex VAT
	Reason   string
	By       Staff
}

// Dispatched says o's goods have left: a credit of o is a return.
func (o Order) Dispatched() bool {
	return o.Status == StatusDispatched || o.Status == StatusCompleted
}

// ToSend is how many units of each line are to be sent (before dispatch) or were
// supplied (after): ordered less credited.
func (o Order) ToSend() []int {
	units := CreditedUnits(o, o.CreditNotes)
	out := make([]int, len(o.Lines))
	for i, l := range o.Lines {
		out[i] = l.Quantity - units[i]
	}
	return out
}

// DeliveryCredited is the delivery charge o's notes credit, ex VAT and its VAT.
func (o Order) DeliveryCredited() (net, vat int64) {
	for _, c := range o.CreditNotes {
		net, vat = net+c.DeliveryExVAT, vat+c.DeliveryVAT
	}
	return net, vat
}

// share is part of whole: whole × part / of, rounded half up (of > 0).
func share(whole int64, part, of int64) int64 {
	if of <= 0 {
		return 0
	}
	return (2*whole*part + of) / (2 * of)
}

// deliveryRate is the VAT rate o's delivery was charged at: the invoice's rate that gives
// its VAT, else fallback (the shop's rate today).
func deliveryRate(o Order, fallback int) int {
	if o.Invoice != nil && o.DeliveryCharge > 0 {
		for _, r := range o.Invoice.Rates {
			if pricing.RoundPercent(o.DeliveryCharge, r.Rate) == o.DeliveryVAT {
				return r.Rate
			}
		}
	}
	return fallback
}

// PartCreditNote is credit note n of c on o at now, or why it may not be issued (a
// *shoperr.FieldError naming the field, or a *shoperr.ConflictError saying why in a
// sentence: a stale version, an order in the wrong state, more units than are left, every
// unit left). fallbackRate is the delivery's VAT rate where the invoice does not show it.
//
// Amounts: a line's credit is its share of what the invoice charged for it (its amount
// less its share of the coupon, and its VAT) in proportion to units, worked out on the
// units credited so far, so the notes of a line add up to exactly what it was charged when
// every unit is credited. With no coupon that is units × the unit price. The delivery is
// the same: the amount asked, its VAT in proportion to the delivery's.
func PartCreditNote(o Order, c CreditAction, n int64, now time.Time, fallbackRate int) (CreditNote, error) {
	if c.Version != o.Version {
		return CreditNote{}, ErrStale(o)
	}
	if err := CreditAllowed(o); err != nil {
		return CreditNote{}, err
	}
	if len(c.Lines) == 0 && c.Delivery == 0 {
		return CreditNote{}, &shoperr.FieldError{Field: "lines", Problem: "Give the units of at least one line, or a delivery amount, to credit."}
	}
	if len(c.Lines) > MaxCreditLines {
		return CreditNote{}, &shoperr.FieldError{Field: "lines", Problem: fmt.Sprintf("Credit at most %d lines at once: credit the rest in a second note.", MaxCreditLines)}
	}
	left := o.ToSend()
	taking := make([]int, len(o.Lines))
	for i, l := range c.Lines {
		switch {
		case l.Line < 0 || l.Line >= len(o.Lines):
			return CreditNote{}, &shoperr.FieldError{Field: fmt.Sprintf("lines[%d].line", i), Problem: fmt.Sprintf("The line must be one of the order's lines, 0 to %d.", len(o.Lines)-1)}
		case l.Units <= 0:
			return CreditNote{}, &shoperr.FieldError{Field: fmt.Sprintf("lines[%d].units", i), Problem: "The units to credit must be at least 1."}
		case taking[l.Line] > 0:
			return CreditNote{}, &shoperr.FieldError{Field: fmt.Sprintf("lines[%d].line", i), Problem: "Each line may be named once."}
		case l.Units > left[l.Line]:
			ol := o.Lines[l.Line]
			return CreditNote{}, &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s line %d (%s) has %d units left to credit, not %d: reload the order.",
				o.ID, l.Line+1, ol.SKU, left[l.Line], l.Units)}
		}
		taking[l.Line] = l.Units
	}
	delNet, delVAT := o.DeliveryCredited()
	if c.Delivery < 0 || c.Delivery > o.DeliveryCharge-delNet {
		return CreditNote{}, &shoperr.FieldError{Field: "delivery", Problem: fmt.Sprintf("The delivery credited must be between £0.00 and %s, the delivery charge not yet credited.",
			Pounds(o.DeliveryCharge-delNet))}
	}
	if len(c.Lines) > 0 {
		all := true
		for i := range o.Lines {
			if taking[i] < left[i] {
				all = false
			}
		}
		if all && !o.Dispatched() {
			return CreditNote{}, &shoperr.ConflictError{Msg: fmt.Sprintf("That takes every unit left off order %s: cancel the order instead.", o.ID)}
		}
	}
	note := CreditNote{Number: n, IssuedAt: now, Supplier: o.Invoice.Supplier, Invoice: o.Invoice.Number, InvoiceDate: o.Invoice.IssuedAt}
	shares, credited, net, vat := lineCredits(o)
	by := map[int]*RateTotal{}
	at := func(rate int) *RateTotal {
		if by[rate] == nil {
			by[rate] = &RateTotal{Rate: rate}
		}
		return by[rate]
	}
	lines := slices.Clone(c.Lines)
	slices.SortFunc(lines, func(a, b CreditUnits) int { return cmp.Compare(a.Line, b.Line) })
	for _, u := range lines {
		l := o.Lines[u.Line]
		after := int64(credited[u.Line] + u.Units)
		cl := CreditLine{Line: u.Line, SKU: l.SKU, Name: l.Name, PackSize: l.PackSize, Units: u.Units, UnitPrice: l.UnitPrice, VATRate: l.VATRate,
			Restocked: restocked(o, u),
			NetExVAT:  share(l.LineAmount-shares[u.Line], after, int64(l.Quantity)) - net[u.Line],
			VAT:       share(l.VAT, after, int64(l.Quantity)) - vat[u.Line]}
		note.Lines = append(note.Lines, cl)
		r := at(l.VATRate)
		r.NetExVAT, r.VAT = r.NetExVAT+cl.NetExVAT, r.VAT+cl.VAT
	}
	if c.Delivery > 0 {
		note.DeliveryExVAT = c.Delivery
		note.DeliveryVAT = share(o.DeliveryVAT, delNet+c.Delivery, o.DeliveryCharge) - delVAT
		r := at(deliveryRate(o, fallbackRate))
		r.NetExVAT, r.VAT = r.NetExVAT+note.DeliveryExVAT, r.VAT+note.DeliveryVAT
	}
	for _, r := range by {
		note.Rates = append(note.Rates, *r)
	}
	slices.SortFunc(note.Rates, func(a, b RateTotal) int { return cmp.Compare(b.Rate, a.Rate) })
	reason := strings.TrimSpace(c.Reason)
	var what []string
	for _, l := range note.Lines {
		what = append(what, fmt.Sprintf("%d × %s", l.Units, l.SKU))
	}
	if note.DeliveryExVAT > 0 {
		what = append(what, "delivery "+Pounds(note.DeliveryExVAT))
	}
	switch {
	case len(note.Lines) == 0:
		note.Reason = "Delivery charge credited: " + reason
	case o.Dispatched():
		note.Reason = fmt.Sprintf("Returned: %s. %s", strings.Join(what, ", "), reason)
	default:
		note.Reason = fmt.Sprintf("Lines removed before dispatch: %s. %s", strings.Join(what, ", "), reason)
	}
	return note, nil
}

// CreditAllowed says whether o may be credited in part now, and if not why: it must be
// invoiced and not being cancelled or cancelled.
func CreditAllowed(o Order) error {
	switch {
	case o.Status == StatusCancelling || o.Status == StatusCancelled:
		return &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s is %s: its cancellation credits it in full.", o.ID, o.Status)}
	case o.Invoice == nil:
		return &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s's VAT invoice is still being issued: try again in a minute.", o.ID)}
	}
	return nil
}

// restocked is how many of u's units go back to stock: all before dispatch, those marked
// after.
func restocked(o Order, u CreditUnits) int {
	if u.Restock || !o.Dispatched() {
		return u.Units
	}
	return 0
}

// Restocked is the stock a credit gives back: the lines of o (Quantity the units) whose
// units go back, every line before dispatch, those marked restock after.
func Restocked(o Order, c CreditAction) []Line {
	var out []Line
	for _, u := range c.Lines {
		if u.Line < 0 || u.Line >= len(o.Lines) || restocked(o, u) == 0 {
			continue
		}
		l := o.Lines[u.Line]
		l.Quantity = u.Units
		out = append(out, l)
	}
	return out
}

// Owed is what o's invoice still owes before a new note: its gross less what its notes
// applied to it and what payments allocated to it (an order marked paid before payments
// were recorded owes nothing), never below 0.
func Owed(o Order) int64 {
	paid := o.InvoicePaid
	if o.Paid() && paid == 0 {
		paid = o.TotalIncVAT
	}
	owes := o.TotalIncVAT - paid
	for _, c := range o.CreditNotes {
		owes -= c.Applied
	}
	return max(owes, 0)
}

// Apply sets note's Applied (docs/invoices.md "Credit notes and payments"): the part of
// its gross that what the invoice still owes takes (Owed(o), o before the note); the rest
// is credit on account.
func (note *CreditNote) Apply(o Order) {
	note.Applied = min(note.TotalIncVAT(), Owed(o))
}

// OnAccount is what the note leaves as credit on the buyer's account: its gross less what
// it applied to the invoice.
func (c CreditNote) OnAccount() int64 { return c.TotalIncVAT() - c.Applied }

// PartCredit is a part credit as the store writes it: the order as read (its version,
// status and invoicePaid the transaction's conditions), the note for a given number, the
// stock going back, the audit entry (the store adds the note's figures to its After) and
// the buyer's email naming the note.
type PartCredit struct {
	Before  Order
	Note    func(n int64) (CreditNote, error)
	Restock []Line
	Audit   AuditEntry
	Emails  func(after Order, note CreditNote) []outbox.Message
}

// CreditStore is what a part credit needs besides reading the order.
type CreditStore interface {
	// CreditPart issues p's note with the next number in one transaction; ErrStale when
	// the order moved since p.Before was read.
	CreditPart(ctx context.Context, p PartCredit) (Order, error)
}

// Credit issues staff's part credit c of uid's order id (before dispatch: lines taken
// off, their stock back; after: a return, restocked lines back to stock; and any delivery
// credited): the order after it with its new note, or why not (PartCreditNote's refusals).
func (l Lifecycle) Credit(ctx context.Context, uid, id string, c CreditAction) (Order, error) {
	cs, ok := l.Store.(CreditStore)
	if !ok {
		return Order{}, errors.New("this store cannot issue part credits")
	}
	o, err := l.Store.Order(ctx, uid, id)
	if err != nil {
		return Order{}, err
	}
	now := l.Now()
	// Checked before the counter is touched, so a refusal takes no number.
	if _, err := PartCreditNote(o, c, 0, now, l.DeliveryVATRate); err != nil {
		return Order{}, err
	}
	p := PartCredit{Before: o, Restock: Restocked(o, c),
		Note: func(n int64) (CreditNote, error) { return PartCreditNote(o, c, n, now, l.DeliveryVATRate) },
		Audit: AuditEntry{At: now, By: c.By, Action: ActionCredit,
			Before: map[string]any{"status": o.Status, "version": o.Version}}}
	if l.Notify != nil {
		p.Emails = l.Notify.Credited
	}
	done, err := cs.CreditPart(ctx, p)
	if err == nil && l.CardRefunds != nil {
		_ = l.CardRefunds.RefundCredit(ctx, done)
	}
	return done, err
}

// ActionCredit is the audit trail's name of a part credit.
const ActionCredit = "credit"
