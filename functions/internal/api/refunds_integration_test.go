package api

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/testenv"
)

// putCreditOnAccount puts credit on account as a credit note's transaction does
// (docs/invoices.md "Credit on account"): a payment item of method credit_note whose id is
// the note's number, with nothing allocated.
func putCreditOnAccount(t *testing.T, s *raceShop, uid, number, orderID string, amount int64) {
	t.Helper()
	now := time.Now()
	p := payments.Payment{ID: number, UID: uid, Method: payments.MethodCreditNote, Date: now.In(london).Format(time.DateOnly),
		Amount: amount, Reference: number, RecordedAt: now, By: orders.Staff{UID: "staff-test"}, OrderID: orderID}
	if err := s.st.WriteAllocation(context.Background(), payments.Write{Payment: p, New: true,
		Audit: orders.AuditEntry{At: now, Action: "credit note", After: map[string]any{"credit_note": number}}}); err != nil {
		t.Fatal(err)
	}
}

// TestCreditOnAccountIsAllocatedAndRefunded: staff allocate credit on account (CN-…) to
// an invoice through the API as they would a payment; then 50 members of staff at once
// refund £1 each of the £15 it has left: exactly 15 win, the rest are told why, and the
// credit's allocations add up to what it holds. The refunds are debits on the ledger.
func TestCreditOnAccountIsAllocatedAndRefunded(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	staff := testenv.Staff(t, testenv.NewUser(t))
	u := s.buyer()
	os := invoicedOrders(t, s, u, 1)
	putCreditOnAccount(t, s, u.UID, "CN-000001", "TS-CREDITED", 2000)
	inv := orders.InvoiceNumber(os[0].Invoice.Number)

	code, out := s.c.post("/api/admin/accounts/"+u.UID+"/payments/CN-000001/allocate",
		fmt.Sprintf(`{"token":%q,"lines":[{"invoice":%q,"amount":500}]}`, staff.IDToken, inv), nil)
	if code != 200 {
		t.Fatalf("allocate the credit: %d %v", code, out)
	}
	p := out["payment"].(map[string]any)
	if p["method"] != payments.MethodCreditNote || p["unallocated"].(float64) != 1500 || p["order_id"] != "TS-CREDITED" {
		t.Fatalf("the credit after: %v", p)
	}
	if o, err := s.st.Order(ctx, u.UID, os[0].ID); err != nil || o.InvoicePaid != 500 {
		t.Fatalf("the invoice holds %d: %v", o.InvoicePaid, err)
	}
	// The ledger lists no payment for the credit (its credit note's entry is the
	// document) but counts what it holds.
	ledger := out["ledger"].(map[string]any)
	for _, e := range ledger["entries"].([]any) {
		if e.(map[string]any)["reference"] == "CN-000001" {
			t.Fatalf("the credit is an entry of the ledger: %v", e)
		}
	}
	if ledger["unallocated"].(float64) != 1500 {
		t.Fatalf("ledger unallocated %v, want 1500", ledger["unallocated"])
	}

	svc := payments.Service{Store: s.st, Now: time.Now}
	today := time.Now().In(london).Format(time.DateOnly)
	by := orders.Staff{UID: "staff-race", Email: "staff@example.com"}
	won, refused := raceConflicts(t, "refund", 50, func(i int) error {
		_, _, err := svc.Refund(ctx, u.UID, payments.RefundRequest{Source: "CN-000001", Method: payments.MethodBankTransfer,
			Date: today, Amount: 100, Reference: fmt.Sprintf("BACK %d", i), By: by})
		return err
	})
	if won != 15 || refused != 35 {
		t.Fatalf("%d refunds won and %d were refused, want 15 and 35", won, refused)
	}
	credit, err := s.st.Payment(ctx, u.UID, "CN-000001")
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, a := range credit.Allocations {
		sum += a.Amount
	}
	if credit.Allocated != 2000 || sum != 2000 || len(credit.Allocations) != 16 {
		t.Fatalf("the credit holds %d allocated (%d in %d allocations), want 2000 in 16", credit.Allocated, sum, len(credit.Allocations))
	}
	refunds, err := s.st.Refunds(ctx, u.UID)
	if err != nil || len(refunds) != 15 {
		t.Fatalf("%d refunds: %v", len(refunds), err)
	}
	l, err := svc.Ledger(ctx, u.UID)
	if err != nil {
		t.Fatal(err)
	}
	var debits int64
	for _, e := range l.Entries {
		if e.Kind == payments.KindRefund {
			debits += e.Debit
		}
	}
	if debits != 1500 || l.Unallocated != 0 {
		t.Fatalf("refund debits %d, unallocated %d", debits, l.Unallocated)
	}
}

// TestRefundEndpoint: a refund of part of a payment through the API is a debit on the
// ledger and the invariants hold; more than is left is a 409 with its sentence; a bad
// refund is a 400 by field; a reversal takes back a whole payment with nothing
// allocated.
func TestRefundEndpoint(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	staff := testenv.Staff(t, testenv.NewUser(t))
	u := s.buyer()
	os := invoicedOrders(t, s, u, 1)
	today := time.Now().In(london).Format(time.DateOnly)
	code, out := s.c.post("/api/admin/accounts/"+u.UID+"/payments", fmt.Sprintf(`{"token":%q,"method":"bank_transfer","date":%q,"amount":%d,"reference":"BACS OVER"}`,
		staff.IDToken, today, os[0].TotalIncVAT+700), nil)
	if code != 200 {
		t.Fatalf("record: %d %v", code, out)
	}
	id := out["payment"].(map[string]any)["id"].(string)
	refund := func(source, method string, amount int64) (int, map[string]any) {
		return s.c.post("/api/admin/accounts/"+u.UID+"/refunds", fmt.Sprintf(`{"token":%q,"source":%q,"method":%q,"date":%q,"amount":%d,"reference":"BACK"}`,
			staff.IDToken, source, method, today, amount), nil)
	}
	code, out = refund(id, "cheque", 701)
	if code != 409 || out["error"] != fmt.Sprintf("Payment %s has only £7.00 left: refund at most that.", id) {
		t.Fatalf("more than is left: %d %v", code, out)
	}
	code, out = refund(id, "cheque", 700)
	if code != 200 {
		t.Fatalf("refund: %d %v", code, out)
	}
	ledger := out["ledger"].(map[string]any)
	entries := ledger["entries"].([]any)
	last := entries[len(entries)-1].(map[string]any)
	if last["kind"] != "refund" || last["debit"].(float64) != 700 || last["source"] != id || ledger["balance"].(float64) != 0 {
		t.Fatalf("ledger after the refund: %v", ledger)
	}
	if p := out["payment"].(map[string]any); p["unallocated"].(float64) != 0 {
		t.Fatalf("the payment after: %v", p)
	}
	code, out = refund("INV-000001", "cash", 0)
	if code != 400 || len(out["problems"].(map[string]any)) != 3 {
		t.Fatalf("a bad refund: %d %v", code, out)
	}
	code, out = refund("PAY-000000000000", "cheque", 100)
	if code != 404 {
		t.Fatalf("a payment not there: %d %v", code, out)
	}
	// A cheque that bounced, nothing allocated: reversed whole.
	code, out = s.c.post("/api/admin/accounts/"+u.UID+"/payments", fmt.Sprintf(`{"token":%q,"method":"cheque","date":%q,"amount":2500,"reference":"CHQ 99","allocate":"none"}`,
		staff.IDToken, today), nil)
	if code != 200 {
		t.Fatalf("record the cheque: %d %v", code, out)
	}
	cheque := out["payment"].(map[string]any)["id"].(string)
	if code, out = refund(cheque, "reversal", 2500); code != 200 || out["ledger"].(map[string]any)["balance"].(float64) != 0 {
		t.Fatalf("reversal: %d %v", code, out)
	}
	checkPaymentInvariants(t, s, payments.Service{Store: s.st, Now: time.Now}, u.UID)
}

// TestOwedFallsByEachAllocation: what an account owes (the credit limit's measure) is
// what its invoices on account still owe: a part payment allocated to one takes its
// amount off at once, and the rest when it is paid in full; money held unallocated does
// not.
func TestOwedFallsByEachAllocation(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	staff := testenv.Staff(t, testenv.NewUser(t))
	buyer, v := accountBuyer(t, s, staff, "Owed Cards Ltd")
	if code, body := s.c.post("/api/admin/accounts/"+buyer.UID, fmt.Sprintf(`{"token":%q,"version":%d,"approved_for_credit":true,"credit_limit":500000,"dsc":""}`,
		staff.IDToken, v), nil); code != 200 {
		t.Fatalf("approve: %d %v", code, body)
	}
	p := s.product(100, 1, 10000)
	id := s.placed(buyer, p, 3)
	owed := func() int64 {
		t.Helper()
		prof, err := s.st.Profile(ctx, buyer.UID)
		if err != nil {
			t.Fatal(err)
		}
		return prof.Owed
	}
	o, err := s.st.Order(ctx, buyer.UID, id)
	if err != nil || o.Invoice == nil || owed() != o.TotalIncVAT {
		t.Fatalf("placed: owed %d, order %+v %v", owed(), o, err)
	}
	svc := payments.Service{Store: s.st, Now: time.Now}
	today := time.Now().In(london).Format(time.DateOnly)
	by := orders.Staff{UID: "staff-owed"}
	if _, err := svc.Record(ctx, buyer.UID, payments.Recording{Method: payments.MethodBankTransfer, Date: today, Amount: 10000,
		Reference: "PART", By: by}); err != nil {
		t.Fatal(err)
	}
	if got := owed(); got != o.TotalIncVAT-10000 {
		t.Fatalf("owed %d after £100 allocated, want %d", got, o.TotalIncVAT-10000)
	}
	if _, err := svc.Record(ctx, buyer.UID, payments.Recording{Method: payments.MethodCheque, Date: today, Amount: 50000,
		Reference: "HELD", Allocate: payments.AllocateNone, By: by}); err != nil {
		t.Fatal(err)
	}
	if got := owed(); got != o.TotalIncVAT-10000 {
		t.Fatalf("owed %d after money held unallocated, want %d", got, o.TotalIncVAT-10000)
	}
	if _, err := svc.Record(ctx, buyer.UID, payments.Recording{Method: payments.MethodBankTransfer, Date: today, Amount: o.TotalIncVAT - 10000,
		Reference: "REST", By: by}); err != nil {
		t.Fatal(err)
	}
	after, err := s.st.Order(ctx, buyer.UID, id)
	if got := owed(); err != nil || got != 0 || !after.Paid() {
		t.Fatalf("owed %d, paid %v after the rest, want 0 and paid (%v)", got, after.Paid(), err)
	}
}
