package orders

import (
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/account"
)

var testLondon = func() *time.Location {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		panic(err)
	}
	return loc
}()

// readCSV reads doc's rows, the header first.
func readCSV(t *testing.T, doc []byte) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(string(doc))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// row is a row of rows as column name → cell.
func row(rows [][]string, i int) map[string]string {
	out := map[string]string{}
	for j, c := range rows[0] {
		out[c] = rows[i][j]
	}
	return out
}

// exportOrder is an invoiced order at two VAT rates, issued at 23:30 UTC on 31 July
// (00:30 on 1 August in London).
func exportOrder() Order {
	issued := time.Date(2026, 7, 31, 23, 30, 0, 0, time.UTC)
	return Order{ID: "TS-100042", Email: "=buyer@example.co.uk", TotalIncVAT: 12600, InvoicePaid: 5000,
		Billing: &account.Billing{Company: "Acme Cards Ltd", PORef: "PO 7", PaymentMethod: account.PayOnAccount},
		Invoice: &Invoice{Number: 42, IssuedAt: issued, TermsDays: 30,
			Rates: []RateTotal{{Rate: 20, NetExVAT: 10000, VAT: 2000}, {Rate: 0, NetExVAT: 600, VAT: 0}}},
		CreditNotes: []CreditNote{{Number: 7, IssuedAt: issued.AddDate(0, 0, 3), Invoice: 42, InvoiceDate: issued, Reason: "Damaged: one pack",
			Rates: []RateTotal{{Rate: 20, NetExVAT: 1000, VAT: 200}}}},
	}
}

func TestInvoicesCSV(t *testing.T) {
	t.Parallel()
	o := exportOrder()
	from := time.Date(2026, 8, 1, 0, 0, 0, 0, testLondon)
	state := map[string]InvoiceState{o.ID: {Credited: 1200, DueOn: time.Date(2026, 8, 31, 0, 0, 0, 0, testLondon)}}
	doc, err := InvoicesCSV([]Order{o}, state, from, from.AddDate(0, 0, 1), testLondon)
	if err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, doc)
	if strings.Join(rows[0], ",") != strings.Join(InvoiceColumns, ",") || len(rows) != 3 {
		t.Fatalf("rows: %v", rows)
	}
	want := []map[string]string{
		{"type": "SI", "account": "'=buyer@example.co.uk", "business": "Acme Cards Ltd", "date": "01/08/2026", "reference": "INV-000042",
			"details": "Order TS-100042", "net": "100.00", "tax_code": "T1", "vat": "20.00", "gross": "120.00", "vat_rate": "20",
			"order": "TS-100042", "po_ref": "PO 7", "invoice_net": "106.00", "invoice_vat": "20.00", "invoice_gross": "126.00",
			"due_date": "31/08/2026", "credited": "12.00", "paid": "50.00", "outstanding": "64.00"},
		{"net": "6.00", "tax_code": "T0", "vat": "0.00", "gross": "6.00", "vat_rate": "0", "invoice_gross": "126.00"},
	}
	for i, w := range want {
		got := row(rows, i+1)
		for k, v := range w {
			if got[k] != v {
				t.Errorf("row %d %s: got %q, want %q", i+1, k, got[k], v)
			}
		}
	}
	// The London day decides: the day before in London (31 July) holds no invoice.
	doc, _ = InvoicesCSV([]Order{o}, state, from.AddDate(0, 0, -1), from, testLondon)
	if rows := readCSV(t, doc); len(rows) != 1 {
		t.Fatalf("31 July: %v", rows)
	}
}

func TestCreditNotesCSV(t *testing.T) {
	t.Parallel()
	o := exportOrder()
	from := time.Date(2026, 8, 1, 0, 0, 0, 0, testLondon)
	cases := []struct {
		name              string
		left              map[int64]OnAccount
		applied, onAcount string
	}{
		{"applied in full to its invoice", nil, "12.00", "0.00"},
		{"part left on account", map[int64]OnAccount{7: {Amount: 500}}, "7.00", "5.00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			doc, err := CreditNotesCSV([]Order{o}, c.left, from, from.AddDate(0, 1, 0), testLondon)
			if err != nil {
				t.Fatal(err)
			}
			rows := readCSV(t, doc)
			if strings.Join(rows[0], ",") != strings.Join(CreditNoteColumns, ",") || len(rows) != 2 {
				t.Fatalf("rows: %v", rows)
			}
			got := row(rows, 1)
			want := map[string]string{"type": "SC", "date": "04/08/2026", "reference": "CN-000007", "net": "10.00", "tax_code": "T1",
				"vat": "2.00", "gross": "12.00", "invoice": "INV-000042", "invoice_date": "01/08/2026", "note_gross": "12.00",
				"applied": c.applied, "on_account": c.onAcount, "reason": "Damaged: one pack", "business": "Acme Cards Ltd"}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: got %q, want %q", k, got[k], v)
				}
			}
		})
	}
	doc, _ := CreditNotesCSV([]Order{o}, nil, from, from.AddDate(0, 0, 3), testLondon)
	if rows := readCSV(t, doc); len(rows) != 1 {
		t.Fatalf("before the note's day: %v", rows)
	}
}

func TestTaxCode(t *testing.T) {
	t.Parallel()
	for rate, want := range map[int]string{20: "T1", 5: "T5", 0: "T0", 12: "12"} {
		if got := TaxCode(rate); got != want {
			t.Errorf("%d%%: %s, want %s", rate, got, want)
		}
	}
}
