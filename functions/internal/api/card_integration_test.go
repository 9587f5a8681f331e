package api

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/cardpay"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// testCard is card payment in the local stage over st, its Stripe calls to the shared
// stripe-mock (STRIPE_API_BASE): each request the shop sends is checked against Stripe's
// API.
func testCard(t *testing.T, st *store.Store) *cardpay.Service {
	t.Helper()
	if os.Getenv("STRIPE_API_BASE") == "" {
		t.Fatal("STRIPE_API_BASE is not set: the card payment tests need stripe-mock (scripts/test starts it)")
	}
	c, err := cardpay.ConfigFromEnv(func(k string) string {
		switch k {
		case "STAGE":
			return cardpay.StageLocal
		case "STRIPE_SECRET_KEY":
			return "sk_test_local"
		case "STRIPE_WEBHOOK_SECRET":
			return "whsec_local"
		case "SITE_URL":
			return "http://127.0.0.1:8080"
		}
		return os.Getenv(k)
	})
	if err != nil {
		t.Fatal(err)
	}
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	return cardpay.NewService(c, st, mail.Notices{Shop: shop, SiteURL: c.SiteURL}, time.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// newCardShop is a raceShop with card payment on.
func newCardShop(t *testing.T) *raceShop {
	st := testenv.Store(t)
	d := testDeps(t, st, testenv.Verifier(t))
	d.Card = testCard(t, st)
	return &raceShop{t: t, st: st, c: newClient(t, NewHandler(d))}
}

// payNow posts Pay now for order id as u.
func (s *raceShop) payNow(u testenv.User, id string) (int, map[string]any) {
	return s.c.post("/api/orders/"+id+"/pay", fmt.Sprintf(`{"token":%q}`, u.IDToken), nil)
}

// TestPayNowStartsCheckoutSessions: Pay now on a pro-forma order creates a Checkout
// Session (stripe-mock takes the request: it matches Stripe's API) for what the invoice
// owes, records attempt 1 and, in the local stage, answers the local payment page; Pay
// now again is attempt 2 (a new idempotency key). The order answer says awaiting, with
// Pay now. Another buyer's order is 404; a paid or cancelled order is 409 with a sentence.
func TestPayNowStartsCheckoutSessions(t *testing.T) {
	t.Parallel()
	s := newCardShop(t)
	ctx := context.Background()
	u := s.buyer()
	os := invoicedOrders(t, s, u, 3)
	o := os[0]

	for attempt := 1; attempt <= 2; attempt++ {
		code, out := s.payNow(u, o.ID)
		if code != 200 {
			t.Fatalf("pay now %d: %d %v", attempt, code, out)
		}
		to, err := url.Parse(fmt.Sprint(out["url"]))
		if err != nil || to.Path != cardpay.LocalPagePath || to.Query().Get("order") != o.ID || to.Query().Get("attempt") != fmt.Sprint(attempt) ||
			!strings.HasPrefix(to.Query().Get("session"), "cs_") {
			t.Fatalf("pay now %d answered %v", attempt, out["url"])
		}
		after, err := s.st.Order(ctx, u.UID, o.ID)
		if err != nil || after.Card == nil || after.Card.Attempt != attempt || after.Card.State != orders.CardPending ||
			after.Card.Session != to.Query().Get("session") || after.Version != o.Version {
			t.Fatalf("order after pay now %d: %+v (%v)", attempt, after.Card, err)
		}
	}
	code, _, body := s.c.get("/api/orders/"+o.ID, u.IDToken)
	if code != 200 || !strings.Contains(string(body), `"payment":{"state":"awaiting","failure":null,"can_pay_now":true,"card_refunds":[]}`) {
		t.Fatalf("order answer: %d %s", code, body)
	}

	other := s.buyer()
	if code, out := s.payNow(other, o.ID); code != 404 {
		t.Fatalf("another buyer's order: %d %v", code, out)
	}
	paid, err := payments.Service{Store: s.st, Now: time.Now}.PayInvoice(ctx, os[1], orders.Staff{UID: "staff-test"})
	if err != nil {
		t.Fatal(err)
	}
	if code, out := s.payNow(u, paid.ID); code != 409 || !strings.Contains(fmt.Sprint(out["error"]), "paid already") {
		t.Fatalf("a paid order: %d %v", code, out)
	}
	staff := testenv.Staff(t, testenv.NewUser(t))
	if code, out := s.act(staff, os[2].ID, os[2].Version, orders.ActionCancel, `,"reason":"Card test"`); code != 200 {
		t.Fatalf("cancel: %d %v", code, out)
	}
	if code, out := s.payNow(u, os[2].ID); code != 409 || !strings.Contains(fmt.Sprint(out["error"]), "cancelled") {
		t.Fatalf("a cancelled order: %d %v", code, out)
	}
}

// TestPayNowOffWithoutAKey: without a Stripe key Pay now answers 503 with a sentence, and
// the billing step refuses card.
func TestPayNowOffWithoutAKey(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	u := s.buyer()
	os := invoicedOrders(t, s, u, 1)
	if code, out := s.payNow(u, os[0].ID); code != 503 || !strings.Contains(fmt.Sprint(out["error"]), "Card payment is not available") {
		t.Fatalf("pay now with card payment off: %d %v", code, out)
	}
	billing := `{"company":"Race Cards Ltd","contact":"Pat","payment_method":"card","address":{"line1":"1 High St","town":"Exampleton","postcode":"EX1 2AB"}}`
	if code, out := s.c.post("/api/billing", fmt.Sprintf(`{"token":%q,"billing":%s}`, u.IDToken, billing), nil); code != 400 && code != 422 {
		t.Fatalf("billing card with card payment off: %d %v", code, out)
	}
	c := newCardShop(t)
	v := c.buyer()
	if code, out := c.c.post("/api/billing", fmt.Sprintf(`{"token":%q,"billing":%s}`, v.IDToken, billing), nil); code != 200 || out["payment_method"] != "card" {
		t.Fatalf("billing card with card payment on: %d %v", code, out)
	}
}
