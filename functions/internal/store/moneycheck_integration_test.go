package store_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/testenv"
)

// TestMoneyBooksReadsTheContractsAttributes: MoneyBooks reads an account's items as the
// contract of docs/invoices.md stores them (a note's applied part, credit on account, a
// refund and its allocation), and a note without applied as applying its gross.
func TestMoneyBooksReadsTheContractsAttributes(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	uid := "money-books"
	rates := []map[string]any{{"rate": 20, "netExVat": 8334, "vat": 1666}}
	items := []map[string]any{
		{"pk": "USER#" + uid, "sk": "PROFILE", "business": "Books Ltd", "owed": 7000},
		{"pk": "USER#" + uid, "sk": "ORDER#TS-1", "id": "TS-1", "uid": uid, "status": "cancelled", "totalIncVat": 10000,
			"invoice": map[string]any{"number": 3, "rates": rates}, "invoicePaid": 4000,
			"creditNotes": []map[string]any{{"number": 1, "invoice": 3, "rates": rates, "applied": 6000}}},
		{"pk": "USER#" + uid, "sk": "ORDER#TS-2", "id": "TS-2", "uid": uid, "status": "cancelled", "totalIncVat": 10000,
			"invoice":     map[string]any{"number": 4, "rates": rates},
			"creditNotes": []map[string]any{{"number": 2, "invoice": 4, "rates": rates}}},
		{"pk": "USER#" + uid, "sk": "PAYMENT#PAY-1", "id": "PAY-1", "method": "cheque", "amount": 4000, "allocated": 4000,
			"allocations": []map[string]any{{"invoice": 3, "orderId": "TS-1", "amount": 4000, "at": 1}}},
		{"pk": "USER#" + uid, "sk": "PAYMENT#CN-000001", "id": "CN-000001", "method": "credit_note", "amount": 4000, "allocated": 1000,
			"orderId": "TS-1", "allocations": []map[string]any{{"refund": "REF-1", "amount": 1000}}},
		{"pk": "USER#" + uid, "sk": "REFUND#REF-1", "amount": 1000, "source": "CN-000001", "method": "bank_transfer"},
	}
	for _, it := range items {
		if err := st.PutRawForTest(ctx, it); err != nil {
			t.Fatal(err)
		}
	}
	b, err := st.MoneyBooks(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	if b.UID != uid || b.Owed != 7000 || len(b.Orders) != 2 {
		t.Fatalf("account: uid %s, owed %d, %d orders", b.UID, b.Owed, len(b.Orders))
	}
	if !reflect.DeepEqual(b.Applied, map[int64]int64{1: 6000}) {
		t.Errorf("applied: %v, want only CN-000001's 6000 (CN-000002 stored none)", b.Applied)
	}
	want := []payments.Held{
		{ID: "CN-000001", Method: "credit_note", Amount: 4000, Allocated: 1000, OrderID: "TS-1",
			Allocations: []payments.HeldAllocation{{Refund: "REF-1", Amount: 1000}}},
		{ID: "PAY-1", Method: "cheque", Amount: 4000, Allocated: 4000,
			Allocations: []payments.HeldAllocation{{Invoice: 3, OrderID: "TS-1", Amount: 4000}}},
	}
	if !reflect.DeepEqual(b.Held, want) {
		t.Errorf("held:\n%+v\nwant\n%+v", b.Held, want)
	}
	if !reflect.DeepEqual(b.Refunds, []payments.RefundSeen{{ID: "REF-1", Source: "CN-000001", Amount: 1000}}) {
		t.Errorf("refunds: %+v", b.Refunds)
	}
}
