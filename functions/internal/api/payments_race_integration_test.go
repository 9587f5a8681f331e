package api

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/testenv"
)

// checkPaymentInvariants holds an account to docs/invoices.md "Payments": each
// payment's allocations add up to its allocated total and stay within it; each invoice's
// allocations add up to what its order records and stay within its gross; the balance is
// Σ invoices − Σ credit notes − Σ payments (credit on account aside) + Σ refunds and the
// ledger's last running balance; due − unallocated is the balance.
func checkPaymentInvariants(t *testing.T, s *raceShop, svc payments.Service, uid string) payments.Ledger {
	t.Helper()
	ctx := context.Background()
	pays, err := s.st.Payments(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	os, err := s.st.Orders(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	toInvoice := map[string]int64{}
	var paid int64
	for _, p := range pays {
		var sum int64
		for _, a := range p.Allocations {
			sum += a.Amount
			toInvoice[a.OrderID] += a.Amount
		}
		if sum != p.Allocated || p.Allocated > p.Amount || p.Allocated < 0 {
			t.Errorf("payment %s: allocations %d, allocated %d, amount %d", p.ID, sum, p.Allocated, p.Amount)
		}
		if !p.IsCredit() {
			paid += p.Amount
		}
	}
	refunds, err := s.st.Refunds(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range refunds {
		paid -= r.Amount
	}
	var invoiced, credited int64
	for _, o := range os {
		if o.Invoice == nil {
			continue
		}
		invoiced += o.TotalIncVAT
		var applied int64
		for _, cn := range o.CreditNotes {
			credited += cn.TotalIncVAT()
			applied += cn.Applied
		}
		// What an invoice owes after its credit notes is its gross less what they applied.
		owes := o.TotalIncVAT - applied
		if toInvoice[o.ID] != o.InvoicePaid || o.InvoicePaid > owes {
			t.Errorf("order %s: allocated %d, records %d, owes %d after its credit notes", o.ID, toInvoice[o.ID], o.InvoicePaid, owes)
		}
		if o.Status != orders.StatusCancelled && o.InvoicePaid > 0 && o.Paid() != (o.InvoicePaid == owes) {
			t.Errorf("order %s: paid %v with %d of %d allocated", o.ID, o.Paid(), o.InvoicePaid, owes)
		}
	}
	l, err := svc.Ledger(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	if l.Balance != invoiced-credited-paid {
		t.Errorf("balance %d, want Σ invoices %d − Σ credit notes %d − (Σ payments − Σ refunds) %d", l.Balance, invoiced, credited, paid)
	}
	if n := len(l.Entries); n == 0 || l.Entries[n-1].Balance != l.Balance {
		t.Errorf("the ledger's last running balance is not the balance %d: %+v", l.Balance, l.Entries)
	}
	if l.Due-l.Unallocated != l.Balance {
		t.Errorf("due %d − unallocated %d is not the balance %d", l.Due, l.Unallocated, l.Balance)
	}
	return l
}

// invoicedOrders places n orders for u (each 3 packs at £50 ex VAT) and answers them,
// oldest first, with their invoices.
func invoicedOrders(t *testing.T, s *raceShop, u testenv.User, n int) []orders.Order {
	t.Helper()
	p := s.product(1000, 1, 5000)
	for i := range n {
		s.set(u, p, 3)
		if code, out := s.place(u, fmt.Sprintf("pay-race-%s-%d", u.UID[:8], i)); code != 201 {
			t.Fatalf("place: %d %v", code, out)
		}
	}
	os, err := s.st.Orders(context.Background(), u.UID)
	if err != nil || len(os) != n {
		t.Fatalf("orders: %d %v", len(os), err)
	}
	for i, j := 0, len(os)-1; i < j; i, j = i+1, j-1 {
		os[i], os[j] = os[j], os[i]
	}
	for _, o := range os {
		if o.Invoice == nil {
			t.Fatalf("order %s has no invoice", o.ID)
		}
	}
	return os
}

// raceConflicts runs call(0) … call(n-1) together and counts the calls that won and
// those refused with a ConflictError; any other error fails t, naming what.
func raceConflicts(t *testing.T, what string, n int, call func(i int) error) (won, refused int64) {
	var w, r atomic.Int64
	fns := make([]func(), n)
	for i := range fns {
		fns[i] = func() {
			err := call(i)
			var c *shoperr.ConflictError
			switch {
			case err == nil:
				w.Add(1)
			case errors.As(err, &c):
				r.Add(1)
			default:
				t.Errorf("%s: %v", what, err)
			}
		}
	}
	together(fns...)
	return w.Load(), r.Load()
}

// TestAllocationsStayExactUnder50ConcurrentWrites: 50 members of staff at once allocate
// £1 each of one £20 payment (exactly 20 win, the rest are told why), and 50 payments
// recorded at once are each allocated oldest first to the same invoices (each invoice
// takes exactly its gross, never more); every invariant holds after each round.
func TestAllocationsStayExactUnder50ConcurrentWrites(t *testing.T) {
	s := newRaceShop(t)
	ctx := context.Background()
	svc := payments.Service{Store: s.st, Now: time.Now}
	staff := orders.Staff{UID: "staff-race", Email: "staff@example.com"}
	u := s.buyer()
	os := invoicedOrders(t, s, u, 3)
	today := time.Now().In(london).Format(time.DateOnly)

	// One payment, many allocations at once.
	p, err := svc.Record(ctx, u.UID, payments.Recording{Method: payments.MethodBankTransfer, Date: today, Amount: 2000,
		Reference: "RACE ONE", Allocate: payments.AllocateNone, By: staff})
	if err != nil {
		t.Fatal(err)
	}
	won, refused := raceConflicts(t, "allocate", 50, func(i int) error {
		_, err := svc.Allocate(ctx, u.UID, p.ID, []payments.Line{{Invoice: os[i%2].Invoice.Number, Amount: 100}}, staff)
		return err
	})
	if won != 20 || refused != 30 {
		t.Fatalf("%d allocations won and %d were refused, want 20 and 30", won, refused)
	}
	if got, _ := s.st.Payment(ctx, u.UID, p.ID); got.Allocated != 2000 || len(got.Allocations) != 20 {
		t.Fatalf("the payment holds %d in %d allocations, want 2000 in 20", got.Allocated, len(got.Allocations))
	}
	checkPaymentInvariants(t, s, svc, u.UID)

	// Many payments, oldest first, at once: more than the invoices owe.
	var owed int64
	for _, o := range os {
		owed += o.TotalIncVAT
	}
	owed -= 2000
	each := owed/40 + 1
	fns := make([]func(), 50)
	for i := range fns {
		fns[i] = func() {
			if _, err := svc.Record(ctx, u.UID, payments.Recording{Method: payments.MethodCheque, Date: today, Amount: each,
				Reference: fmt.Sprintf("CHQ %d", i), By: staff}); err != nil {
				t.Errorf("record: %v", err)
			}
		}
	}
	together(fns...)
	l := checkPaymentInvariants(t, s, svc, u.UID)
	if l.Due != 0 || l.Unallocated != 50*each-owed || l.Balance != owed-50*each {
		t.Fatalf("after paying more than owed: due %d, unallocated %d, balance %d (owed %d, paid %d)", l.Due, l.Unallocated, l.Balance, owed, 50*each)
	}
	for _, o := range os {
		got, err := s.st.Order(ctx, u.UID, o.ID)
		if err != nil || !got.Paid() || got.Version != o.Version+1 {
			t.Fatalf("order %s: paid %v, version %d (was %d): %v", o.ID, got.Paid(), got.Version, o.Version, err)
		}
	}
}

// TestPaymentEndpoints: a member of staff records a bank transfer for two invoices
// through the API (oldest first), the ledger shows it, an allocation by hand of more
// than the rest is refused with its sentence, and Mark paid on the third order is a
// payment that pays it.
func TestPaymentEndpoints(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	staff := testenv.Staff(t, testenv.NewUser(t))
	u := s.buyer()
	os := invoicedOrders(t, s, u, 3)
	today := time.Now().In(london).Format(time.DateOnly)
	two := os[0].TotalIncVAT + os[1].TotalIncVAT
	code, out := s.c.post("/api/admin/accounts/"+u.UID+"/payments", fmt.Sprintf(`{"token":%q,"method":"bank_transfer","date":%q,"amount":%d,"reference":"BACS TWO"}`,
		staff.IDToken, today, two+500), nil)
	if code != 200 {
		t.Fatalf("record: %d %v", code, out)
	}
	p := out["payment"].(map[string]any)
	ledger := out["ledger"].(map[string]any)
	if p["allocated"].(float64) != float64(two+500) || len(p["allocations"].([]any)) != 3 || p["unallocated"].(float64) != 0 {
		t.Fatalf("payment %v", p)
	}
	want := os[0].TotalIncVAT + os[1].TotalIncVAT + os[2].TotalIncVAT - (two + 500)
	if ledger["balance"].(float64) != float64(want) || ledger["due"].(float64) != float64(want) || len(ledger["entries"].([]any)) != 4 {
		t.Fatalf("ledger %v, want balance %d", ledger, want)
	}
	code, out = s.c.post("/api/admin/accounts/"+u.UID+"/payments", fmt.Sprintf(`{"token":%q,"method":"cheque","date":%q,"amount":100000,"reference":"CHQ 1","allocate":"by_hand","lines":[{"invoice":%q,"amount":%d}]}`,
		staff.IDToken, today, orders.InvoiceNumber(os[2].Invoice.Number), want+1), nil)
	if code != 409 || out["error"] != fmt.Sprintf("Invoice %s owes only %s: allocate at most that.", orders.InvoiceNumber(os[2].Invoice.Number), orders.Pounds(want)) {
		t.Fatalf("more than it owes: %d %v", code, out)
	}
	code, out = s.c.post("/api/admin/accounts/"+u.UID+"/payments", fmt.Sprintf(`{"token":%q,"method":"cash","date":"tomorrow","amount":0,"reference":""}`, staff.IDToken), nil)
	if code != 400 {
		t.Fatalf("a bad payment: %d %v", code, out)
	}
	o, err := s.st.Order(context.Background(), u.UID, os[2].ID)
	if err != nil {
		t.Fatal(err)
	}
	code, out = s.c.post("/api/admin/orders/"+o.ID+"/action", fmt.Sprintf(`{"token":%q,"action":"pay","version":%d}`, staff.IDToken, o.Version), nil)
	if code != 200 || out["order"].(map[string]any)["paid_at"] == nil {
		t.Fatalf("mark paid: %d %v", code, out)
	}
	code, out, _ = s.c.get("/api/admin/accounts/"+u.UID+"/ledger", staff.IDToken)
	if code != 200 || out["balance"].(float64) != 0 || out["due"].(float64) != 0 || len(out["entries"].([]any)) != 5 {
		t.Fatalf("ledger after Mark paid: %d %v", code, out)
	}
	checkPaymentInvariants(t, s, payments.Service{Store: s.st, Now: time.Now}, u.UID)
}

// A cancelled order's credit note is in its account's ledger and takes its invoice off the
// balance: Σ invoices − Σ credit notes − Σ payments, as docs/invoices.md says, and nothing
// can be allocated to the cancelled invoice.
func TestLedgerCountsCreditNotes(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	staff := testenv.Staff(t, testenv.NewUser(t))
	u := s.buyer()
	os := invoicedOrders(t, s, u, 2)
	code, out := s.c.post("/api/admin/orders/"+os[0].ID+"/action", fmt.Sprintf(`{"token":%q,"action":"cancel","version":%d,"reason":"Ordered twice"}`, staff.IDToken, os[0].Version), nil)
	if code != 200 {
		t.Fatalf("cancel: %d %v", code, out)
	}
	l := checkPaymentInvariants(t, s, payments.Service{Store: s.st, Now: time.Now}, u.UID)
	if l.Balance != os[1].TotalIncVAT {
		t.Errorf("balance %d, want the other order's %d", l.Balance, os[1].TotalIncVAT)
	}
	kinds := map[string]int{}
	for _, e := range l.Entries {
		kinds[string(e.Kind)]++
	}
	if kinds[string(payments.KindCreditNote)] != 1 || kinds[string(payments.KindInvoice)] != 2 {
		t.Errorf("ledger entries by kind %v, want 2 invoices and 1 credit note", kinds)
	}
	today := time.Now().In(london).Format(time.DateOnly)
	code, out = s.c.post("/api/admin/accounts/"+u.UID+"/payments", fmt.Sprintf(`{"token":%q,"method":"bank_transfer","date":%q,"amount":%d,"reference":"BACS ALL"}`,
		staff.IDToken, today, os[0].TotalIncVAT+os[1].TotalIncVAT), nil)
	if code != 200 {
		t.Fatalf("record: %d %v", code, out)
	}
	if got := out["payment"].(map[string]any)["allocated"].(float64); got != float64(os[1].TotalIncVAT) {
		t.Errorf("allocated %v, want only the open invoice's %d", got, os[1].TotalIncVAT)
	}
	checkPaymentInvariants(t, s, payments.Service{Store: s.st, Now: time.Now}, u.UID)
}
