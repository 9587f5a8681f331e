package api

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go/middleware"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pdftext"
	"github.com/tradeshop/functions/internal/statements"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// listedBuyer is a buyer whose profile was made as the site's sign-in makes it (so staff
// list the account), with their billing details.
func listedBuyer(t *testing.T, s *raceShop, business string) testenv.User {
	t.Helper()
	u := testenv.NewUser(t)
	ctx := context.Background()
	if _, err := s.st.CreateProfile(ctx, store.Profile{UID: u.UID, Business: business, Email: u.Email}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.st.SaveBilling(ctx, u.UID, store.Billing{Company: business, Contact: "Pat", PaymentMethod: "proforma",
		Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestStatementShowsAPaymentOfTwoInvoices: staff record a bank payment for two of a
// buyer's three invoices; the buyer's statement, its PDF, the staff balances list and
// the aged debt report all show the third invoice's amount as the balance, and another
// buyer sees only their own (empty) statement.
func TestStatementShowsAPaymentOfTwoInvoices(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	staff := testenv.Staff(t, testenv.NewUser(t))
	u := listedBuyer(t, s, "Statement Cards Ltd")
	os := invoicedOrders(t, s, u, 3)
	today := time.Now().In(london).Format(time.DateOnly)
	two := os[0].TotalIncVAT + os[1].TotalIncVAT
	code, out := s.c.post("/api/admin/accounts/"+u.UID+"/payments", fmt.Sprintf(`{"token":%q,"method":"bank_transfer","date":%q,"amount":%d,"reference":"BACS TWO"}`,
		staff.IDToken, today, two), nil)
	if code != 200 {
		t.Fatalf("record: %d %v", code, out)
	}
	left := os[2].TotalIncVAT

	code, out, _ = s.c.get("/api/account/statement", u.IDToken)
	if code != 200 || out["balance"].(float64) != float64(left) || out["due"].(float64) != float64(left) || out["overdue"].(float64) != 0 {
		t.Fatalf("statement: %d %v, want balance %d", code, out, left)
	}
	open := out["open_items"].([]any)
	if len(open) != 1 || open[0].(map[string]any)["invoice"] != orders.InvoiceNumber(os[2].Invoice.Number) ||
		open[0].(map[string]any)["outstanding"].(float64) != float64(left) {
		t.Fatalf("open items %v", open)
	}
	if n := len(out["entries"].([]any)); n != 4 {
		t.Errorf("%d ledger entries, want 3 invoices and the payment", n)
	}

	code, _, doc := s.c.get("/api/account/statement.pdf", u.IDToken)
	if code != 200 || len(doc) == 0 {
		t.Fatalf("statement PDF: %d", code)
	}
	text, err := pdftext.Of(doc)
	if err != nil {
		t.Fatal(err)
	}
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{"Statement of account", "VAT registration number " + shop.Business.VATNumber,
		orders.InvoiceNumber(os[2].Invoice.Number), os[2].ID, "Balance " + orders.Pounds(left), "Overdue £0.00", "Current " + orders.Pounds(left)} {
		if !strings.Contains(flat, want) {
			t.Errorf("the statement PDF lacks %q:\n%s", want, flat)
		}
	}

	// Another buyer's statement is their own: nothing owed.
	other := listedBuyer(t, s, "Other Cards Ltd")
	code, out, _ = s.c.get("/api/account/statement", other.IDToken)
	if code != 200 || out["balance"].(float64) != 0 || len(out["open_items"].([]any)) != 0 {
		t.Fatalf("another buyer's statement: %d %v", code, out)
	}
	// Staff only, for the balances.
	if code, _, _ := s.c.get("/api/admin/balances", u.IDToken); code != 403 {
		t.Errorf("a buyer asked for the balances: %d", code)
	}

	code, out, _ = s.c.get("/api/admin/balances", staff.IDToken)
	if code != 200 {
		t.Fatalf("balances: %d %v", code, out)
	}
	accounts := out["accounts"].([]any)
	if len(accounts) != 1 || accounts[0].(map[string]any)["uid"] != u.UID || accounts[0].(map[string]any)["balance"].(float64) != float64(left) {
		t.Fatalf("balances: %v (the buyer with nothing owed is not listed)", accounts)
	}
	code, _, csv := s.c.get("/api/admin/balances/aged.csv", staff.IDToken)
	pounds := strings.TrimPrefix(strings.ReplaceAll(orders.Pounds(left), ",", ""), "£")
	if code != 200 || !strings.Contains(string(csv), u.Email+",") || !strings.Contains(string(csv), "\nTOTAL,,"+pounds+",0.00,0.00,0.00,0.00,"+pounds+",0.00,"+pounds+",0\n") {
		t.Fatalf("aged debt: %d\n%s", code, csv)
	}
}

// TestStatementsJobQueuesEachAccountOnceAMonth runs the monthly job as the statements
// Lambda runs it, twice (a second run, or a run after a crash midway, queues nothing
// again), against DynamoDB Local; each access must be one its endpoints.json grants allow.
func TestStatementsJobQueuesEachAccountOnceAMonth(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	owing := listedBuyer(t, s, "Owing Cards Ltd")
	invoicedOrders(t, s, owing, 1)
	listedBuyer(t, s, "Settled Cards Ltd") // owes nothing: no statement
	rec := &opRecorder{}
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName, cfg.APIOptions = s.st.TableName(), []func(*middleware.Stack) error{rec.middleware}
	st, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc := statements.Service{Store: st, Shop: shop, Now: time.Now, Concurrency: 2}
	rec.take()
	r, err := svc.Send(ctx, "2026-12")
	if err != nil || r.Queued != 1 || r.Already != 0 || r.Accounts != 2 {
		t.Fatalf("first run: %+v %v", r, err)
	}
	r, err = svc.Send(ctx, "2026-12")
	if err != nil || r.Queued != 0 || r.Already != 1 {
		t.Fatalf("second run: %+v %v", r, err)
	}
	checkAccesses(t, "statements", jobOf(t, readEndpointsFile(t), "statements").Access, rec.take())
	status, err := st.OutboxStatus(ctx, statements.EmailID(owing.UID, "2026-12"))
	if err != nil || status.State != "pending" {
		t.Fatalf("the statement email: %+v %v", status, err)
	}
}
