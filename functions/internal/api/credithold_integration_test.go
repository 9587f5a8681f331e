package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// The credit hold (docs/back-office.md "Credit hold") against DynamoDB Local: an account
// whose invoice on account is overdue past shop.json's grace is refused a new order on
// account with the sentence and code credit_hold, may still order pro-forma, and orders
// on account again once staff lift the hold (audited in the account's trail).
func TestCreditHoldRefusesOnAccountUntilLifted(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	d := testDeps(t, st, testenv.Verifier(t))
	// The shop's clock, moved on to make the first invoice overdue.
	var ahead atomic.Int64
	d.Now = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	s := &raceShop{t: t, st: st, c: newClient(t, NewHandler(d))}
	ctx := context.Background()
	p := s.product(1000, 6, 1000)
	u := testenv.VerifyEmail(t, testenv.NewUser(t))
	billing := func(method string) {
		t.Helper()
		if err := st.SaveBilling(ctx, u.UID, store.Billing{Company: "Held Cards Ltd", Contact: "Pat", PaymentMethod: method,
			Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	billing("account")
	if err := st.SetApprovedForCredit(ctx, u.UID, true); err != nil {
		t.Fatal(err)
	}
	first := s.placed(u, p, 12)
	staff := testenv.Staff(t, testenv.NewUser(t))
	hold := func() map[string]any {
		t.Helper()
		code, body, _ := s.c.get("/api/admin/accounts/"+u.UID+"/credit-hold", staff.IDToken)
		if code != http.StatusOK {
			t.Fatalf("credit hold: %d %v", code, body)
		}
		return body
	}
	if h := hold(); h["held"] != false || h["hold"] != nil {
		t.Fatalf("a new invoice holds the account: %v", h)
	}

	// 30 days' terms and 14 days' grace: 46 days on, the invoice is 16 days overdue.
	ahead.Store(int64(46 * 24 * time.Hour))
	s.set(u, p, 12)
	code, body := s.place(u, "credit-hold-key-one")
	if code != http.StatusConflict || body["code"] != "credit_hold" {
		t.Fatalf("on account while held: %d %v, want 409 credit_hold", code, body)
	}
	msg, _ := body["error"].(string)
	if !strings.Contains(msg, "invoice INV-") || !strings.Contains(msg, "(order "+first+")") || !strings.Contains(msg, "16 days overdue") ||
		!strings.Contains(msg, "pay pro-forma instead") {
		t.Fatalf("the sentence: %q", msg)
	}
	h := hold()
	if h["held"] != true || h["hold"].(map[string]any)["order_id"] != first || h["hold"].(map[string]any)["days_overdue"] != float64(16) {
		t.Fatalf("hold: %v", h)
	}

	billing("proforma")
	if code, body := s.place(u, "credit-hold-key-two"); code != http.StatusCreated {
		t.Fatalf("pro-forma while held: %d %v", code, body)
	}

	billing("account")
	s.set(u, p, 12)
	if code, body := s.c.post("/api/admin/accounts/"+u.UID+"/credit-hold/lift", fmt.Sprintf(`{"token":%q,"reason":"x"}`, staff.IDToken), nil); code != http.StatusBadRequest {
		t.Fatalf("a lift with a one-letter reason: %d %v", code, body)
	}
	code, body = s.c.post("/api/admin/accounts/"+u.UID+"/credit-hold/lift", fmt.Sprintf(`{"token":%q,"reason":"Cheque in the post, promised Friday"}`, staff.IDToken), nil)
	if code != http.StatusOK || body["held"] != false || body["lift"].(map[string]any)["active"] != true {
		t.Fatalf("lift: %d %v", code, body)
	}
	if code, body := s.place(u, "credit-hold-key-three"); code != http.StatusCreated {
		t.Fatalf("on account after the lift: %d %v", code, body)
	}
	trail, err := st.Audit(ctx, store.AuditAccount+u.UID)
	if err != nil {
		t.Fatal(err)
	}
	if len(trail) == 0 || trail[0].Action != "lift credit hold" || trail[0].After["reason"] != "Cheque in the post, promised Friday" || trail[0].By.UID != staff.UID {
		t.Fatalf("the account's trail: %+v", trail)
	}

	// A buyer's token reads and lifts nothing.
	if code, _, _ := s.c.get("/api/admin/accounts/"+u.UID+"/credit-hold", u.IDToken); code != http.StatusForbidden {
		t.Fatalf("a buyer read the hold: %d", code)
	}
}
