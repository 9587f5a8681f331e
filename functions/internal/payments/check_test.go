package payments

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
)

// soundBooks is an account whose every invariant holds, with one of each thing the
// check reads:
//
//   - TS-1, on account, INV-000001 of £120, £50 allocated by PAY-1: owes £70;
//   - TS-2, pro-forma, INV-000002 of £60, paid in full by PAY-1;
//   - TS-3, on account, INV-000003 of £100, £40 allocated by PAY-2, then cancelled:
//     CN-000001 of £100 applies £60 and leaves £40 on account (CN-000001), £10 of which
//     was refunded (REF-1);
//   - TS-4, on account, £20, its invoice still being issued.
//
// Balance: £280 invoiced − £100 credited − £180 paid + £10 refunded = £10; due £70 less
// £60 unallocated (£30 of PAY-1, £30 of the credit on account); owed £70 + £20.
func soundBooks() Books {
	onAccount := &account.Billing{PaymentMethod: account.PayOnAccount}
	proForma := &account.Billing{PaymentMethod: "proforma"}
	paidAt := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	return Books{
		UID:  "u1",
		Owed: 9000,
		Orders: []orders.Order{
			{ID: "TS-1", UID: "u1", Status: orders.StatusConfirmed, TotalIncVAT: 12000, Billing: onAccount,
				Invoice: &orders.Invoice{Number: 1}, InvoicePaid: 5000},
			{ID: "TS-2", UID: "u1", Status: orders.StatusConfirmed, TotalIncVAT: 6000, Billing: proForma,
				Invoice: &orders.Invoice{Number: 2}, InvoicePaid: 6000, PaidAt: paidAt},
			{ID: "TS-3", UID: "u1", Status: orders.StatusCancelled, TotalIncVAT: 10000, Billing: onAccount,
				Invoice: &orders.Invoice{Number: 3}, InvoicePaid: 4000,
				CreditNotes: []orders.CreditNote{{Number: 1, Invoice: 3, Rates: []orders.RateTotal{{Rate: 20, NetExVAT: 8334, VAT: 1666}}}}},
			{ID: "TS-4", UID: "u1", Status: orders.StatusPlaced, TotalIncVAT: 2000, Billing: onAccount},
		},
		Applied: map[int64]int64{1: 6000},
		Held: []Held{
			{ID: "PAY-1", Method: MethodBankTransfer, Amount: 14000, Allocated: 11000, Allocations: []HeldAllocation{
				{Invoice: 1, OrderID: "TS-1", Amount: 5000}, {Invoice: 2, OrderID: "TS-2", Amount: 6000}}},
			{ID: "PAY-2", Method: MethodCheque, Amount: 4000, Allocated: 4000, Allocations: []HeldAllocation{
				{Invoice: 3, OrderID: "TS-3", Amount: 4000}}},
			{ID: "CN-000001", Method: "credit_note", Amount: 4000, Allocated: 1000, OrderID: "TS-3", Allocations: []HeldAllocation{
				{Refund: "REF-1", Amount: 1000}}},
		},
		Refunds: []RefundSeen{{ID: "REF-1", Source: "CN-000001", Amount: 1000}},
		Ledger: Ledger{Entries: []Entry{{Reference: "INV-000001", Debit: 12000, Balance: 12000}, {Reference: "PAY-1", Credit: 11000, Balance: 1000}},
			Balance: 1000, Due: 7000, Unallocated: 6000},
	}
}

func TestAccountProblemsFindsNothingInSoundBooks(t *testing.T) {
	t.Parallel()
	if got := AccountProblems(soundBooks()); len(got) != 0 {
		t.Fatalf("problems in sound books:\n%s", strings.Join(got, "\n"))
	}
	// A note stored before notes kept their applied part applies its gross.
	b := soundBooks()
	b.Orders[2].InvoicePaid = 0
	b.Held = slices.Delete(b.Held, 1, 3)
	b.Refunds, b.Applied = nil, nil
	b.Ledger = Ledger{Entries: []Entry{{Reference: "INV-000001", Debit: 4000, Balance: 4000}}, Balance: 4000, Due: 7000, Unallocated: 3000}
	b.Owed = 9000
	if got := AccountProblems(b); len(got) != 0 {
		t.Fatalf("problems in books without applied parts:\n%s", strings.Join(got, "\n"))
	}
}

// TestAccountProblemsNamesEachInvariantBroken breaks one invariant at a time: each is
// named (among the sentences the break leads to).
func TestAccountProblemsNamesEachInvariantBroken(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		breaK func(b *Books)
		want  string
	}{
		{"a payment's allocations do not add up to its allocated", func(b *Books) { b.Held[0].Allocated = 10000 },
			"PAY-1 records £100.00 allocated, but its allocations add up to £110.00."},
		{"a payment allocates more than it holds", func(b *Books) { b.Held[1].Amount = 3000 },
			"PAY-2 has £40.00 allocated of its £30.00."},
		{"an allocation of nothing", func(b *Books) {
			b.Held[0].Allocations = append(b.Held[0].Allocations, HeldAllocation{Invoice: 1, OrderID: "TS-1"})
		}, "PAY-1 allocates £0.00 to INV-000001: an allocation is more than £0."},
		{"an invoice's allocations differ from what its order records", func(b *Books) { b.Orders[0].InvoicePaid = 4000 },
			"INV-000001 (order TS-1): its allocations add up to £50.00, but the order records £40.00 paid."},
		{"an invoice paid more than it owes", func(b *Books) {
			b.Orders[1].InvoicePaid, b.Held[0].Allocations[1].Amount, b.Held[0].Allocated = 7000, 7000, 12000
		}, "INV-000002 (order TS-2) is overpaid: gross £60.00, credit notes applied £0.00, payments £70.00."},
		{"an order paid that still owes", func(b *Books) { b.Orders[0].PaidAt = time.Now() },
			"Order TS-1 is paid, but its invoice INV-000001 still owes £70.00."},
		{"an order covered but not paid", func(b *Books) { b.Orders[1].PaidAt = time.Time{} },
			"Payments cover order TS-2's invoice INV-000002, but the order is not paid."},
		{"a cancelled order that still owes", func(b *Books) { b.Applied[1] = 5000; b.Held[2].Amount = 5000 },
			"Order TS-3 is cancelled but its invoice INV-000003 still owes £10.00."},
		{"a note applies more than its gross", func(b *Books) { b.Applied[1] = 11000 },
			"CN-000001 on order TS-3 applies £110.00 of its £100.00."},
		{"credit on account missing", func(b *Books) { b.Held = b.Held[:2]; b.Refunds = nil },
			"CN-000001 on order TS-3 leaves £40.00 as credit on account, but there is none."},
		{"credit on account of the wrong amount", func(b *Books) { b.Held[2].Amount = 3000 },
			"Credit on account CN-000001 holds £30.00 of order TS-3, but its note leaves £40.00 of order TS-3."},
		{"credit on account with no note", func(b *Books) { b.Held[2].ID = "CN-000009"; b.Refunds[0].Source = "CN-000009" },
			"Credit on account CN-000009 names a credit note the account's orders do not carry."},
		{"a refund with no allocation", func(b *Books) {
			b.Held[2].Allocations, b.Held[2].Allocated = nil, 0
		}, "Refund REF-1 is allocated 0 times by CN-000001, not once."},
		{"a refund allocation with no refund", func(b *Books) { b.Refunds = nil },
			"CN-000001 allocates £10.00 to refund REF-1, which is not there."},
		{"a refund of another amount than its allocation", func(b *Books) { b.Refunds[0].Amount = 2000 },
			"CN-000001 allocates £10.00 to refund REF-1, which pays back £20.00 from CN-000001."},
		{"an allocation to an invoice the account does not have", func(b *Books) { b.Held[0].Allocations[0].Invoice = 7 },
			"Payments allocate £50.00 to INV-000007, which is not an invoice of the account."},
		{"an allocation naming another order", func(b *Books) { b.Held[0].Allocations[0].OrderID = "TS-9" },
			"INV-000001 is order TS-1's, but allocations name it as order TS-9's."},
		{"the ledger's balance is not the documents'", func(b *Books) { b.Ledger.Balance, b.Ledger.Entries[1].Balance = 2000, 2000 },
			"The ledger's balance is £20.00, but the documents add up to £10.00 (invoices £280.00 − credit notes £100.00 − payments £180.00 + refunds £10.00)."},
		{"the ledger's last running balance is not its balance", func(b *Books) { b.Ledger.Entries[1].Balance = 900 },
			"The ledger's last running balance is not its balance £10.00."},
		{"a running balance that is not the sum of the entries up to it", func(b *Books) { b.Ledger.Entries[0].Balance = 11000 },
			"The ledger's running balance after INV-000001 is £110.00, but its entries up to it add up to £120.00."},
		// It follows from the others (an invoice's figure that is not its allocations').
		{"the balance is not due less unallocated", func(b *Books) { b.Orders[0].InvoicePaid = 4000 },
			"The balance £10.00 is not what invoices still owe (£80.00) less what payments hold unallocated (£60.00)."},
		{"the ledger's due is not the invoices'", func(b *Books) { b.Ledger.Due = 6000 },
			"The ledger says £60.00 is due, but the invoices still owe £70.00."},
		{"the ledger's unallocated is not the payments'", func(b *Books) { b.Ledger.Unallocated = 3000 },
			"The ledger says £30.00 is unallocated, but payments and credit on account hold £60.00."},
		{"owed is not what orders on account owe", func(b *Books) { b.Owed = 21000 },
			"The account records £210.00 owed, but its orders on account still owe £90.00."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := soundBooks()
			tc.breaK(&b)
			got := AccountProblems(b)
			if !slices.Contains(got, "Account u1: "+tc.want) {
				t.Errorf("want %q among:\n%s", tc.want, strings.Join(got, "\n"))
			}
		})
	}
}
