package payments

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/shoperr"
)

func day(s string) time.Time {
	d, err := ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d.Add(10 * time.Hour)
}

func TestOldestFirst(t *testing.T) {
	t.Parallel()
	invs := []Invoice{
		{Number: 3, Gross: 500, Status: orders.StatusPlaced},
		{Number: 1, Gross: 1000, Paid: 400, Status: orders.StatusPlaced},
		{Number: 2, Gross: 700, Status: orders.StatusCancelled},
		{Number: 4, Gross: 300, Paid: 300, Status: orders.StatusPlaced},
		{Number: 5, Gross: 900, Status: orders.StatusDispatched},
	}
	cases := []struct {
		name   string
		amount int64
		want   []Line
	}{
		{"less than the oldest owes", 100, []Line{{1, 100}}},
		{"the oldest then the next open one", 800, []Line{{1, 600}, {3, 200}}},
		{"more than everything owes", 10_000, []Line{{1, 600}, {3, 500}, {5, 900}}},
		{"nothing", 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := OldestFirst(invs, c.amount); !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	invs := []Invoice{
		{Number: 1, OrderID: "TS-1", Gross: 1000, Paid: 400, Status: orders.StatusPlaced},
		{Number: 2, OrderID: "TS-2", Gross: 700, Status: orders.StatusCancelling},
	}
	cases := []struct {
		name  string
		lines []Line
		left  int64
		want  string // "" for none
	}{
		{"what it owes", []Line{{1, 600}}, 600, ""},
		{"more than it owes", []Line{{1, 601}}, 1000, "Invoice INV-000001 owes only £6.00: allocate at most that."},
		{"more than the payment has", []Line{{1, 600}}, 599, "The payment has only £5.99 left to allocate: the invoices named take £6.00."},
		{"a cancelled order's", []Line{{2, 1}}, 100, "Invoice INV-000002 is of order TS-2, which is cancelled: nothing can be allocated to it."},
		{"another account's", []Line{{9, 1}}, 100, "Invoice INV-000009 is not an invoice of this account."},
		{"named twice", []Line{{1, 1}, {1, 1}}, 100, "Invoice INV-000001 is named twice: name each invoice once."},
		{"none", nil, 100, "There is no invoice on the account that owes anything: nothing was allocated."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := Check(c.lines, c.left, invs)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestProblems(t *testing.T) {
	t.Parallel()
	today := day("2026-11-27")
	ok := Recording{Method: MethodCheque, Date: "2026-11-27", Amount: 100, Reference: "CHQ 000123"}
	cases := []struct {
		name   string
		change func(r *Recording)
		field  string
	}{
		{"fine", func(*Recording) {}, ""},
		{"a method of its own", func(r *Recording) { r.Method = "cash" }, "method"},
		{"tomorrow", func(r *Recording) { r.Date = "2026-11-28" }, "date"},
		{"not a day", func(r *Recording) { r.Date = "27/11/2026" }, "date"},
		{"no amount", func(r *Recording) { r.Amount = 0 }, "amount"},
		{"too much", func(r *Recording) { r.Amount = MaxAmount + 1 }, "amount"},
		{"no reference", func(r *Recording) { r.Reference = " " }, "reference"},
		{"by hand with no invoices", func(r *Recording) { r.Allocate = AllocateByHand }, "lines"},
		{"invoices without by hand", func(r *Recording) { r.Lines = []Line{{1, 1}} }, "lines"},
		{"an unknown way", func(r *Recording) { r.Allocate = "newest" }, "allocate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := ok
			c.change(&r)
			p := Problems(r, today)
			if c.field == "" && len(p) != 0 || c.field != "" && (len(p) != 1 || p[c.field] == "") {
				t.Fatalf("problems %v, want one for %q", p, c.field)
			}
		})
	}
}

func TestParseInvoiceNumber(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"INV-000042": 42, "inv-7": 7, "42": 42, " INV-000001 ": 1, "CN-000001": 0, "": 0, "INV--1": 0} {
		if got := ParseInvoiceNumber(in); got != want {
			t.Errorf("%q: got %d, want %d", in, got, want)
		}
	}
}

// TestLedgerBalanceIsTheSumOfItsDocuments: the running balance moves by each document
// in date order; the last is Σ invoices − Σ credit notes − Σ payments; due and overdue
// come from what each invoice still owes and its terms.
func TestLedgerBalanceIsTheSumOfItsDocuments(t *testing.T) {
	t.Parallel()
	docs := Documents{
		Invoices: []Invoice{
			{Number: 1, OrderID: "TS-1", IssuedAt: day("2026-09-01"), Gross: 12000, Paid: 12000, TermsDays: 30},
			{Number: 2, OrderID: "TS-2", IssuedAt: day("2026-10-01"), Gross: 6000, Paid: 1000, TermsDays: 30},
			{Number: 3, OrderID: "TS-3", IssuedAt: day("2026-11-20"), Gross: 3000, TermsDays: 30},
			{Number: 4, OrderID: "TS-4", IssuedAt: day("2026-10-02"), Gross: 2000, TermsDays: 0, ProForma: true},
			{Number: 5, OrderID: "TS-5", IssuedAt: day("2026-10-03"), Gross: 500, TermsDays: 30},
		},
		// CN-000002 credits the paid TS-1: it applies nothing and leaves 300 on account,
		// which the ledger counts as unallocated but does not list as a payment.
		CreditNotes: []CreditNote{{Number: 1, OrderID: "TS-5", IssuedAt: day("2026-10-04"), Gross: 500, Applied: 500},
			{Number: 2, OrderID: "TS-1", IssuedAt: day("2026-11-26"), Gross: 300}},
		Payments: []Payment{
			{ID: "PAY-A", Date: "2026-09-20", RecordedAt: day("2026-09-21"), Amount: 13000, Allocated: 13000},
			{ID: "PAY-B", Date: "2026-11-25", RecordedAt: day("2026-11-25"), Amount: 700},
			{ID: "CN-000002", Method: MethodCreditNote, Date: "2026-11-26", RecordedAt: day("2026-11-26"), Amount: 300},
		},
	}
	l := Build(docs, day("2026-11-27"))
	wantRefs := []string{"INV-000001", "PAY-A", "INV-000002", "INV-000004", "INV-000005", "CN-000001", "INV-000003", "PAY-B", "CN-000002"}
	var refs []string
	var run int64
	for _, e := range l.Entries {
		refs = append(refs, e.Reference)
		run += e.Debit - e.Credit
		if e.Balance != run {
			t.Errorf("%s: running balance %d, want %d", e.Reference, e.Balance, run)
		}
	}
	if !slices.Equal(refs, wantRefs) {
		t.Fatalf("entries %v, want %v", refs, wantRefs)
	}
	if want := int64(12000 + 6000 + 3000 + 2000 + 500 - 500 - 300 - 13000 - 700); l.Balance != want || run != want {
		t.Fatalf("balance %d, want %d", l.Balance, want)
	}
	// TS-2 owes 5000 and was due on 31 October; TS-3 owes 3000, due 20 December; the
	// pro-forma TS-4 owes 2000 and is never overdue; TS-5 is credited in full.
	if l.Due != 5000+3000+2000 || l.Overdue != 5000 || l.Unallocated != 700+300 {
		t.Fatalf("due %d, overdue %d, unallocated %d", l.Due, l.Overdue, l.Unallocated)
	}
	if l.Due-l.Unallocated != l.Balance {
		t.Fatalf("due − unallocated %d is not the balance %d", l.Due-l.Unallocated, l.Balance)
	}
}

// TestDueOnIsTheLondonDayPlusTheTerms: an invoice issued at 00:30 BST on 1 July is due
// 30 London days later; it is overdue from the day after.
func TestDueOnIsTheLondonDayPlusTheTerms(t *testing.T) {
	t.Parallel()
	inv := Invoice{IssuedAt: time.Date(2026, 6, 30, 23, 30, 0, 0, time.UTC), Gross: 100, TermsDays: 30}
	if got := inv.DueOn().Format(time.DateOnly); got != "2026-07-31" {
		t.Fatalf("due on %s, want 2026-07-31", got)
	}
	if inv.Overdue(day("2026-07-31")) || !inv.Overdue(day("2026-08-01")) {
		t.Fatal("overdue on the wrong day")
	}
}

// fakeStore holds one account's orders and payments in memory, and loses the first
// races it is told to.
type fakeStore struct {
	orders   []orders.Order
	payments map[string]Payment
	refunds  []Refund
	lose     []error
	writes   []Write
}

func (f *fakeStore) AccountBusiness(context.Context, string) (string, error) {
	return "Fake Cards Ltd", nil
}
func (f *fakeStore) Orders(context.Context, string) ([]orders.Order, error) {
	return slices.Clone(f.orders), nil
}
func (f *fakeStore) Payments(context.Context, string) ([]Payment, error) {
	var out []Payment
	for _, p := range f.payments {
		out = append(out, p)
	}
	return out, nil
}
func (f *fakeStore) Payment(_ context.Context, _, id string) (Payment, error) {
	p, ok := f.payments[id]
	if !ok {
		return Payment{}, notFound("no payment")
	}
	return p, nil
}
func (f *fakeStore) Refunds(context.Context, string) ([]Refund, error) {
	return slices.Clone(f.refunds), nil
}

// WriteRefund holds the store's condition: the source must still hold the amount.
func (f *fakeStore) WriteRefund(_ context.Context, w RefundWrite) error {
	if len(f.lose) > 0 {
		err := f.lose[0]
		f.lose = f.lose[1:]
		return err
	}
	p := f.payments[w.Source.ID]
	if p.Allocated > p.Amount-w.Refund.Amount {
		return ErrPaymentMoved
	}
	p.Allocated += w.Refund.Amount
	p.Allocations = append(p.Allocations, Allocation{Refund: w.Refund.ID, Amount: w.Refund.Amount})
	f.payments[p.ID] = p
	f.refunds = append(f.refunds, w.Refund)
	return nil
}
func (f *fakeStore) WriteAllocation(_ context.Context, w Write) error {
	if len(f.lose) > 0 {
		err := f.lose[0]
		f.lose = f.lose[1:]
		return err
	}
	f.writes = append(f.writes, w)
	f.payments[w.Payment.ID] = w.Payment
	for _, l := range w.Lines {
		for i := range f.orders {
			if f.orders[i].ID == l.Invoice.OrderID {
				f.orders[i].InvoicePaid += l.Amount
				if l.Covers {
					f.orders[i].PaidAt = l.At
					f.orders[i].Version++
				}
			}
		}
	}
	return nil
}

func invoicedOrder(id string, n, gross int64, proForma bool) orders.Order {
	o := orders.Order{ID: id, UID: "u1", TotalIncVAT: gross, Status: orders.StatusConfirmed, Version: 2,
		Invoice: &orders.Invoice{Number: n, IssuedAt: day("2026-11-01"), TermsDays: 30}}
	if !proForma {
		o.Billing = onAccount()
	}
	return o
}

// TestRecordAllocatesOldestFirstAndTriesAgainAfterALostRace: a payment recorded with
// the default allocation settles the oldest invoice, then part of the next; an invoice
// paid in full has its own audit entry; every amount allocated to an invoice on account
// comes off what the account owes; a race lost to another allocation is read again and tried again.
func TestRecordAllocatesOldestFirstAndTriesAgainAfterALostRace(t *testing.T) {
	t.Parallel()
	f := &fakeStore{orders: []orders.Order{invoicedOrder("TS-2", 2, 5000, false), invoicedOrder("TS-1", 1, 3000, false)},
		payments: map[string]Payment{}, lose: []error{ErrInvoiceMoved, ErrBusy}}
	s := Service{Store: f, Now: func() time.Time { return day("2026-11-27") }}
	p, err := s.Record(context.Background(), "u1", Recording{Method: MethodBankTransfer, Date: "2026-11-27", Amount: 4000, Reference: "BACS 1"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Allocated != 4000 || len(p.Allocations) != 2 || p.Allocations[0].Invoice != 1 || p.Allocations[0].Amount != 3000 {
		t.Fatalf("payment %+v", p)
	}
	if len(f.writes) != 1 {
		t.Fatalf("%d writes, want 1", len(f.writes))
	}
	w := f.writes[0]
	if !w.New || w.OwedDelta != -4000 || !w.Lines[0].Covers || w.Lines[1].Covers || w.Lines[0].OrderAudit.Action != orders.ActionPay {
		t.Fatalf("write %+v", w)
	}
	l, err := s.Ledger(context.Background(), "u1")
	if err != nil {
		t.Fatal(err)
	}
	if l.Balance != 8000-4000 || l.Due != 4000 || l.Unallocated != 0 {
		t.Fatalf("ledger: balance %d, due %d, unallocated %d", l.Balance, l.Due, l.Unallocated)
	}
}

// TestAllocateRefusesWhatIsNotThere: a payment allocated in full, and an invoice that
// owes less than asked, are refused with a sentence; nothing is written.
func TestAllocateRefusesWhatIsNotThere(t *testing.T) {
	t.Parallel()
	f := &fakeStore{orders: []orders.Order{invoicedOrder("TS-1", 1, 3000, true)}, payments: map[string]Payment{
		"PAY-FULL": {ID: "PAY-FULL", UID: "u1", Amount: 100, Allocated: 100},
		"PAY-SOME": {ID: "PAY-SOME", UID: "u1", Amount: 5000},
	}}
	s := Service{Store: f, Now: time.Now}
	var c *shoperr.ConflictError
	if _, err := s.Allocate(context.Background(), "u1", "PAY-FULL", nil, orders.Staff{}); !errors.As(err, &c) {
		t.Fatalf("a payment allocated in full: %v", err)
	}
	if _, err := s.Allocate(context.Background(), "u1", "PAY-SOME", []Line{{1, 3001}}, orders.Staff{}); !errors.As(err, &c) {
		t.Fatalf("more than the invoice owes: %v", err)
	}
	if len(f.writes) != 0 {
		t.Fatalf("%d writes, want none", len(f.writes))
	}
	// A pro-forma order paid in full is paid, and what the account owes does not move.
	p, err := s.Allocate(context.Background(), "u1", "PAY-SOME", []Line{{1, 3000}}, orders.Staff{})
	if err != nil || p.Unallocated() != 2000 || f.writes[0].OwedDelta != 0 || !f.orders[0].Paid() {
		t.Fatalf("allocate: %+v %v", p, err)
	}
}

// TestPayInvoiceIsAPaymentOfWhatIsOwed: Mark paid records a bank transfer of what the
// invoice still owes, referenced with the order, and allocates it there.
func TestPayInvoiceIsAPaymentOfWhatIsOwed(t *testing.T) {
	t.Parallel()
	o := invoicedOrder("TS-1", 1, 3000, false)
	o.InvoicePaid = 1000
	f := &fakeStore{orders: []orders.Order{o}, payments: map[string]Payment{}}
	s := Service{Store: f, Now: func() time.Time { return day("2026-11-27") }}
	after, err := s.PayInvoice(context.Background(), o, orders.Staff{UID: "s1"})
	if err != nil || !after.Paid() || after.Version != 3 || after.InvoicePaid != 3000 {
		t.Fatalf("paid: %+v %v", after, err)
	}
	w := f.writes[0]
	if w.Payment.Amount != 2000 || w.Payment.Reference != "TS-1" || w.Payment.Method != MethodBankTransfer || w.OwedDelta != -2000 {
		t.Fatalf("write %+v", w)
	}
	noInvoice := o
	noInvoice.Invoice = nil
	var c *shoperr.ConflictError
	if _, err := s.PayInvoice(context.Background(), noInvoice, orders.Staff{}); !errors.As(err, &c) {
		t.Fatalf("an order waiting for its invoice: %v", err)
	}
}

func onAccount() *account.Billing { return &account.Billing{PaymentMethod: account.PayOnAccount} }

// TestLedgerCountsCreditOnAccountAndRefunds: credit on account (a credit note's gross
// beyond what its invoice owed) is no entry of its own but counts in unallocated; a
// refund is a debit; balance = Σ invoices − Σ credit notes − Σ payments + Σ refunds =
// due − unallocated.
func TestLedgerCountsCreditOnAccountAndRefunds(t *testing.T) {
	t.Parallel()
	docs := Documents{
		Invoices: []Invoice{
			{Number: 1, OrderID: "TS-1", IssuedAt: day("2026-11-01"), Gross: 5000, Paid: 5000, TermsDays: 30},
			{Number: 2, OrderID: "TS-2", IssuedAt: day("2026-11-02"), Gross: 3000, TermsDays: 30},
		},
		// TS-1 was paid, then 2000 of it credited: all of it credit on account.
		CreditNotes: []CreditNote{{Number: 1, OrderID: "TS-1", IssuedAt: day("2026-11-10"), Gross: 2000, Applied: 0}},
		Payments: []Payment{
			{ID: "PAY-A", Date: "2026-11-05", RecordedAt: day("2026-11-05"), Amount: 6000, Allocated: 5000 + 400,
				Allocations: []Allocation{{Invoice: 1, Amount: 5000}, {Refund: "REF-1", Amount: 400}}},
			{ID: "CN-000001", Method: MethodCreditNote, Date: "2026-11-10", RecordedAt: day("2026-11-10"), Amount: 2000, Allocated: 1500,
				Allocations: []Allocation{{Invoice: 2, Amount: 1000}, {Refund: "REF-2", Amount: 500}}},
		},
		Refunds: []Refund{
			{ID: "REF-1", Source: "PAY-A", Method: MethodBankTransfer, Date: "2026-11-12", RecordedAt: day("2026-11-12"), Amount: 400},
			{ID: "REF-2", Source: "CN-000001", Method: MethodCheque, Date: "2026-11-13", RecordedAt: day("2026-11-13"), Amount: 500},
		},
	}
	docs.Invoices[1].Paid = 1000
	l := Build(docs, day("2026-11-27"))
	var refs []string
	for _, e := range l.Entries {
		refs = append(refs, e.Kind+" "+e.Reference)
	}
	want := []string{"invoice INV-000001", "invoice INV-000002", "payment PAY-A", "credit_note CN-000001", "refund REF-1", "refund REF-2"}
	if !slices.Equal(refs, want) {
		t.Fatalf("entries %v, want %v", refs, want)
	}
	if b := int64(5000 + 3000 - 2000 - 6000 + 400 + 500); l.Balance != b {
		t.Fatalf("balance %d, want %d", l.Balance, b)
	}
	// TS-2 owes 2000; PAY-A holds 600 and the credit 500.
	if l.Due != 2000 || l.Unallocated != 600+500 || l.Due-l.Unallocated != l.Balance {
		t.Fatalf("due %d, unallocated %d, balance %d", l.Due, l.Unallocated, l.Balance)
	}
	if e := l.Entries[3]; e.Unallocated != 500 {
		t.Fatalf("the credit note's entry holds %d of its credit, want 500", e.Unallocated)
	}
	if e := l.Entries[5]; e.Debit != 500 || e.Source != "CN-000001" || e.Method != MethodCheque {
		t.Fatalf("refund entry %+v", e)
	}
}

func TestRefundProblems(t *testing.T) {
	t.Parallel()
	today := day("2026-11-27")
	ok := RefundRequest{Source: "PAY-ABC", Method: MethodBankTransfer, Date: "2026-11-27", Amount: 100, Reference: "BACS BACK"}
	cases := []struct {
		name  string
		edit  func(r *RefundRequest)
		field string // "" for none
	}{
		{"as it should be", func(*RefundRequest) {}, ""},
		{"from credit on account", func(r *RefundRequest) { r.Source = "CN-000007" }, ""},
		{"a reversal", func(r *RefundRequest) { r.Method = MethodReversal }, ""},
		{"from an invoice", func(r *RefundRequest) { r.Source = "INV-000001" }, "source"},
		{"in cash", func(r *RefundRequest) { r.Method = "cash" }, "method"},
		{"tomorrow", func(r *RefundRequest) { r.Date = "2026-11-28" }, "date"},
		{"nothing", func(r *RefundRequest) { r.Amount = 0 }, "amount"},
		{"no reference", func(r *RefundRequest) { r.Reference = " " }, "reference"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := ok
			c.edit(&r)
			p := RefundProblems(r, today)
			if c.field == "" && len(p) > 0 || c.field != "" && (len(p) != 1 || p[c.field] == "") {
				t.Fatalf("problems %v, want one for %q", p, c.field)
			}
		})
	}
}

// TestRefund: a refund takes from what a payment or credit on account holds unallocated
// and no more; a reversal takes back a whole payment with nothing allocated, never credit
// on account; a race lost to another refund is read again and refused with a sentence.
func TestRefund(t *testing.T) {
	t.Parallel()
	src := func() map[string]Payment {
		return map[string]Payment{
			"PAY-SOME":  {ID: "PAY-SOME", UID: "u1", Method: MethodCheque, Amount: 5000, Allocated: 3000},
			"PAY-NONE":  {ID: "PAY-NONE", UID: "u1", Method: MethodCheque, Amount: 5000},
			"CN-000007": {ID: "CN-000007", UID: "u1", Method: MethodCreditNote, Amount: 1200, OrderID: "TS-7"},
		}
	}
	cases := []struct {
		name    string
		source  string
		method  string
		amount  int64
		lose    []error
		want    string // the 409's sentence; "" when it is recorded
		leftNow int64
	}{
		{"what a payment has left", "PAY-SOME", MethodBankTransfer, 2000, nil, "", 0},
		{"more than it has left", "PAY-SOME", MethodBankTransfer, 2001, nil, "Payment PAY-SOME has only £20.00 left: refund at most that.", 2000},
		{"part of credit on account", "CN-000007", MethodCheque, 200, nil, "", 1000},
		{"more than the credit", "CN-000007", MethodCheque, 1300, nil, "The credit on account from CN-000007 has only £12.00 left: refund at most that.", 1200},
		{"after a lost race", "CN-000007", MethodCheque, 1200, []error{ErrBusy, ErrPaymentMoved}, "", 0},
		{"a reversal of a whole payment", "PAY-NONE", MethodReversal, 5000, nil, "", 0},
		{"a reversal of part", "PAY-NONE", MethodReversal, 4000, nil, "A reversal takes back the whole payment: £50.00.", 5000},
		{"a reversal of an allocated payment", "PAY-SOME", MethodReversal, 5000, nil,
			"Payment PAY-SOME has £30.00 allocated or refunded already: only a payment with nothing allocated can be reversed.", 2000},
		{"a reversal of credit", "CN-000007", MethodReversal, 1200, nil,
			"The credit on account from CN-000007 is not a payment received: refund it by bank transfer or cheque, or allocate it.", 1200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeStore{payments: src(), lose: c.lose}
			s := Service{Store: f, Now: func() time.Time { return day("2026-11-27") }}
			r, after, err := s.Refund(context.Background(), "u1", RefundRequest{Source: c.source, Method: c.method, Date: "2026-11-27",
				Amount: c.amount, Reference: "BACK", By: orders.Staff{UID: "s1"}})
			got := ""
			if err != nil {
				var cf *shoperr.ConflictError
				if !errors.As(err, &cf) {
					t.Fatalf("refund: %v", err)
				}
				got = err.Error()
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			if left := f.payments[c.source].Unallocated(); left != c.leftNow {
				t.Fatalf("the source has %d left, want %d", left, c.leftNow)
			}
			if c.want == "" && (after.Unallocated() != c.leftNow || r.Source != c.source || r.Amount != c.amount || len(f.refunds) != 1) {
				t.Fatalf("refund %+v, source after %+v", r, after)
			}
		})
	}
}

// TestAllocateCreditOnAccount: credit on account (CN-…) is allocated as a payment is,
// oldest first; an id that is neither a payment nor a credit note is not there.
func TestAllocateCreditOnAccount(t *testing.T) {
	t.Parallel()
	f := &fakeStore{orders: []orders.Order{invoicedOrder("TS-2", 2, 5000, false), invoicedOrder("TS-1", 1, 3000, false)},
		payments: map[string]Payment{"CN-000003": {ID: "CN-000003", UID: "u1", Method: MethodCreditNote, Amount: 4000, OrderID: "TS-0"}}}
	s := Service{Store: f, Now: func() time.Time { return day("2026-11-27") }}
	p, err := s.Allocate(context.Background(), "u1", "CN-000003", nil, orders.Staff{UID: "s1"})
	if err != nil || p.Allocated != 4000 || len(p.Allocations) != 2 || f.writes[0].OwedDelta != -4000 || f.writes[0].New {
		t.Fatalf("allocate: %+v %v", p, err)
	}
	var c *shoperr.ConflictError
	if _, err := s.Allocate(context.Background(), "u1", "CN-000003", nil, orders.Staff{}); !errors.As(err, &c) ||
		err.Error() != "The credit on account from CN-000003 is allocated in full already." {
		t.Fatalf("allocated in full: %v", err)
	}
	var nf *shoperr.NotFoundError
	if _, err := s.Allocate(context.Background(), "u1", "INV-000001", nil, orders.Staff{}); !errors.As(err, &nf) {
		t.Fatalf("an invoice's number: %v", err)
	}
}
