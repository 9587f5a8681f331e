package orders

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"slices"
	"strconv"
	"time"
)

// The accounts package's exports (docs/exports.md): one CSV per document type, each row
// one document at one VAT rate (or one money document), in the column order of Sage 50
// Accounts' "Audit Trail Transactions" import (type, account, date, reference, details,
// net, tax code, tax) followed by what Xero and a reconciliation need (gross, VAT rate,
// the document's own totals, its allocation). Dates are UK days, DD/MM/YYYY, as both
// packages read them.

// Sage 50's transaction types of the documents exported.
const (
	SageSalesInvoice = "SI"
	SageSalesCredit  = "SC"
	SageReceipt      = "SA" // a sales receipt on account: Sage imports receipts as SA and allocates them by hand
	SageRefund       = "SP" // a sales payment: money paid back to a customer
)

// TaxCode is Sage 50's standard tax code of a VAT rate: T1 standard (20%), T5 reduced
// (5%), T0 zero-rated; T9 (outside the scope of VAT) is a receipt's or a refund's. A
// rate Sage has no standard code for is written as the rate itself (Sage takes 0 to 99).
func TaxCode(rate int) string {
	switch rate {
	case 20:
		return "T1"
	case 5:
		return "T5"
	case 0:
		return "T0"
	}
	return strconv.Itoa(rate)
}

// TaxCodeOutOfScope is the tax code of receipts and refunds.
const TaxCodeOutOfScope = "T9"

// ExportDay formats t's London day as the exports write dates: DD/MM/YYYY.
func ExportDay(t time.Time, loc *time.Location) string { return t.In(loc).Format("02/01/2006") }

// ExportMoney writes pence as every export writes money: pounds with two decimals and
// no symbol (1234.50).
func ExportMoney(p int64) string { return decimal(p) }

// ExportText keeps a cell a spreadsheet would read as a formula as text.
func ExportText(s string) string { return csvSafe(s) }

// InvoiceColumns are the columns of the invoices export.
var InvoiceColumns = []string{"type", "account", "business", "date", "reference", "details", "net", "tax_code", "vat",
	"gross", "vat_rate", "order", "po_ref", "invoice_net", "invoice_vat", "invoice_gross", "due_date", "credited", "paid", "outstanding"}

// CreditNoteColumns are the columns of the credit notes export.
var CreditNoteColumns = []string{"type", "account", "business", "date", "reference", "details", "net", "tax_code", "vat",
	"gross", "vat_rate", "order", "invoice", "invoice_date", "note_net", "note_vat", "note_gross", "applied", "on_account", "reason"}

// InvoiceState is what an invoice's export row says of its allocation as the export
// reads it: credited (Σ its credit notes' applied amounts), paid (Σ payments allocated
// to it) and the day it is due.
type InvoiceState struct {
	Credited int64
	DueOn    time.Time
}

// OnAccount is the credit on account a credit note left (contract: gross − applied),
// which the export writes as the note's on_account; applied is the rest.
type OnAccount struct{ Amount int64 }

// inRange says t falls on a London day from from to to (both midnights, to excluded).
func inRange(t, from, to time.Time) bool { return !t.Before(from) && t.Before(to) }

// InvoicesCSV writes the invoices of list issued in [from, to) as the invoices export,
// one row per VAT rate, invoices in number order; state gives each order's allocation
// as read (by order id).
func InvoicesCSV(list []Order, state map[string]InvoiceState, from, to time.Time, loc *time.Location) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(InvoiceColumns); err != nil {
		return nil, err
	}
	for _, o := range byInvoice(list) {
		inv := o.Invoice
		if inv == nil || !inRange(inv.IssuedAt, from, to) {
			continue
		}
		business, po := "", ""
		if o.Billing != nil {
			business, po = o.Billing.Company, o.Billing.PORef
		}
		st := state[o.ID]
		var net, vat int64
		for _, r := range inv.Rates {
			net, vat = net+r.NetExVAT, vat+r.VAT
		}
		outstanding := max(o.TotalIncVAT-st.Credited-o.InvoicePaid, 0)
		due := ""
		if !st.DueOn.IsZero() {
			due = ExportDay(st.DueOn, loc)
		}
		for _, r := range inv.Rates {
			row := []string{SageSalesInvoice, csvSafe(o.Email), csvSafe(business), ExportDay(inv.IssuedAt, loc), InvoiceNumber(inv.Number),
				"Order " + o.ID, decimal(r.NetExVAT), TaxCode(r.Rate), decimal(r.VAT), decimal(r.NetExVAT + r.VAT), strconv.Itoa(r.Rate),
				o.ID, csvSafe(po), decimal(net), decimal(vat), decimal(net + vat), due, decimal(st.Credited), decimal(o.InvoicePaid),
				decimal(outstanding)}
			if err := w.Write(row); err != nil {
				return nil, err
			}
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// CreditNotesCSV writes the credit notes of list issued in [from, to) as the credit
// notes export, one row per VAT rate, notes in number order; onAccount gives the credit
// on account each note left (by note number; none: applied in full to its invoice).
func CreditNotesCSV(list []Order, onAccount map[int64]OnAccount, from, to time.Time, loc *time.Location) ([]byte, error) {
	type note struct {
		o Order
		c CreditNote
	}
	var notes []note
	for _, o := range list {
		for _, c := range o.CreditNotes {
			if inRange(c.IssuedAt, from, to) {
				notes = append(notes, note{o, c})
			}
		}
	}
	sortBy(notes, func(n note) int64 { return n.c.Number })
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(CreditNoteColumns); err != nil {
		return nil, err
	}
	for _, n := range notes {
		o, c := n.o, n.c
		business := ""
		if o.Billing != nil {
			business = o.Billing.Company
		}
		gross := c.TotalIncVAT()
		left := min(onAccount[c.Number].Amount, gross)
		invoiceDate := ""
		if !c.InvoiceDate.IsZero() {
			invoiceDate = ExportDay(c.InvoiceDate, loc)
		}
		for _, r := range c.Rates {
			row := []string{SageSalesCredit, csvSafe(o.Email), csvSafe(business), ExportDay(c.IssuedAt, loc), CreditNoteNumber(c.Number),
				"Credit for order " + o.ID, decimal(r.NetExVAT), TaxCode(r.Rate), decimal(r.VAT), decimal(r.NetExVAT + r.VAT),
				strconv.Itoa(r.Rate), o.ID, InvoiceNumber(c.Invoice), invoiceDate, decimal(c.NetExVAT()), decimal(c.VAT()),
				decimal(gross), decimal(gross - left), decimal(left), csvSafe(c.Reason)}
			if err := w.Write(row); err != nil {
				return nil, err
			}
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// byInvoice is list in invoice number order (orders without one last, as they are).
func byInvoice(list []Order) []Order {
	out := append([]Order(nil), list...)
	sortBy(out, func(o Order) int64 {
		if o.Invoice == nil {
			return 1 << 62
		}
		return o.Invoice.Number
	})
	return out
}

// sortBy sorts list by the number key gives each, stably.
func sortBy[T any](list []T, key func(T) int64) {
	slices.SortStableFunc(list, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
}
