package payments

import (
	"cmp"
	"slices"
	"time"

	"github.com/tradeshop/functions/internal/orders"
)

// The kinds of document on a ledger.
const (
	KindInvoice    = "invoice"
	KindCreditNote = "credit_note"
	KindPayment    = "payment"
	KindRefund     = "refund"
)

// CreditNote is a credit note as the ledger sees it. Its Gross comes off the balance;
// Applied (at most Gross) comes off its order's invoice, and the rest is credit on
// account, kept as a payment item of method credit_note.
type CreditNote struct {
	Number   int64
	OrderID  string
	IssuedAt time.Time
	Gross    int64
	// Applied is the part of Gross the note took off its invoice; the rest is credit on
	// account (a payment of method MethodCreditNote).
	Applied int64
}

// Documents are an account's money documents, as the store reads them.
type Documents struct {
	Invoices    []Invoice // each with Paid as its allocations add up; Credited is worked out here
	CreditNotes []CreditNote
	Payments    []Payment // credit on account (method credit_note) included
	Refunds     []Refund
	// MarkedPaid are invoices settled by the back office's "Mark paid" before payments
	// were recorded (their orders are paid with nothing allocated): the ledger shows
	// each as a payment of what it was owed, so the balance stays the documents' sum.
	MarkedPaid []Invoice
}

// Entry is one line of a ledger.
type Entry struct {
	Kind      string
	Date      time.Time // the London day: invoice and credit note dates, the day a payment was received
	At        time.Time // when it was issued or recorded: the order within a day
	Reference string    // INV-000042, CN-000007, PAY-…, REF-…
	OrderID   string    // an invoice's and a credit note's order
	Debit     int64     // an invoice's gross amount, a refund's
	Credit    int64     // a credit note's or a payment's amount
	Balance   int64     // the running balance after this entry
	// An invoice's state now: what it still owes, when it is due, whether overdue.
	Outstanding int64
	DueOn       time.Time
	Overdue     bool
	// A payment's or a refund's own details; what a payment, or a credit note's credit on
	// account, has left to allocate.
	Method      string
	PaymentRef  string
	Unallocated int64
	// Source is a refund's: the payment or credit note (CN-…) it was paid from.
	Source string
	// Flag is a payment's: why staff must look at it (Payment.Flag), for staff only.
	Flag string
	// A refund to a card's status (pending, succeeded, failed) and Stripe's reason for a
	// failure; "" for any other entry.
	RefundStatus, RefundFailure string
}

// Ledger is an account's documents in date order with a running balance, and its
// figures now.
type Ledger struct {
	Entries []Entry
	// Balance is Σ invoices − Σ credit notes − Σ payments + Σ refunds: the last entry's
	// running balance.
	Balance int64
	// Due is what the open invoices still owe; Overdue the part past its due date.
	Due     int64
	Overdue int64
	// Unallocated is what payments and credit on account hold that is not yet set
	// against an invoice nor refunded: Balance = Due − Unallocated.
	Unallocated int64
}

// Build draws the ledger of docs on London day today.
func Build(docs Documents, today time.Time) Ledger {
	credit := map[string]int64{} // what each note's credit on account holds unallocated
	for _, p := range docs.Payments {
		if p.IsCredit() {
			credit[p.ID] = p.Unallocated()
		}
	}
	credited := map[string]int64{}
	var entries []Entry
	for _, cn := range docs.CreditNotes {
		credited[cn.OrderID] += cn.Applied
		ref := CreditNoteNumber(cn.Number)
		entries = append(entries, Entry{Kind: KindCreditNote, Date: Day(cn.IssuedAt), At: cn.IssuedAt,
			Reference: ref, OrderID: cn.OrderID, Credit: cn.Gross, Unallocated: credit[ref]})
	}
	var l Ledger
	for _, inv := range docs.Invoices {
		inv.Credited = credited[inv.OrderID]
		e := Entry{Kind: KindInvoice, Date: Day(inv.IssuedAt), At: inv.IssuedAt, Reference: orders.InvoiceNumber(inv.Number),
			OrderID: inv.OrderID, Debit: inv.Gross, Outstanding: max(inv.Outstanding(), 0), DueOn: inv.DueOn(), Overdue: inv.Overdue(today)}
		l.Due += e.Outstanding
		if e.Overdue {
			l.Overdue += e.Outstanding
		}
		entries = append(entries, e)
	}
	for _, p := range docs.Payments {
		l.Unallocated += p.Unallocated()
		if p.IsCredit() {
			continue // its credit note's entry took its gross off the balance already
		}
		entries = append(entries, Entry{Kind: KindPayment, Date: dayOf(p.Date, p.RecordedAt), At: p.RecordedAt, Reference: p.ID,
			Credit: p.Amount, Method: p.Method, PaymentRef: p.Reference, Unallocated: p.Unallocated(), Flag: p.Flag})
	}
	for _, r := range docs.Refunds {
		entries = append(entries, Entry{Kind: KindRefund, Date: dayOf(r.Date, r.RecordedAt), At: r.RecordedAt, Reference: r.ID,
			Debit: r.Amount, Method: r.Method, PaymentRef: r.Reference, Source: r.Source, RefundStatus: r.Status, RefundFailure: r.Failure})
	}
	for _, inv := range docs.MarkedPaid {
		entries = append(entries, Entry{Kind: KindPayment, Date: Day(inv.IssuedAt), At: inv.IssuedAt.Add(time.Millisecond),
			Reference: "PAID-" + inv.OrderID, Credit: inv.Gross - inv.Paid, PaymentRef: "Marked paid before payments were recorded"})
	}
	slices.SortStableFunc(entries, func(a, b Entry) int {
		if c := a.Date.Compare(b.Date); c != 0 {
			return c
		}
		return a.At.Compare(b.At)
	})
	for i := range entries {
		l.Balance += entries[i].Debit - entries[i].Credit
		entries[i].Balance = l.Balance
	}
	l.Entries = entries
	return l
}

// dayOf is a document's date (YYYY-MM-DD) as its London day; the day it was recorded
// when the date cannot be read.
func dayOf(date string, recorded time.Time) time.Time {
	if d, err := ParseDate(date); err == nil {
		return d
	}
	return Day(recorded)
}

// CreditNoteNumber formats a credit note's number as the ledger shows it.
func CreditNoteNumber(n int64) string { return "CN-" + orders.InvoiceNumber(n)[len("INV-"):] }

// sortInvoices puts invoices in the order of their numbers.
func sortInvoices(invs []Invoice) {
	slices.SortFunc(invs, func(a, b Invoice) int { return cmp.Compare(a.Number, b.Number) })
}
