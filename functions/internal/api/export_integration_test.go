package api

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// The accounts package's exports against DynamoDB Local (docs/exports.md): an order's
// invoice, a payment allocated to it and the credit note of its cancellation, each in
// its own export of today.
func TestExportsOfMoneyDocuments(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	staff := testenv.Staff(t, testenv.NewUser(t))
	// The exports find accounts in the staff's accounts list, where a buyer's first
	// sign-in puts them (the profile made then).
	u := testenv.NewUser(t)
	if _, err := s.st.CreateProfile(context.Background(), store.Profile{UID: u.UID, Business: "Export Cards Ltd", Email: u.Email}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.st.SaveBilling(context.Background(), u.UID, store.Billing{Company: "Export Cards Ltd", Contact: "Pat", PaymentMethod: "proforma",
		Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	p := s.product(1000, 6, 1000)
	id := s.placed(u, p, 12)
	today := time.Now().In(london).Format(time.DateOnly)
	code, body := s.c.post("/api/admin/accounts/"+u.UID+"/payments", fmt.Sprintf(`{"token":%q,"method":"cheque","date":%q,"amount":5000,"reference":"CHQ 1"}`,
		staff.IDToken, today), nil)
	if code != http.StatusOK {
		t.Fatalf("record: %d %v", code, body)
	}
	if code, body := s.act(staff, id, 1, "cancel", `,"reason":"Export test"`); code != http.StatusOK {
		t.Fatalf("cancel: %d %v", code, body)
	}
	export := func(document string) []map[string]string {
		t.Helper()
		code, _, raw := s.c.get("/api/admin/export?document="+document+"&from="+today+"&to="+today, staff.IDToken)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", document, code, raw)
		}
		rows, err := csv.NewReader(strings.NewReader(string(raw))).ReadAll()
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
	inv := export("invoices")
	if len(inv) != 1 || inv[0]["type"] != "SI" || inv[0]["order"] != id || inv[0]["paid"] != "50.00" || inv[0]["tax_code"] != "T1" {
		t.Fatalf("invoices: %v", inv)
	}
	pays := export("payments")
	if len(pays) != 1 || pays[0]["type"] != "SA" || pays[0]["gross"] != "50.00" || pays[0]["allocations"] != inv[0]["reference"]+"=50.00" ||
		pays[0]["account"] != u.Email {
		t.Fatalf("payments: %v", pays)
	}
	notes := export("credit_notes")
	if len(notes) != 1 || notes[0]["type"] != "SC" || notes[0]["invoice"] != inv[0]["reference"] || notes[0]["note_gross"] != inv[0]["invoice_gross"] {
		t.Fatalf("credit notes: %v", notes)
	}
	if refunds := export("refunds"); len(refunds) != 0 {
		t.Fatalf("refunds: %v", refunds)
	}
	if code, _, _ := s.c.get("/api/admin/export?document=ledgers&from="+today+"&to="+today, staff.IDToken); code != http.StatusBadRequest {
		t.Fatalf("an unknown document: %d", code)
	}
}
