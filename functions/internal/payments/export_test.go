package payments

import (
	"context"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/orders"
)

func csvRows(t *testing.T, doc []byte) []map[string]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(string(doc))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for j, c := range rows[0] {
			m[c] = r[j]
		}
		out = append(out, m)
	}
	return out
}

func check(t *testing.T, got map[string]string, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
}

var exportNames = map[string]AccountName{"u1": {Email: "jo@acme.example", Business: "Acme Cards Ltd"}}

func TestPaymentsCSV(t *testing.T) {
	t.Parallel()
	pays := []Payment{
		{ID: "PAY-B", UID: "u1", Method: MethodCheque, Date: "2026-08-02", Amount: 20000, Reference: "CHQ 100231", Allocated: 16000,
			Allocations: []Allocation{{Invoice: 42, Amount: 12000}, {Invoice: 43, Amount: 3000}, {Refund: "REF-0123456789AB", Amount: 1000}}},
		{ID: "PAY-A", UID: "u1", Method: MethodBankTransfer, Date: "2026-08-01", Amount: 500, Reference: "-BACS"},
		// Credit on account is the credit note's, not money received.
		{ID: "CN-000007", UID: "u1", Method: MethodCreditNote, Date: "2026-08-01", Amount: 500, Reference: "CN-000007"},
		// A card payment the webhook could not allocate carries its flag.
		{ID: "PAY-C", UID: "u1", Method: MethodCard, Date: "2026-08-03", Amount: 4999, Reference: "pi_3Card", Flag: FlagAmount},
	}
	doc, err := PaymentsCSV(pays, exportNames)
	if err != nil {
		t.Fatal(err)
	}
	rows := csvRows(t, doc)
	if len(rows) != 3 {
		t.Fatalf("rows: %v", rows)
	}
	check(t, rows[0], map[string]string{"type": "SA", "reference": "PAY-A", "date": "01/08/2026", "payment_reference": "'-BACS",
		"details": "Payment by bank transfer", "net": "5.00", "tax_code": "T9", "vat": "0.00", "gross": "5.00", "allocated": "0.00",
		"unallocated": "5.00", "allocations": ""})
	check(t, rows[1], map[string]string{"type": "SA", "account": "jo@acme.example", "business": "Acme Cards Ltd", "reference": "PAY-B",
		"date": "02/08/2026", "method": "cheque", "gross": "200.00", "allocated": "160.00", "unallocated": "40.00",
		"allocations": "INV-000042=120.00;INV-000043=30.00;REF-0123456789AB=10.00", "flag": ""})
	check(t, rows[2], map[string]string{"reference": "PAY-C", "method": "card", "details": "Payment by card", "payment_reference": "pi_3Card",
		"gross": "49.99", "allocated": "0.00", "unallocated": "49.99", "flag": FlagAmount})
}

func TestRefundsCSV(t *testing.T) {
	t.Parallel()
	doc, err := RefundsCSV([]Refund{{ID: "REF-0A1B2C3D4E5F", UID: "u1", Date: "2026-08-03", Amount: 5000, Method: MethodBankTransfer,
		Reference: "Refund of overpayment", Source: "PAY-B"}}, exportNames)
	if err != nil {
		t.Fatal(err)
	}
	rows := csvRows(t, doc)
	if len(rows) != 1 {
		t.Fatalf("rows: %v", rows)
	}
	check(t, rows[0], map[string]string{"type": "SP", "account": "jo@acme.example", "date": "03/08/2026", "reference": "REF-0A1B2C3D4E5F",
		"net": "50.00", "tax_code": "T9", "vat": "0.00", "gross": "50.00", "method": "bank_transfer", "refund_reference": "Refund of overpayment",
		"source": "PAY-B"})
}

// exportFake is an ExportStore in memory.
type exportFake struct {
	list []orders.Order
	pays []Payment
}

func (f exportFake) ExportOrders(context.Context, time.Time, time.Time) ([]orders.Order, error) {
	return f.list, nil
}
func (f exportFake) ExportMoney(_ context.Context, from, to string) ([]Payment, []Refund, map[string]AccountName, error) {
	var out []Payment
	for _, p := range f.pays {
		if p.Date >= from && p.Date <= to {
			out = append(out, p)
		}
	}
	return out, nil, exportNames, nil
}

// The invoices export counts a credit note's applied part as credited: its gross less the
// credit it left on account.
func TestExportsInvoicesCreditedByApplied(t *testing.T) {
	t.Parallel()
	issued := day("2026-08-01")
	o := orders.Order{ID: "TS-1", UID: "u1", TotalIncVAT: 1200, Invoice: &orders.Invoice{Number: 1, IssuedAt: issued, TermsDays: 30,
		Rates: []orders.RateTotal{{Rate: 20, NetExVAT: 1000, VAT: 200}}},
		CreditNotes: []orders.CreditNote{{Number: 3, IssuedAt: day("2026-09-20"), Invoice: 1, Rates: []orders.RateTotal{{Rate: 20, NetExVAT: 1000, VAT: 200}}}},
		InvoicePaid: 1000}
	f := exportFake{list: []orders.Order{o}, pays: []Payment{{ID: "CN-000003", UID: "u1", Method: MethodCreditNote, Date: "2026-09-20", Amount: 1000}}}
	e := Exports{Store: f, Loc: london}
	doc, err := e.CSV(context.Background(), ExportInvoices, Day(issued), Day(issued))
	if err != nil {
		t.Fatal(err)
	}
	rows := csvRows(t, doc)
	if len(rows) != 1 {
		t.Fatalf("rows: %v", rows)
	}
	check(t, rows[0], map[string]string{"reference": "INV-000001", "credited": "2.00", "paid": "10.00", "outstanding": "0.00", "due_date": "31/08/2026"})
	doc, err = e.CSV(context.Background(), ExportCreditNotes, Day(day("2026-09-01")), Day(day("2026-09-30")))
	if err != nil {
		t.Fatal(err)
	}
	rows = csvRows(t, doc)
	if len(rows) != 1 {
		t.Fatalf("rows: %v", rows)
	}
	check(t, rows[0], map[string]string{"reference": "CN-000003", "applied": "2.00", "on_account": "10.00"})
}
