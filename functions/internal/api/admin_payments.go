package api

import (
	"context"
	"net/http"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
)

// The back office's payments (docs/back-office.md "Payments"): record a payment against
// a trade account, allocate it (or credit on account) to the account's invoices, refund
// what it holds unallocated, read the account's ledger.

// allocationLine is one invoice named by hand and the pence to set against it.
type allocationLine struct {
	Invoice string `json:"invoice"` // INV-000042
	Amount  int64  `json:"amount"`
}

// linesOf reads lines named by hand; a number that is not an invoice number is 0, which
// payments.LinesProblem refuses.
func linesOf(in []allocationLine) []payments.Line {
	out := make([]payments.Line, len(in))
	for i, l := range in {
		out[i] = payments.Line{Invoice: payments.ParseInvoiceNumber(l.Invoice), Amount: l.Amount}
	}
	return out
}

// paymentRecordRequest is POST /api/admin/accounts/{uid}/payments.
type paymentRecordRequest struct {
	Token     string           `json:"token"`
	Method    string           `json:"method"`
	Date      string           `json:"date"`
	Amount    int64            `json:"amount"`
	Reference string           `json:"reference"`
	Allocate  string           `json:"allocate"`
	Lines     []allocationLine `json:"lines"`
}

func (p paymentRecordRequest) idToken() string { return p.Token }

func (p paymentRecordRequest) recording(by orders.Staff) payments.Recording {
	return payments.Recording{Method: p.Method, Date: p.Date, Amount: p.Amount, Reference: p.Reference, Allocate: p.Allocate,
		Lines: linesOf(p.Lines), By: by}
}

func (p paymentRecordRequest) Valid(context.Context) map[string]string {
	return payments.Problems(p.recording(orders.Staff{}), time.Now())
}

// paymentAllocateRequest is POST /api/admin/accounts/{uid}/payments/{id}/allocate: no
// lines allocates oldest first.
type paymentAllocateRequest struct {
	Token string           `json:"token"`
	Lines []allocationLine `json:"lines"`
}

func (p paymentAllocateRequest) idToken() string { return p.Token }

func (p paymentAllocateRequest) Valid(context.Context) map[string]string {
	if len(p.Lines) == 0 {
		return map[string]string{}
	}
	if msg := payments.LinesProblem(linesOf(p.Lines)); msg != "" {
		return map[string]string{"lines": msg}
	}
	return map[string]string{}
}

// handleAdminPaymentRecord answers POST /api/admin/accounts/{uid}/payments: records the
// payment and allocates it (oldest first unless told otherwise) in one transaction, and
// answers the payment with the account's ledger after.
func handleAdminPaymentRecord(g staffGate, pays payments.Service) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req paymentRecordRequest) {
		uid := r.PathValue("uid")
		p, err := pays.Record(r.Context(), uid, req.recording(by))
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		writePaymentAnswer(w, r, g, pays, uid, p)
	})
}

// handleAdminPaymentAllocate answers POST /api/admin/accounts/{uid}/payments/{id}/allocate:
// allocates what the payment has left, by hand or oldest first; 409 with a sentence when
// the payment or an invoice has less than asked (also when another member of staff took
// it first).
func handleAdminPaymentAllocate(g staffGate, pays payments.Service) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req paymentAllocateRequest) {
		uid := r.PathValue("uid")
		var lines []payments.Line
		if len(req.Lines) > 0 {
			lines = linesOf(req.Lines)
		}
		p, err := pays.Allocate(r.Context(), uid, r.PathValue("id"), lines, by)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		writePaymentAnswer(w, r, g, pays, uid, p)
	})
}

// refundRequest is POST /api/admin/accounts/{uid}/refunds.
type refundRequest struct {
	Token     string `json:"token"`
	Source    string `json:"source"`
	Method    string `json:"method"`
	Date      string `json:"date"`
	Amount    int64  `json:"amount"`
	Reference string `json:"reference"`
}

func (p refundRequest) idToken() string { return p.Token }

func (p refundRequest) refund(by orders.Staff) payments.RefundRequest {
	return payments.RefundRequest{Source: p.Source, Method: p.Method, Date: p.Date, Amount: p.Amount, Reference: p.Reference, By: by}
}

func (p refundRequest) Valid(context.Context) map[string]string {
	return payments.RefundProblems(p.refund(orders.Staff{}), time.Now())
}

// handleAdminRefund answers POST /api/admin/accounts/{uid}/refunds: records a refund (or
// a reversal) from what a payment or credit on account holds unallocated, and answers
// the refund, its source after and the account's ledger; 409 with a sentence when the
// source has less left than asked (also when another member of staff took it first).
func handleAdminRefund(g staffGate, pays payments.Service) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req refundRequest) {
		uid := r.PathValue("uid")
		ref, src, err := pays.Refund(r.Context(), uid, req.refund(by))
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		l, err := pays.Ledger(r.Context(), uid)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, adminRefundAnswer{Refund: refundAnswerOf(ref), Payment: paymentAnswerOf(src), Ledger: ledgerAnswerOf(l)})
	})
}

func writePaymentAnswer(w http.ResponseWriter, r *http.Request, g staffGate, pays payments.Service, uid string, p payments.Payment) {
	l, err := pays.Ledger(r.Context(), uid)
	if err != nil {
		writeError(w, r, g.Log, err)
		return
	}
	encode(w, http.StatusOK, adminPaymentAnswer{Payment: paymentAnswerOf(p), Ledger: ledgerAnswerOf(l)})
}

// handleAdminLedger answers GET /api/admin/accounts/{uid}/ledger: the account's
// invoices and payments with a running balance, what is due and what is overdue.
func handleAdminLedger(g staffGate, pays payments.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		l, err := pays.Ledger(r.Context(), r.PathValue("uid"))
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, ledgerAnswerOf(l))
	})
}

// paymentAnswer is a payment as staff see it: money in pence, date a London day
// (YYYY-MM-DD), recorded_at Unix ms. Credit on account is one too: id the credit note's
// number, method credit_note, order_id its order. A card payment (method card, recorded
// by the Stripe webhook, reference its PaymentIntent) carries flag, a sentence saying why
// staff must look at it ("" when nothing needs them).
type paymentAnswer struct {
	ID          string             `json:"id"`
	Method      string             `json:"method" ts:"'bank_transfer' | 'cheque' | 'credit_note' | 'card'"`
	OrderID     string             `json:"order_id"`
	Date        string             `json:"date"`
	Amount      int64              `json:"amount"`
	Reference   string             `json:"reference"`
	RecordedAt  unixMillis         `json:"recorded_at"`
	RecordedBy  string             `json:"recorded_by"`
	Allocated   int64              `json:"allocated"`
	Unallocated int64              `json:"unallocated"`
	Allocations []allocationAnswer `json:"allocations"`
	Flag        string             `json:"flag"`
}

// allocationAnswer is part of a payment set against one invoice, or paid back by a
// refund (refund its id, invoice and order_id "").
type allocationAnswer struct {
	Invoice string     `json:"invoice"`
	Refund  string     `json:"refund"`
	OrderID string     `json:"order_id"`
	Amount  int64      `json:"amount"`
	At      unixMillis `json:"at"`
}

// ledgerEntryAnswer is one line of a ledger: debit an invoice's gross or a refund's
// amount, credit a credit note's or a payment's amount, balance the running balance
// after it. An invoice carries outstanding, due_on (YYYY-MM-DD) and past_due; a payment
// method, payment_reference and unallocated (a credit note: what its credit on account
// holds unallocated); a refund method, payment_reference and
// source (the payment or credit note it was paid from). A card payment's flag says why
// staff must look at it (docs/payments.md "Flags"; "" for every other entry, and always
// on the buyer's statement).
type ledgerEntryAnswer struct {
	Kind             string  `json:"kind" ts:"'invoice' | 'credit_note' | 'payment' | 'refund'"`
	Date             string  `json:"date"`
	Reference        string  `json:"reference"`
	OrderID          string  `json:"order_id"`
	Debit            int64   `json:"debit"`
	Credit           int64   `json:"credit"`
	Balance          int64   `json:"balance"`
	Outstanding      int64   `json:"outstanding"`
	DueOn            *string `json:"due_on"`
	PastDue          bool    `json:"past_due"`
	Method           string  `json:"method"`
	PaymentReference string  `json:"payment_reference"`
	Unallocated      int64   `json:"unallocated"`
	Source           string  `json:"source"`
	Flag             string  `json:"flag"`
	// Status is a refund to a card's (pending until Stripe says it went back, then
	// succeeded or failed, Failure saying why); null for any other entry.
	Status  *string `json:"status" ts:"'pending' | 'succeeded' | 'failed'"`
	Failure *string `json:"failure"`
}

// adminLedgerAnswer is an account's ledger: entries oldest first; balance (the last
// entry's) = Σ invoices − Σ credit notes − Σ payments + Σ refunds; due what open
// invoices owe, overdue the part past due, unallocated what payments and credit on
// account hold not yet allocated nor refunded (so balance = due − unallocated).
type adminLedgerAnswer struct {
	Entries     []ledgerEntryAnswer `json:"entries"`
	Balance     int64               `json:"balance"`
	Due         int64               `json:"due"`
	Overdue     int64               `json:"overdue"`
	Unallocated int64               `json:"unallocated"`
}

// adminPaymentAnswer is a payment recorded or allocated, with the account's ledger after.
type adminPaymentAnswer struct {
	Payment paymentAnswer     `json:"payment"`
	Ledger  adminLedgerAnswer `json:"ledger"`
}

// refundAnswer is a refund as staff see it: money paid back from source (a payment or
// credit on account), or a reversal of a payment recorded in error.
type refundAnswer struct {
	ID         string     `json:"id"`
	Source     string     `json:"source"`
	Method     string     `json:"method" ts:"'bank_transfer' | 'cheque' | 'reversal' | 'card'"`
	Date       string     `json:"date"`
	Amount     int64      `json:"amount"`
	Reference  string     `json:"reference"`
	RecordedAt unixMillis `json:"recorded_at"`
	RecordedBy string     `json:"recorded_by"`
	// A refund to a card (method card): its PaymentIntent, its status (pending until
	// Stripe says it went back, then succeeded or failed) and why it failed; null for
	// any other refund.
	PaymentIntent *string `json:"payment_intent"`
	Status        *string `json:"status" ts:"'pending' | 'succeeded' | 'failed'"`
	Failure       *string `json:"failure"`
}

// textOrNull is s, or nil for "".
func textOrNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// adminRefundAnswer is a refund recorded, with its source after and the account's ledger.
type adminRefundAnswer struct {
	Refund  refundAnswer      `json:"refund"`
	Payment paymentAnswer     `json:"payment"`
	Ledger  adminLedgerAnswer `json:"ledger"`
}

func refundAnswerOf(r payments.Refund) refundAnswer {
	a := refundAnswer{ID: r.ID, Source: r.Source, Method: r.Method, Date: r.Date, Amount: r.Amount, Reference: r.Reference,
		RecordedAt: unixMillisOf(r.RecordedAt), RecordedBy: r.By.Email, PaymentIntent: textOrNull(r.PaymentIntent), Status: textOrNull(r.Status),
		Failure: textOrNull(r.Failure)}
	if a.RecordedBy == "" {
		a.RecordedBy = r.By.UID
	}
	return a
}

func paymentAnswerOf(p payments.Payment) paymentAnswer {
	a := paymentAnswer{ID: p.ID, Method: p.Method, OrderID: p.OrderID, Date: p.Date, Amount: p.Amount, Reference: p.Reference,
		RecordedAt: unixMillisOf(p.RecordedAt), RecordedBy: p.By.Email, Allocated: p.Allocated, Unallocated: p.Unallocated(),
		Allocations: make([]allocationAnswer, len(p.Allocations)), Flag: p.Flag}
	if a.RecordedBy == "" {
		a.RecordedBy = p.By.UID
	}
	for i, al := range p.Allocations {
		inv := ""
		if al.Invoice > 0 {
			inv = orders.InvoiceNumber(al.Invoice)
		}
		a.Allocations[i] = allocationAnswer{Invoice: inv, Refund: al.Refund, OrderID: al.OrderID, Amount: al.Amount, At: unixMillisOf(al.At)}
	}
	return a
}

func ledgerAnswerOf(l payments.Ledger) adminLedgerAnswer {
	a := adminLedgerAnswer{Entries: make([]ledgerEntryAnswer, len(l.Entries)), Balance: l.Balance, Due: l.Due, Overdue: l.Overdue,
		Unallocated: l.Unallocated}
	for i, e := range l.Entries {
		ea := ledgerEntryAnswer{Kind: e.Kind, Date: e.Date.Format("2006-01-02"), Reference: e.Reference, OrderID: e.OrderID,
			Debit: e.Debit, Credit: e.Credit, Balance: e.Balance, Outstanding: e.Outstanding, PastDue: e.Overdue, Method: e.Method,
			PaymentReference: e.PaymentRef, Unallocated: e.Unallocated, Source: e.Source, Flag: e.Flag, Status: textOrNull(e.RefundStatus),
			Failure: textOrNull(e.RefundFailure)}
		if e.Kind == payments.KindInvoice {
			d := e.DueOn.Format("2006-01-02")
			ea.DueOn = &d
		}
		a.Entries[i] = ea
	}
	return a
}
