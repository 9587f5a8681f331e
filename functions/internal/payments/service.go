package payments

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/text"
)

// The store's refusals of a Write, each a lost race the service reads again after.
var (
	// ErrPaymentMoved: the payment has less left to allocate than the write takes (another
	// allocation took it), or a new payment's id is taken.
	ErrPaymentMoved = errors.New("the payment's allocations moved")
	// ErrInvoiceMoved: an invoice's allocations or its order's status moved since read.
	ErrInvoiceMoved = errors.New("an invoice moved")
	// ErrBusy: another transaction held one of the items.
	ErrBusy = errors.New("busy")
)

// Store is what recording and allocating payments, and the ledger, need of the shop's store.
type Store interface {
	// AccountBusiness answers the business name of account uid; store.ErrNotFound when
	// there is no such account.
	AccountBusiness(ctx context.Context, uid string) (string, error)
	// Orders reads uid's orders (their invoices, totals and what is allocated to each).
	Orders(ctx context.Context, uid string) ([]orders.Order, error)
	// Payments reads uid's payments, credit on account (method credit_note) included.
	Payments(ctx context.Context, uid string) ([]Payment, error)
	// Payment reads uid's payment id (PAY-…, or CN-… for credit on account);
	// store.ErrNotFound when there is none.
	Payment(ctx context.Context, uid, id string) (Payment, error)
	// Refunds reads uid's refunds.
	Refunds(ctx context.Context, uid string) ([]Refund, error)
	// WriteRefund writes w in one transaction: the refund, its allocation on its source
	// (on condition the source still holds the amount unallocated) and the audit entry.
	// ErrPaymentMoved or ErrBusy when a condition lost a race.
	WriteRefund(ctx context.Context, w RefundWrite) error
	// WriteAllocation writes w in one transaction: the payment (new, or its allocations
	// on condition it still has what they take), each invoice's order (on condition its
	// allocations and status are still as read; paid, version moved on, when covered),
	// the account's owed balance, the audit entries and the Messages to the outbox. ErrPaymentMoved,
	// ErrInvoiceMoved or ErrBusy when a condition lost a race.
	WriteAllocation(ctx context.Context, w Write) error
}

// Write is one payment's allocation as the store writes it.
type Write struct {
	Payment Payment // after: with the new allocations and Allocated
	// Seen is what the payment had allocated when read (ignored for a new payment).
	Seen  int64
	New   bool
	Lines []WriteLine
	// OwedDelta moves the account's owed balance: down by each amount allocated to an
	// invoice of an order on account.
	OwedDelta int64
	Audit     orders.AuditEntry // the account's
	// Messages are emails written to the outbox in the same transaction (a flagged card
	// payment's notice to staff); each id is the payment's, so a retry writes none again.
	Messages []outbox.Message
}

// WriteLine is one invoice's part of a Write.
type WriteLine struct {
	Invoice Invoice // as read: its Paid and Status are the condition
	Amount  int64
	// Covers says the allocation pays the invoice in full: the order is set paid (PaidAt
	// At, its version moved on) with OrderAudit in its trail.
	Covers     bool
	At         time.Time
	OrderAudit orders.AuditEntry
}

// Service records and allocates payments and draws ledgers.
type Service struct {
	Store Store
	Now   func() time.Time
}

// Recording is a member of staff's record of a payment received, and how to allocate it.
type Recording struct {
	Method    string
	Date      string // YYYY-MM-DD
	Amount    int64
	Reference string
	// Allocate: AllocateOldest (the default), AllocateByHand (Lines) or AllocateNone.
	Allocate string
	Lines    []Line
	By       orders.Staff
}

// How a recorded payment is allocated.
const (
	AllocateOldest = "oldest"
	AllocateByHand = "by_hand"
	AllocateNone   = "none"
)

// moneyProblems adds to p what is wrong with a payment's or a refund's date (on London
// day today), amount and reference.
func moneyProblems(p map[string]string, date string, amount int64, reference string, today time.Time) {
	if msg := dateProblem(date, today); msg != "" {
		p["date"] = msg
	}
	if amount <= 0 || amount > MaxAmount {
		p["amount"] = "The amount must be between £0.01 and £10,000,000."
	}
	var clean text.Cleaner
	clean.Clean(Reference, &reference)
	maps.Copy(p, clean.Problems)
}

// Problems answers what is wrong with r, by field name (empty when nothing is), on
// London day today.
func Problems(r Recording, today time.Time) map[string]string {
	p := map[string]string{}
	if !slices.Contains(Methods, r.Method) {
		p["method"] = "The method must be bank_transfer or cheque."
	}
	moneyProblems(p, r.Date, r.Amount, r.Reference, today)
	switch r.Allocate {
	case "", AllocateOldest, AllocateNone:
		if len(r.Lines) > 0 {
			p["lines"] = "Invoices are named only to allocate by hand (allocate by_hand)."
		}
	case AllocateByHand:
		if msg := LinesProblem(r.Lines); msg != "" {
			p["lines"] = msg
		}
	default:
		p["allocate"] = "Allocate must be oldest, by_hand or none."
	}
	return p
}

// LinesProblem says what is wrong with lines named by hand ("" when nothing is).
func LinesProblem(lines []Line) string {
	if len(lines) == 0 || len(lines) > MaxLines {
		return fmt.Sprintf("Name from 1 to %d invoices, each with an amount.", MaxLines)
	}
	for _, l := range lines {
		if l.Invoice <= 0 || l.Amount <= 0 || l.Amount > MaxAmount {
			return "Each invoice needs its number and an amount between £0.01 and £10,000,000."
		}
	}
	return ""
}

// attempts bounds the tries of one allocation: each lost race is one, and every round
// of a race has a winner.
const attempts = 200

// Record records payment r against account uid and allocates it as r says, in one
// transaction with the payment itself: a payment is never recorded half allocated. It
// answers the payment as recorded.
func (s Service) Record(ctx context.Context, uid string, r Recording) (Payment, error) {
	if !account.ValidUID(uid) {
		return Payment{}, notFound("There is no such account.")
	}
	if _, err := s.Store.AccountBusiness(ctx, uid); err != nil {
		return Payment{}, err
	}
	ref, _ := Reference.Clean(r.Reference)
	now := s.Now()
	p := Payment{ID: NewID(), UID: uid, Method: r.Method, Date: r.Date, Amount: r.Amount, Reference: ref, RecordedAt: now, By: r.By}
	var hand []Line
	switch r.Allocate {
	case AllocateByHand:
		hand = r.Lines
	case AllocateNone:
		hand = []Line{}
	}
	return s.allocate(ctx, p, true, hand, r.By)
}

// Allocate allocates what payment id of account uid has left (a payment, PAY-…, or
// credit on account, the credit note's number CN-…): to the invoices lines name, or
// oldest first when lines is nil. It answers the payment after.
func (s Service) Allocate(ctx context.Context, uid, id string, lines []Line, by orders.Staff) (Payment, error) {
	if !account.ValidUID(uid) || !validSource(id) {
		return Payment{}, notFound("There is no such payment.")
	}
	p, err := s.Store.Payment(ctx, uid, id)
	if err != nil {
		return Payment{}, err
	}
	if p.Unallocated() == 0 {
		return Payment{}, conflict(fmt.Sprintf("%s is allocated in full already.", p.Name()))
	}
	return s.allocate(ctx, p, false, lines, by)
}

// allocate writes p (new, or as read) with lines (nil: oldest first; empty: none),
// reading again and trying again after each lost race.
func (s Service) allocate(ctx context.Context, p Payment, isNew bool, hand []Line, by orders.Staff) (Payment, error) {
	for attempt := 0; attempt < attempts; attempt++ {
		if !isNew && attempt > 0 {
			var err error
			if p, err = s.Store.Payment(ctx, p.UID, p.ID); err != nil {
				return Payment{}, err
			}
			if p.Unallocated() == 0 && hand == nil {
				return Payment{}, conflict(fmt.Sprintf("%s is allocated in full already.", p.Name()))
			}
		}
		d, err := s.invoices(ctx, p.UID)
		if err != nil {
			return Payment{}, err
		}
		invs := d.Invoices
		lines := hand
		if hand == nil {
			lines = OldestFirst(invs, p.Unallocated())
		}
		if len(lines) > 0 || !isNew {
			if err := Check(lines, p.Unallocated(), invs); err != nil {
				return Payment{}, err
			}
		}
		w := s.write(p, isNew, lines, invs, by, s.Now())
		err = s.Store.WriteAllocation(ctx, w)
		switch {
		case err == nil:
			return w.Payment, nil
		case errors.Is(err, ErrPaymentMoved) && isNew:
			p.ID = NewID() // the id was taken: a new one
		case errors.Is(err, ErrPaymentMoved), errors.Is(err, ErrInvoiceMoved), errors.Is(err, ErrBusy):
		default:
			return Payment{}, err
		}
		pause(ctx, attempt)
	}
	return Payment{}, fmt.Errorf("allocate payment %s: still racing after %d attempts", p.ID, attempts)
}

// write builds the Write of p's allocation of lines against invs at now.
func (s Service) write(p Payment, isNew bool, lines []Line, invs []Invoice, by orders.Staff, now time.Time) Write {
	by0 := map[int64]Invoice{}
	for _, inv := range invs {
		by0[inv.Number] = inv
	}
	w := Write{Seen: p.Allocated, New: isNew}
	after := p
	after.Allocations = slices.Clone(p.Allocations)
	var allocated []map[string]any
	for _, l := range lines {
		inv := by0[l.Invoice]
		wl := WriteLine{Invoice: inv, Amount: l.Amount, At: now, Covers: l.Amount == inv.Outstanding()}
		if wl.Covers {
			wl.OrderAudit = orders.AuditEntry{At: now, By: by, Action: orders.ActionPay,
				Before: map[string]any{"paid_at": nil, "version": inv.Version},
				After:  map[string]any{"paid_at": now.UnixMilli(), "version": inv.Version + 1, "payment": p.ID}}
		}
		// What the account owes (the credit limit's measure) is what its invoices on
		// account still owe: each amount allocated to one comes off it.
		if !inv.ProForma {
			w.OwedDelta -= l.Amount
		}
		w.Lines = append(w.Lines, wl)
		after.Allocations = append(after.Allocations, Allocation{Invoice: l.Invoice, OrderID: inv.OrderID, Amount: l.Amount, At: now, By: by})
		after.Allocated += l.Amount
		allocated = append(allocated, map[string]any{"invoice": orders.InvoiceNumber(l.Invoice), "amount": l.Amount})
	}
	w.Payment = after
	action, before := "allocate payment", map[string]any{"payment": p.ID, "allocated": p.Allocated}
	if isNew {
		action, before = "record payment", map[string]any{}
	}
	w.Audit = orders.AuditEntry{At: now, By: by, Action: action, Before: before,
		After: map[string]any{"payment": p.ID, "method": p.Method, "date": p.Date, "amount": p.Amount, "reference": p.Reference,
			"allocated": after.Allocated, "allocations": allocated}}
	return w
}

// PayInvoice settles order o's invoice as the back office's "Mark paid" does: a bank
// transfer received today for what the invoice still owes, referenced with the order
// number, recorded and allocated to it in one transaction. The order is then paid (its
// version moved on). The caller (orders.Lifecycle) has held the action to the version the
// member of staff saw; an allocation that loses a race to the invoice is ErrStale.
func (s Service) PayInvoice(ctx context.Context, o orders.Order, by orders.Staff) (orders.Order, error) {
	inv, ok := InvoiceOf(o)
	if !ok {
		return orders.Order{}, conflict(fmt.Sprintf("Order %s is waiting for its invoice: try again in a minute.", o.ID))
	}
	if inv.Outstanding() <= 0 {
		return orders.Order{}, conflict(fmt.Sprintf("Order %s owes nothing on its invoice.", o.ID))
	}
	now := s.Now()
	p := Payment{ID: NewID(), UID: o.UID, Method: MethodBankTransfer, Date: Day(now).Format(time.DateOnly), Amount: inv.Outstanding(),
		Reference: o.ID, RecordedAt: now, By: by}
	lines := []Line{{Invoice: inv.Number, Amount: inv.Outstanding()}}
	w := s.write(p, true, lines, []Invoice{inv}, by, now)
	if err := s.Store.WriteAllocation(ctx, w); err != nil {
		if errors.Is(err, ErrInvoiceMoved) || errors.Is(err, ErrBusy) || errors.Is(err, ErrPaymentMoved) {
			return orders.Order{}, orders.ErrStale(o)
		}
		return orders.Order{}, err
	}
	after := o
	after.PaidAt, after.Version, after.InvoicePaid = now, o.Version+1, o.InvoicePaid+inv.Outstanding()
	return after, nil
}

// Ledger draws account uid's ledger on today's London day.
func (s Service) Ledger(ctx context.Context, uid string) (Ledger, error) {
	if !account.ValidUID(uid) {
		return Ledger{}, notFound("There is no such account.")
	}
	if _, err := s.Store.AccountBusiness(ctx, uid); err != nil {
		return Ledger{}, err
	}
	docs, err := s.documents(ctx, uid)
	if err != nil {
		return Ledger{}, err
	}
	return Build(docs, s.Now()), nil
}

// documents reads account uid's documents: its invoices (with its credit notes) and
// its payments.
func (s Service) documents(ctx context.Context, uid string) (Documents, error) {
	d, err := s.invoices(ctx, uid)
	if err != nil {
		return Documents{}, err
	}
	if d.Payments, err = s.Store.Payments(ctx, uid); err != nil {
		return Documents{}, err
	}
	if d.Refunds, err = s.Store.Refunds(ctx, uid); err != nil {
		return Documents{}, err
	}
	return d, nil
}

// Invoices reads account uid's invoices as allocation sees them, by number: what each
// still owes after its credit notes and allocations (the credit hold reads them).
func (s Service) Invoices(ctx context.Context, uid string) ([]Invoice, error) {
	d, err := s.invoices(ctx, uid)
	return d.Invoices, err
}

// invoices reads account uid's invoices as allocation sees them, by number: what each
// owes after its credit notes and allocations (one marked paid before payments were
// recorded owes nothing, and is in MarkedPaid too). Payments are not read.
func (s Service) invoices(ctx context.Context, uid string) (Documents, error) {
	os, err := s.Store.Orders(ctx, uid)
	if err != nil {
		return Documents{}, err
	}
	var d Documents
	for _, o := range os {
		inv, ok := InvoiceOf(o)
		if !ok {
			continue
		}
		if o.Paid() && o.InvoicePaid == 0 {
			d.MarkedPaid = append(d.MarkedPaid, inv)
			inv.Paid = inv.Gross
		}
		d.Invoices = append(d.Invoices, inv)
		for _, cn := range o.CreditNotes {
			d.CreditNotes = append(d.CreditNotes, CreditNote{Number: cn.Number, OrderID: o.ID, IssuedAt: cn.IssuedAt, Gross: cn.TotalIncVAT(),
				Applied: cn.Applied})
		}
	}
	sortInvoices(d.Invoices)
	// Each credit note (kept on its order) takes what it applied off its order's
	// invoice, for the allocation as for the ledger.
	credited := map[string]int64{}
	for _, cn := range d.CreditNotes {
		credited[cn.OrderID] += cn.Applied
	}
	for i := range d.Invoices {
		d.Invoices[i].Credited = credited[d.Invoices[i].OrderID]
	}
	return d, nil
}

// NewID makes a payment's id: PAY- and 12 random hex digits, upper case.
func NewID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "PAY-" + strings.ToUpper(hex.EncodeToString(b[:]))
}

// pause waits a little (jittered, growing up to 50 ms) before another attempt.
func pause(ctx context.Context, attempt int) {
	t := time.NewTimer(time.Duration(1+mrand.IntN(min(5+5*attempt, 50))) * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

func conflict(msg string) error { return &shoperr.ConflictError{Msg: msg} }
func notFound(msg string) error { return &shoperr.NotFoundError{Msg: msg} }
