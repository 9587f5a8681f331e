package api

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

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
	d.Card, d.CardOffered = testCard(t, st), true
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

// payByCard records a card payment of what o's invoice owes, allocated to it, as the
// webhook records a succeeded PaymentIntent pi (the order becomes paid).
func payByCard(t *testing.T, st *store.Store, o orders.Order, pi string) {
	t.Helper()
	inv, ok := payments.InvoiceOf(o)
	if !ok {
		t.Fatalf("order %s has no invoice", o.ID)
	}
	now, by, amount := time.Now(), orders.Staff{Email: "stripe"}, inv.Outstanding()
	p := payments.Payment{ID: "PAY-" + strings.ToUpper(pi[len(pi)-8:]), UID: o.UID, Method: payments.MethodCard, Date: payments.Day(now).Format(time.DateOnly),
		Amount: amount, Reference: pi, RecordedAt: now, By: by, Allocated: amount,
		Allocations: []payments.Allocation{{Invoice: inv.Number, OrderID: o.ID, Amount: amount, At: now, By: by}}}
	w := payments.Write{Payment: p, New: true, Lines: []payments.WriteLine{{Invoice: inv, Amount: amount, Covers: true, At: now,
		OrderAudit: orders.AuditEntry{At: now, By: by, Action: orders.ActionPay}}},
		Audit: orders.AuditEntry{At: now, By: by, Action: "record payment"}}
	if err := st.WriteAllocation(context.Background(), w); err != nil {
		t.Fatal(err)
	}
}

// TestCardOrderCancelledOrCreditedIsRefundedToTheCard: staff cancelling an order paid by
// card refund its whole credit on account to the card at once (one refund, the credit
// note's CN-… its source, stripe-mock's answer settling it); a part credit of another
// refunds the note's credit, to the penny. The order answers list the refunds, and the
// account's books still balance.
func TestCardOrderCancelledOrCreditedIsRefundedToTheCard(t *testing.T) {
	t.Parallel()
	s := newCardShop(t)
	ctx := context.Background()
	u := s.buyer()
	staff := testenv.Staff(t, testenv.NewUser(t))
	os := invoicedOrders(t, s, u, 2)
	for i, o := range os {
		if code, out := s.payNow(u, o.ID); code != 200 {
			t.Fatalf("pay now: %d %v", code, out)
		}
		payByCard(t, s.st, o, fmt.Sprintf("pi_test_refund_%08d", i))
	}

	cancelled, err := s.st.Order(ctx, u.UID, os[0].ID)
	if err != nil || !cancelled.Paid() {
		t.Fatalf("order %s not paid: %v", os[0].ID, err)
	}
	if code, out := s.act(staff, cancelled.ID, cancelled.Version, orders.ActionCancel, `,"reason":"Card test"`); code != 200 {
		t.Fatalf("cancel: %d %v", code, out)
	}
	credited, err := s.st.Order(ctx, u.UID, os[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if code, out := s.c.post("/api/admin/orders/"+credited.ID+"/credit", fmt.Sprintf(`{"token":%q,"version":%d,"lines":[{"line":0,"units":1}],"reason":"Card test"}`,
		staff.IDToken, credited.Version), nil); code != 200 {
		t.Fatalf("part credit: %d %v", code, out)
	}

	refunds, err := s.st.Refunds(ctx, u.UID)
	if err != nil || len(refunds) != 2 {
		t.Fatalf("%d refunds (%v), want 2: %+v", len(refunds), err, refunds)
	}
	byOrder := map[string]payments.Refund{}
	for _, r := range refunds {
		byOrder[r.OrderID] = r
	}
	for i, o := range os {
		r, ok := byOrder[o.ID]
		after, err := s.st.Order(ctx, u.UID, o.ID)
		if !ok || err != nil || len(after.CreditNotes) != 1 {
			t.Fatalf("order %s: refund %v, %d notes (%v)", o.ID, ok, len(after.CreditNotes), err)
		}
		note := after.CreditNotes[0]
		if r.Method != payments.MethodCard || r.PaymentIntent != fmt.Sprintf("pi_test_refund_%08d", i) || r.Source != orders.CreditNoteNumber(note.Number) ||
			r.Amount != note.OnAccount() || r.Status != payments.RefundSucceeded || r.StripeRefund == "" {
			t.Fatalf("order %s refund %+v, note on account %d", o.ID, r, note.OnAccount())
		}
		if i == 0 && r.Amount != o.TotalIncVAT {
			t.Fatalf("the cancelled order's refund is %d of %d", r.Amount, o.TotalIncVAT)
		}
		code, _, body := s.c.get("/api/orders/"+o.ID, u.IDToken)
		if code != 200 || !strings.Contains(string(body), `"card_refunds":[{"id":"`+r.ID+`","amount":`+fmt.Sprint(r.Amount)+`,"status":"succeeded","failure":null`) {
			t.Fatalf("order answer: %d %s", code, body)
		}
	}
	checkPaymentInvariants(t, s, payments.Service{Store: s.st, Now: time.Now}, u.UID)

	// Cancelling again, or the sweep, refunds nothing more.
	card := testCard(t, s.st)
	card.Now = func() time.Time { return time.Now().Add(time.Hour) }
	if _, err := card.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.st.Refunds(ctx, u.UID); len(again) != 2 {
		t.Fatalf("%d refunds after the sweep", len(again))
	}
}

// TestLocalPagePostDeliversSignedEvents: the local payment page shows the server's
// amount, and its Succeed posts checkout.session.completed then payment_intent.succeeded
// to the webhook address, each verifying with the webhook secret, then sends the browser
// to the complete page; Decline posts one payment_intent.payment_failed and sends it to
// the order page.
func TestLocalPagePostDeliversSignedEvents(t *testing.T) {
	t.Parallel()
	s := newCardShop(t)
	card := testCard(t, s.st)
	u := s.buyer()
	o := invoicedOrders(t, s, u, 1)[0]
	code, out := s.payNow(u, o.ID)
	if code != 200 {
		t.Fatalf("pay now: %d %v", code, out)
	}
	page, _ := url.Parse(fmt.Sprint(out["url"]))
	var got []stripe.Event
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ev, err := webhook.ConstructEvent(body, r.Header.Get("Stripe-Signature"), "whsec_local")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got = append(got, ev)
	}))
	defer hook.Close()
	h := card.LocalPage(hook.URL + "/api/payments/stripe")

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", page.RequestURI(), nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "Local test payment — no money moves") ||
		!strings.Contains(rec.Body.String(), orders.Pounds(o.TotalIncVAT)) {
		t.Fatalf("the page: %d %s", rec.Code, rec.Body.String())
	}
	for _, c := range []struct {
		outcome string
		types   []stripe.EventType
		to      string
	}{
		{cardpay.OutcomeDecline, []stripe.EventType{stripe.EventTypePaymentIntentPaymentFailed}, "/account/orders/?id=" + o.ID},
		{cardpay.OutcomeSucceed, []stripe.EventType{stripe.EventTypeCheckoutSessionCompleted, stripe.EventTypePaymentIntentSucceeded},
			"/checkout/complete/" + o.ID + "/?paid=1"},
	} {
		got = nil
		req := httptest.NewRequest("POST", page.RequestURI(), strings.NewReader("outcome="+c.outcome))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusSeeOther || !strings.HasSuffix(rec.Header().Get("Location"), c.to) {
			t.Fatalf("%s: %d to %q %s", c.outcome, rec.Code, rec.Header().Get("Location"), rec.Body.String())
		}
		if len(got) != len(c.types) {
			t.Fatalf("%s delivered %d events", c.outcome, len(got))
		}
		for i, ev := range got {
			if ev.Type != c.types[i] {
				t.Fatalf("%s event %d is %s", c.outcome, i, ev.Type)
			}
		}
	}
}

// TestSweepRefundsAPartCreditACrashLeft: a part credit of an order paid by card whose
// request died between the credit note's transaction and its refund (the lifecycle run
// here without its card hook) is refunded to the card by the sweep, to the penny of the
// note's credit, and only once however often the sweep runs.
func TestSweepRefundsAPartCreditACrashLeft(t *testing.T) {
	t.Parallel()
	s := newCardShop(t)
	ctx := context.Background()
	u := s.buyer()
	staff := testenv.Staff(t, testenv.NewUser(t))
	o := invoicedOrders(t, s, u, 1)[0]
	if code, out := s.payNow(u, o.ID); code != 200 {
		t.Fatalf("pay now: %d %v", code, out)
	}
	payByCard(t, s.st, o, "pi_test_crash_00000001")
	paid, err := s.st.Order(ctx, u.UID, o.ID)
	if err != nil || !paid.Paid() {
		t.Fatalf("order %s not paid: %v", o.ID, err)
	}
	crashed := orders.Lifecycle{Store: s.st, Now: time.Now, DeliveryVATRate: 20}
	after, err := crashed.Credit(ctx, u.UID, o.ID, orders.CreditAction{Version: paid.Version, Lines: []orders.CreditUnits{{Line: 0, Units: 1}},
		Reason: "Crash test", By: orders.Staff{UID: staff.UID, Email: staff.Email}})
	if err != nil || len(after.CreditNotes) != 1 || after.CreditNotes[0].OnAccount() <= 0 {
		t.Fatalf("part credit: %+v (%v)", after.CreditNotes, err)
	}
	if refunds, _ := s.st.Refunds(ctx, u.UID); len(refunds) != 0 {
		t.Fatalf("%d refunds before the sweep", len(refunds))
	}
	card := testCard(t, s.st)
	for range 2 {
		if _, err := card.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
	}
	refunds, err := s.st.Refunds(ctx, u.UID)
	if err != nil || len(refunds) != 1 {
		t.Fatalf("%d refunds (%v) after the sweep, want 1", len(refunds), err)
	}
	r, note := refunds[0], after.CreditNotes[0]
	if r.Method != payments.MethodCard || r.Source != orders.CreditNoteNumber(note.Number) || r.Amount != note.OnAccount() || r.PaymentIntent != "pi_test_crash_00000001" {
		t.Fatalf("refund %+v, note on account %d", r, note.OnAccount())
	}
	checkPaymentInvariants(t, s, payments.Service{Store: s.st, Now: time.Now}, u.UID)
}
