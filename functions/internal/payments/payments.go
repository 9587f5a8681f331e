package payments

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/text"
)

// The ways a payment reaches the shop.
const (
	MethodBankTransfer = "bank_transfer"
	MethodCheque       = "cheque"
	// MethodCreditNote is credit on account: the part of a credit note's gross its
	// invoice no longer owed, kept as a payment item (id the note's number, CN-…) so that
	// it is allocated, and refunded, as a payment is. It is never recorded by hand.
	MethodCreditNote = "credit_note"
	// MethodCard is a card payment through Stripe (docs/payments.md): recorded by the
	// webhook when its PaymentIntent succeeds, never by hand (it is not in Methods).
	MethodCard = "card"
)

// Methods lists the payment methods, as a form offers them.
var Methods = []string{MethodBankTransfer, MethodCheque}

// MaxAmount bounds one payment (pence): £10,000,000.
const MaxAmount = 1_000_000_000

// MaxLines bounds the invoices one allocation moves: its transaction writes the payment,
// each invoice's order, the account and the audit entries, within DynamoDB's 100 items.
const MaxLines = 40

// Reference is the payment's own reference (the bank's, or the cheque number).
var Reference = text.Field{Name: "reference", Label: "Reference", Min: 1, Max: 60}

// Payment is money received from a trade account: a document, never changed once
// recorded, save that its allocations are added to (each one once, never taken back).
type Payment struct {
	ID          string // PAY-…
	UID         string
	Method      string
	Date        string // the day it was received, YYYY-MM-DD (a London day)
	Amount      int64  // pence
	Reference   string
	RecordedAt  time.Time
	By          orders.Staff
	Allocated   int64 // Σ Allocations' amounts
	Allocations []Allocation
	// OrderID is credit on account's order (the credit note's); "" for a payment.
	OrderID string
	// Flag says why staff must look at the payment ("" when nothing needs them): a card
	// payment that could not be allocated to its order's invoice as it arrived (Flag*).
	Flag string
}

// Unallocated is what p has left to allocate.
func (p Payment) Unallocated() int64 { return p.Amount - p.Allocated }

// IsCredit says p is credit on account (a credit note's), not money received.
func (p Payment) IsCredit() bool { return p.Method == MethodCreditNote }

// Name is p as a sentence names it.
func (p Payment) Name() string {
	if p.IsCredit() {
		return "The credit on account from " + p.ID
	}
	return "Payment " + p.ID
}

// Allocation is part of a payment set against one invoice, or paid back to the buyer
// by a refund (Refund its id, Invoice 0).
type Allocation struct {
	Invoice int64 // its number
	Refund  string
	OrderID string
	Amount  int64
	At      time.Time
	By      orders.Staff
}

// Invoice is an issued VAT invoice as the ledger and the allocation see it: its gross
// amount, what credit notes take off it and what payments allocated to it add up to.
type Invoice struct {
	Number    int64
	OrderID   string
	IssuedAt  time.Time
	Gross     int64 // the order's total inc VAT
	Credited  int64 // Σ what its credit notes applied to it
	Paid      int64 // Σ allocations to it
	TermsDays int   // as they were when it was issued
	ProForma  bool
	Status    string // the order's
	// Version is the order's, which a payment that covers the invoice moves on (it sets
	// the order paid).
	Version int64
	// Notes is how many credit notes its order carries: an allocation holds it, so a
	// credit note issued meanwhile (which lowers what the invoice owes) fails it.
	Notes int
}

// Outstanding is what inv still owes.
func (inv Invoice) Outstanding() int64 { return inv.Gross - inv.Credited - inv.Paid }

// DueOn is the London day inv is due: its date plus the terms it was issued with.
func (inv Invoice) DueOn() time.Time {
	d := inv.IssuedAt.In(london)
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, london).AddDate(0, 0, inv.TermsDays)
}

// Overdue says inv still owes something after the day it was due, on London day today.
// A pro-forma invoice is never overdue: its goods wait for the payment.
func (inv Invoice) Overdue(today time.Time) bool {
	return !inv.ProForma && inv.Outstanding() > 0 && Day(today).After(inv.DueOn())
}

// InvoiceOf is o's invoice as payments see it; ok is false for an order not invoiced yet.
func InvoiceOf(o orders.Order) (inv Invoice, ok bool) {
	if o.Invoice == nil {
		return Invoice{}, false
	}
	var credited int64
	for _, c := range o.CreditNotes {
		credited += c.Applied
	}
	return Invoice{Number: o.Invoice.Number, OrderID: o.ID, IssuedAt: o.Invoice.IssuedAt, Gross: o.TotalIncVAT, Credited: credited,
		Notes: len(o.CreditNotes), Paid: o.InvoicePaid, TermsDays: o.Invoice.TermsDays, ProForma: o.ProForma(), Status: o.Status, Version: o.Version}, true
}

// open says payments may be allocated to inv: it owes something and its order is not
// being cancelled (a cancellation's credit note settles it instead).
func (inv Invoice) open() bool {
	return inv.Outstanding() > 0 && inv.Status != orders.StatusCancelling && inv.Status != orders.StatusCancelled
}

// london is the shop's calendar: payment dates and due dates are London days.
var london = func() *time.Location {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		return time.UTC
	}
	return loc
}()

// Day is the London day of t, at its midnight.
func Day(t time.Time) time.Time {
	d := t.In(london)
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, london)
}

// ParseDate reads a payment date (YYYY-MM-DD) as its London midnight.
func ParseDate(s string) (time.Time, error) {
	return time.ParseInLocation(time.DateOnly, s, london)
}

// Line is one invoice and the amount to set against it.
type Line struct {
	Invoice int64
	Amount  int64
}

// OldestFirst plans allocating amount to the open invoices, oldest first (by number,
// which is the order of issue), each taking what it owes until amount runs out; at most
// MaxLines invoices.
func OldestFirst(invoices []Invoice, amount int64) []Line {
	open := slices.DeleteFunc(slices.Clone(invoices), func(inv Invoice) bool { return !inv.open() })
	slices.SortFunc(open, func(a, b Invoice) int { return cmp.Compare(a.Number, b.Number) })
	var out []Line
	for _, inv := range open {
		if amount <= 0 || len(out) == MaxLines {
			break
		}
		take := min(amount, inv.Outstanding())
		out = append(out, Line{Invoice: inv.Number, Amount: take})
		amount -= take
	}
	return out
}

// Check says what is wrong with allocating lines of a payment that has left to allocate,
// against invoices as read: a sentence naming the invoice or the payment, or nil.
func Check(lines []Line, left int64, invoices []Invoice) error {
	if len(lines) == 0 {
		return conflict("There is no invoice on the account that owes anything: nothing was allocated.")
	}
	if len(lines) > MaxLines {
		return conflict(fmt.Sprintf("One allocation can settle at most %d invoices: allocate the rest next.", MaxLines))
	}
	by := map[int64]Invoice{}
	for _, inv := range invoices {
		by[inv.Number] = inv
	}
	seen := map[int64]bool{}
	var sum int64
	for _, l := range lines {
		inv, ok := by[l.Invoice]
		switch {
		case !ok:
			return notFound(fmt.Sprintf("Invoice %s is not an invoice of this account.", orders.InvoiceNumber(l.Invoice)))
		case seen[l.Invoice]:
			return conflict(fmt.Sprintf("Invoice %s is named twice: name each invoice once.", orders.InvoiceNumber(l.Invoice)))
		case l.Amount <= 0:
			return conflict(fmt.Sprintf("The amount for invoice %s must be more than £0.", orders.InvoiceNumber(l.Invoice)))
		case inv.Status == orders.StatusCancelling || inv.Status == orders.StatusCancelled:
			return conflict(fmt.Sprintf("Invoice %s is of order %s, which is cancelled: nothing can be allocated to it.",
				orders.InvoiceNumber(l.Invoice), inv.OrderID))
		case l.Amount > inv.Outstanding():
			return conflict(fmt.Sprintf("Invoice %s owes only %s: allocate at most that.", orders.InvoiceNumber(l.Invoice),
				orders.Pounds(max(inv.Outstanding(), 0))))
		}
		seen[l.Invoice] = true
		sum += l.Amount
	}
	if sum > left {
		return conflict(fmt.Sprintf("The payment has only %s left to allocate: the invoices named take %s.",
			orders.Pounds(left), orders.Pounds(sum)))
	}
	return nil
}

// ParseInvoiceNumber reads an invoice number as staff write it (INV-000042, or 42); 0
// when it is not one.
func ParseInvoiceNumber(s string) int64 {
	s = strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(s)), "INV-")
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
