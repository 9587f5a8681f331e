package payments

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/orders"
)

// The accounts package's exports of money documents (docs/exports.md): payments and
// refunds, and the invoice and credit note exports (package orders' layouts) fed with
// what payments know of them (what is credited, the credit left on account).

// The documents the export writes, as the export's document parameter names them.
const (
	ExportOrders      = "orders" // the order lines export (orders.ExportCSV), the default
	ExportInvoices    = "invoices"
	ExportCreditNotes = "credit_notes"
	ExportPayments    = "payments"
	ExportRefunds     = "refunds"
)

// ExportDocuments lists the documents the export writes.
var ExportDocuments = []string{ExportOrders, ExportInvoices, ExportCreditNotes, ExportPayments, ExportRefunds}

// AccountName is how the exports name an account: its email (the orders export's
// account column) and its business.
type AccountName struct{ Email, Business string }

// ExportStore is what the exports read.
type ExportStore interface {
	// ExportOrders reads every order whose invoice was issued in [from, to), and every
	// order with a credit note (the export picks the notes by date).
	ExportOrders(ctx context.Context, from, to time.Time) ([]orders.Order, error)
	// ExportMoney reads every account's payments (credit on account included) and
	// refunds dated from day from to day to (YYYY-MM-DD, both included), and the names
	// of their accounts.
	ExportMoney(ctx context.Context, from, to string) ([]Payment, []Refund, map[string]AccountName, error)
}

// PaymentColumns are the columns of the payments export.
var PaymentColumns = []string{"type", "account", "business", "date", "reference", "details", "net", "tax_code", "vat",
	"gross", "method", "payment_reference", "allocated", "unallocated", "allocations", "flag"}

// RefundColumns are the columns of the refunds export.
var RefundColumns = []string{"type", "account", "business", "date", "reference", "details", "net", "tax_code", "vat",
	"gross", "method", "refund_reference", "source"}

// Exports writes the accounts package's exports.
type Exports struct {
	Store ExportStore
	Loc   *time.Location
}

// CSV writes document (one of ExportDocuments but orders) for London days from to to
// (both included, their midnights).
func (e Exports) CSV(ctx context.Context, document string, from, to time.Time) ([]byte, error) {
	end := to.AddDate(0, 0, 1)
	switch document {
	case ExportInvoices, ExportCreditNotes:
		list, err := e.Store.ExportOrders(ctx, from, end)
		if err != nil {
			return nil, err
		}
		// The credit on account each note left is stored as a payment of the note's date,
		// which for an invoice's notes is on or after the invoice's.
		last := to.Format(time.DateOnly)
		if document == ExportInvoices {
			last = "9999-12-31"
		}
		pays, _, _, err := e.Store.ExportMoney(ctx, from.Format(time.DateOnly), last)
		if err != nil {
			return nil, err
		}
		left := OnAccountOf(pays)
		if document == ExportCreditNotes {
			return orders.CreditNotesCSV(list, left, from, end, e.Loc)
		}
		return orders.InvoicesCSV(list, InvoiceStates(list, left), from, end, e.Loc)
	case ExportPayments, ExportRefunds:
		pays, refunds, names, err := e.Store.ExportMoney(ctx, from.Format(time.DateOnly), to.Format(time.DateOnly))
		if err != nil {
			return nil, err
		}
		if document == ExportPayments {
			return PaymentsCSV(pays, names)
		}
		return RefundsCSV(refunds, names)
	}
	return nil, fmt.Errorf("export %q: not a document the export writes", document)
}

// OnAccountOf is the credit on account of each credit note, by its number, from the
// payments that hold it (method credit_note, id CN-…).
func OnAccountOf(pays []Payment) map[int64]orders.OnAccount {
	out := map[int64]orders.OnAccount{}
	for _, p := range pays {
		if p.Method != MethodCreditNote {
			continue
		}
		var n int64
		if _, err := fmt.Sscanf(strings.TrimPrefix(p.ID, "CN-"), "%d", &n); err == nil && n > 0 {
			out[n] = orders.OnAccount{Amount: p.Amount}
		}
	}
	return out
}

// InvoiceStates is each invoiced order's credited amount (Σ its notes' gross less the
// credit they left on account: their applied amounts) and due day, by order id.
func InvoiceStates(list []orders.Order, left map[int64]orders.OnAccount) map[string]orders.InvoiceState {
	out := map[string]orders.InvoiceState{}
	for _, o := range list {
		inv, ok := InvoiceOf(o)
		if !ok {
			continue
		}
		var credited int64
		for _, c := range o.CreditNotes {
			gross := c.TotalIncVAT()
			credited += gross - min(left[c.Number].Amount, gross)
		}
		out[o.ID] = orders.InvoiceState{Credited: credited, DueOn: inv.DueOn()}
	}
	return out
}

// PaymentsCSV writes pays as the payments export: one row per payment received (credit
// on account is a credit note's, in the credit notes export), by date then id, its
// allocations listed as INV-000042=120.00 separated by semicolons (refunds by their id).
func PaymentsCSV(pays []Payment, names map[string]AccountName) ([]byte, error) {
	list := slices.DeleteFunc(slices.Clone(pays), func(p Payment) bool { return p.Method == MethodCreditNote })
	slices.SortFunc(list, func(a, b Payment) int { return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.ID, b.ID)) })
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(PaymentColumns); err != nil {
		return nil, err
	}
	for _, p := range list {
		var allocs []string
		for _, a := range p.Allocations {
			allocs = append(allocs, allocatedTo(a)+"="+orders.ExportMoney(a.Amount))
		}
		n := names[p.UID]
		row := []string{orders.SageReceipt, orders.ExportText(n.Email), orders.ExportText(n.Business), exportDay(p.Date), p.ID, "Payment " + methodWords(p.Method),
			orders.ExportMoney(p.Amount), orders.TaxCodeOutOfScope, orders.ExportMoney(0), orders.ExportMoney(p.Amount), p.Method, orders.ExportText(p.Reference),
			orders.ExportMoney(p.Allocated), orders.ExportMoney(p.Unallocated()), strings.Join(allocs, ";"), orders.ExportText(p.Flag)}
		if err := w.Write(row); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// RefundsCSV writes refunds as the refunds export, by date then id.
func RefundsCSV(refunds []Refund, names map[string]AccountName) ([]byte, error) {
	list := slices.Clone(refunds)
	slices.SortFunc(list, func(a, b Refund) int { return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.ID, b.ID)) })
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(RefundColumns); err != nil {
		return nil, err
	}
	for _, r := range list {
		n := names[r.UID]
		row := []string{orders.SageRefund, orders.ExportText(n.Email), orders.ExportText(n.Business), exportDay(r.Date), r.ID, "Refund from " + r.Source,
			orders.ExportMoney(r.Amount), orders.TaxCodeOutOfScope, orders.ExportMoney(0), orders.ExportMoney(r.Amount), r.Method, orders.ExportText(r.Reference), r.Source}
		if err := w.Write(row); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// allocatedTo names what allocation a was set against in the allocations column: its
// invoice, or the refund that paid the money back (REF-…).
func allocatedTo(a Allocation) string {
	if a.Refund != "" {
		return a.Refund
	}
	return orders.InvoiceNumber(a.Invoice)
}

// exportDay writes a YYYY-MM-DD day as the exports write dates (DD/MM/YYYY).
func exportDay(day string) string {
	d, err := ParseDate(day)
	if err != nil {
		return day
	}
	return d.Format("02/01/2006")
}

// methodWords names a payment method in the details column.
func methodWords(m string) string {
	switch m {
	case MethodBankTransfer:
		return "by bank transfer"
	case MethodCheque:
		return "by cheque"
	case MethodCard:
		return "by card"
	}
	return m
}
