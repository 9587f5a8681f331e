package cardpay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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

// The invariants these tests hold the webhook to, however Stripe delivers its events
// (docs/payments.md "Idempotency and order of events"):
//
//   - Σ card payments recorded for a PaymentIntent ≤ 1;
//   - invoice paid ≤ gross − applied credits (payments.AccountProblems holds the account's
//     books to this and to the ledger's sums);
//   - every event applied at most once in effect.

// testSecret is the endpoint secret the tests sign their events with.
const testSecret = "whsec_cardpay_test"

// shop is one test's table, the webhook over it, and a raw client to write orders as the
// checkout leaves them.
type shop struct {
	t   *testing.T
	st  *store.Store
	db  *dynamodb.Client
	svc cardpay.Service
	h   http.Handler
	uid string
}

func newShop(t *testing.T) *shop {
	t.Helper()
	st := testenv.Store(t)
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName = st.TableName()
	db, err := store.NewClient(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc := cardpay.Service{Config: cardpay.Config{WebhookSecret: testSecret, Stage: "local"}, Store: st,
		Payments: payments.Service{Store: st, Now: time.Now}, Notify: mail.Notices{Shop: sh}, Now: time.Now,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s := &shop{t: t, st: st, db: db, svc: svc, h: cardpay.Webhook(svc, 0), uid: "card-" + strings.Map(uidRune, t.Name())}
	s.put(map[string]any{"pk": "USER#" + s.uid, "sk": "PROFILE", "uid": s.uid, "business": "Card Test Ltd", "owed": 0})
	return s
}

// uidRune keeps a test name's letters and digits for its account's uid.
func uidRune(r rune) rune {
	if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
		return r
	}
	return '-'
}

// put writes item as it is.
func (s *shop) put(item map[string]any) {
	s.t.Helper()
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := s.db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(s.st.TableName()), Item: av}); err != nil {
		s.t.Fatal(err)
	}
}

// order writes a card order of total (inc VAT) as checkout leaves it: invoiced (number n,
// pro-forma), sent to pay on card attempt 1, with status.
func (s *shop) order(id string, n, total int64, status string) {
	now := time.Now().UnixMilli()
	vat := total / 6
	s.put(map[string]any{"pk": "USER#" + s.uid, "sk": "ORDER#" + id, "id": id, "uid": s.uid, "status": status, "placedAt": now,
		"lines": []any{}, "goodsExVat": total - vat, "netExVat": total - vat, "vat": vat, "totalIncVat": total, "deliveryVat": 0,
		"email": "buyer@example.com", "version": 1,
		"billing": map[string]any{"company": "Card Test Ltd", "contact": "Pat Doe", "paymentMethod": "card", "address": map[string]any{}},
		"invoice": map[string]any{"number": n, "issuedAt": now, "termsDays": 0, "paymentTerms": "Pay by card",
			"rates": []map[string]any{{"rate": 20, "netExVat": total - vat, "vat": vat}}},
		"card":        map[string]any{"attempt": 1, "session": "cs_test_" + id, "state": orders.CardPending, "failure": "", "at": now},
		"creditNotes": s.cancellation(status, n, total, now)})
}

// cancellation is the credit note a cancelled order carries (its whole invoice, applied
// in full); none for an order that is not.
func (s *shop) cancellation(status string, n, total, now int64) []map[string]any {
	if status != orders.StatusCancelled {
		return nil
	}
	vat := total / 6
	return []map[string]any{{"number": n, "invoice": n, "issuedAt": now, "invoiceDate": now, "reason": "Cancelled", "applied": total,
		"rates": []map[string]any{{"rate": 20, "netExVat": total - vat, "vat": vat}}}}
}

// read answers order id as stored.
func (s *shop) read(id string) orders.Order {
	s.t.Helper()
	o, err := s.st.Order(context.Background(), s.uid, id)
	if err != nil {
		s.t.Fatal(err)
	}
	return o
}

// cardPayments answers the account's card payments.
func (s *shop) cardPayments() []payments.Payment {
	s.t.Helper()
	all, err := s.st.Payments(context.Background(), s.uid)
	if err != nil {
		s.t.Fatal(err)
	}
	var out []payments.Payment
	for _, p := range all {
		if p.Method == payments.MethodCard {
			out = append(out, p)
		}
	}
	return out
}

// books holds the account to payments.AccountProblems.
func (s *shop) books() {
	s.t.Helper()
	ctx := context.Background()
	b, err := s.st.MoneyBooks(ctx, s.uid)
	if err != nil {
		s.t.Fatal(err)
	}
	if b.Ledger, err = s.svc.Payments.Ledger(ctx, s.uid); err != nil {
		s.t.Fatal(err)
	}
	for _, p := range payments.AccountProblems(b) {
		s.t.Error(p)
	}
}

// outboxed says the outbox holds message id.
func (s *shop) outboxed(id string) bool {
	s.t.Helper()
	out, err := s.db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(s.st.TableName()),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "OUTBOX"}, "sk": &types.AttributeValueMemberS{Value: id}}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		s.t.Fatal(err)
	}
	return out.Item != nil
}

// event is a webhook event's body: id, type and its object.
func event(id string, typ stripe.EventType, object map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": stripe.APIVersion, "created": time.Now().Unix(),
		"livemode": false, "pending_webhooks": 1, "type": typ, "data": map[string]any{"object": object}})
	return b
}

// intent is a PaymentIntent's object for s's order id on attempt, of amount.
func (s *shop) intent(pi, id string, attempt int, amount int64, currency string) map[string]any {
	return map[string]any{"id": pi, "object": "payment_intent", "amount": amount, "amount_received": amount, "currency": currency,
		"status": "succeeded", "metadata": map[string]string{"order_id": id, "uid": s.uid, "attempt": fmt.Sprint(attempt)}}
}

// session is a Checkout Session's object for s's order id on attempt.
func (s *shop) session(cs, pi, id string, attempt int, amount int64, paymentStatus string) map[string]any {
	return map[string]any{"id": cs, "object": "checkout.session", "amount_total": amount, "currency": "gbp", "mode": "payment",
		"payment_status": paymentStatus, "payment_intent": pi, "client_reference_id": id, "status": "complete",
		"metadata": map[string]string{"order_id": id, "uid": s.uid, "attempt": fmt.Sprint(attempt)}}
}

// deliver posts body signed with secret at signedAt, as Stripe does, and answers the
// status.
func (s *shop) deliver(body []byte, secret string, signedAt time.Time) int {
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: signedAt})
	r := httptest.NewRequest(http.MethodPost, "/api/payments/stripe", bytes.NewReader(body))
	r.Header.Set("Stripe-Signature", sp.Header)
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r)
	return w.Code
}

// ok delivers body signed now with the test secret and wants 200.
func (s *shop) ok(body []byte) {
	s.t.Helper()
	if code := s.deliver(body, testSecret, time.Now()); code != http.StatusOK {
		s.t.Fatalf("delivery: %d, want 200", code)
	}
}

// paidOnce wants order id paid by exactly one card payment, allocated whole to its invoice.
func (s *shop) paidOnce(id string, total int64) payments.Payment {
	s.t.Helper()
	o := s.read(id)
	if !o.Paid() || o.InvoicePaid != total || o.Version != 2 {
		s.t.Errorf("order %s: paid %v, invoice paid %d of %d, version %d (want paid, %d, version 2)", id, o.Paid(), o.InvoicePaid, total, o.Version, total)
	}
	ps := s.cardPayments()
	if len(ps) != 1 {
		s.t.Fatalf("%d card payments, want 1: %+v", len(ps), ps)
	}
	p := ps[0]
	if p.Amount != total || p.Allocated != total || p.Flag != "" || len(p.Allocations) != 1 || p.Allocations[0].OrderID != id {
		s.t.Errorf("payment: %+v, want %d allocated to %s, no flag", p, total, id)
	}
	return p
}

func TestTheSameEventTwiceRecordsOnePayment(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	s.order("TS-200001", 1, 12000, orders.StatusPlaced)
	body := event("evt_dup_1", stripe.EventTypePaymentIntentSucceeded, s.intent("pi_dup_1", "TS-200001", 1, 12000, "gbp"))
	s.ok(body)
	s.ok(body)
	p := s.paidOnce("TS-200001", 12000)
	if p.ID != payments.CardPaymentID("pi_dup_1") || p.Reference != "pi_dup_1" || p.By.Email != "stripe" {
		t.Errorf("payment %s (reference %s, by %s), want %s of pi_dup_1 by stripe", p.ID, p.Reference, p.By.Email, payments.CardPaymentID("pi_dup_1"))
	}
	if found, applied, err := s.st.StripeEventApplied(context.Background(), "evt_dup_1"); err != nil || !found || !applied {
		t.Errorf("event record: found %v, applied %v, %v", found, applied, err)
	}
	s.books()
}

func TestEventsOutOfOrderLeaveOneTrueState(t *testing.T) {
	t.Parallel()
	t.Run("failed after succeeded stays paid", func(t *testing.T) {
		t.Parallel()
		s := newShop(t)
		s.order("TS-200011", 1, 5000, orders.StatusPlaced)
		s.ok(event("evt_ooo_1", stripe.EventTypePaymentIntentSucceeded, s.intent("pi_ooo_1", "TS-200011", 1, 5000, "gbp")))
		failed := s.intent("pi_ooo_1", "TS-200011", 1, 5000, "gbp")
		failed["status"], failed["last_payment_error"] = "requires_payment_method", map[string]any{"message": "Your card was declined."}
		s.ok(event("evt_ooo_2", stripe.EventTypePaymentIntentPaymentFailed, failed))
		s.paidOnce("TS-200011", 5000)
		if c := s.read("TS-200011").Card; c == nil || c.State != orders.CardPending {
			t.Errorf("card state %+v, want still pending (paid is PaidAt)", c)
		}
		s.books()
	})
	t.Run("succeeded before the browser returns, then the session's completion", func(t *testing.T) {
		t.Parallel()
		s := newShop(t)
		s.order("TS-200012", 1, 7300, orders.StatusPlaced)
		// The PaymentIntent's event comes first, the session's after: one payment of the
		// one PaymentIntent.
		s.ok(event("evt_ooo_3", stripe.EventTypePaymentIntentSucceeded, s.intent("pi_ooo_3", "TS-200012", 1, 7300, "gbp")))
		s.ok(event("evt_ooo_4", stripe.EventTypeCheckoutSessionCompleted, s.session("cs_ooo_4", "pi_ooo_3", "TS-200012", 1, 7300, "paid")))
		s.paidOnce("TS-200012", 7300)
		s.books()
	})
	t.Run("the session's completion, then the PaymentIntent's success", func(t *testing.T) {
		t.Parallel()
		s := newShop(t)
		s.order("TS-200013", 1, 990, orders.StatusPlaced)
		s.ok(event("evt_ooo_5", stripe.EventTypeCheckoutSessionCompleted, s.session("cs_ooo_5", "pi_ooo_5", "TS-200013", 1, 990, "paid")))
		s.ok(event("evt_ooo_6", stripe.EventTypePaymentIntentSucceeded, s.intent("pi_ooo_5", "TS-200013", 1, 990, "gbp")))
		s.paidOnce("TS-200013", 990)
		s.books()
	})
	t.Run("a failure of an older attempt changes nothing, of the latest says why", func(t *testing.T) {
		t.Parallel()
		s := newShop(t)
		s.order("TS-200014", 1, 2500, orders.StatusPlaced)
		old := s.intent("pi_ooo_7", "TS-200014", 0, 2500, "gbp")
		old["metadata"].(map[string]string)["attempt"] = "7"
		old["last_payment_error"] = map[string]any{"message": "Old news."}
		s.ok(event("evt_ooo_7", stripe.EventTypePaymentIntentPaymentFailed, old))
		if c := s.read("TS-200014").Card; c == nil || c.State != orders.CardPending {
			t.Errorf("card state after an older attempt's failure: %+v, want pending", c)
		}
		now := s.intent("pi_ooo_8", "TS-200014", 1, 2500, "gbp")
		now["last_payment_error"] = map[string]any{"message": "Your card has insufficient funds."}
		s.ok(event("evt_ooo_8", stripe.EventTypePaymentIntentPaymentFailed, now))
		if c := s.read("TS-200014").Card; c == nil || c.State != orders.CardFailed || c.Failure != "Your card has insufficient funds." {
			t.Errorf("card state: %+v, want failed with Stripe's message", c)
		}
		s.ok(event("evt_ooo_9", stripe.EventTypeCheckoutSessionExpired, s.session("cs_ooo_9", "", "TS-200014", 1, 2500, "unpaid")))
		if c := s.read("TS-200014").Card; c == nil || c.State != orders.CardAbandoned {
			t.Errorf("card state after the session expired: %+v, want abandoned", c)
		}
		if o := s.read("TS-200014"); o.Paid() || len(s.cardPayments()) != 0 {
			t.Errorf("a failed payment paid the order (%v) or recorded a payment", o.Paid())
		}
	})
}

func TestBadDeliveriesAre400AndWriteNothing(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	s.order("TS-200021", 1, 4000, orders.StatusPlaced)
	good := event("evt_bad_1", stripe.EventTypePaymentIntentSucceeded, s.intent("pi_bad_1", "TS-200021", 1, 4000, "gbp"))
	cases := []struct {
		name     string
		body     []byte
		secret   string
		signedAt time.Time
	}{
		{"forged signature", good, "whsec_someone_else", time.Now()},
		{"stale timestamp", good, testSecret, time.Now().Add(-301 * time.Second)},
		{"garbled body", []byte(`{"id":"evt_bad_1","object":"event",`), testSecret, time.Now()},
		{"not an event", []byte(`{"id":"evt_bad_1","object":"payment_intent"}`), testSecret, time.Now()},
		{"too big", append(bytes.Repeat([]byte(" "), cardpay.MaxEventBytes), good...), testSecret, time.Now()},
	}
	for _, c := range cases {
		if code := s.deliver(c.body, c.secret, c.signedAt); code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", c.name, code)
		}
	}
	// Unsigned.
	r := httptest.NewRequest(http.MethodPost, "/api/payments/stripe", bytes.NewReader(good))
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r)
	if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"error"`) {
		t.Errorf("unsigned: %d %s, want 400 {error}", w.Code, w.Body.String())
	}
	if found, _, err := s.st.StripeEventApplied(context.Background(), "evt_bad_1"); err != nil || found {
		t.Errorf("a refused delivery recorded the event (%v, %v)", found, err)
	}
	if o := s.read("TS-200021"); o.Paid() || len(s.cardPayments()) != 0 {
		t.Error("a refused delivery paid the order")
	}
}

func TestAmountsThatDoNotMatchAreFlaggedNotAllocated(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		amount   int64
		currency string
		flag     string
	}{
		{"a penny short", 9999, "gbp", payments.FlagAmount},
		{"a penny over", 10001, "gbp", payments.FlagAmount},
		{"in euros", 10000, "eur", payments.FlagCurrency},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newShop(t)
			id := fmt.Sprintf("TS-20003%d", i)
			s.order(id, 1, 10000, orders.StatusPlaced)
			pi := fmt.Sprintf("pi_amount_%d", i)
			s.ok(event("evt_amount_"+fmt.Sprint(i), stripe.EventTypePaymentIntentSucceeded, s.intent(pi, id, 1, c.amount, c.currency)))
			ps := s.cardPayments()
			if len(ps) != 1 || ps[0].Flag != c.flag || ps[0].Allocated != 0 || ps[0].Amount != c.amount {
				t.Fatalf("payments %+v, want one of %d flagged %q, nothing allocated", ps, c.amount, c.flag)
			}
			if o := s.read(id); o.Paid() || o.InvoicePaid != 0 {
				t.Errorf("order paid %v, invoice paid %d: want unpaid", o.Paid(), o.InvoicePaid)
			}
			if !s.outboxed(id + "/" + mail.KindCardFlagged + "-" + ps[0].ID) {
				t.Error("staff were not told")
			}
			s.books()
		})
	}
	t.Run("an order paid already", func(t *testing.T) {
		t.Parallel()
		s := newShop(t)
		s.order("TS-200039", 1, 3000, orders.StatusPlaced)
		s.ok(event("evt_twice_1", stripe.EventTypePaymentIntentSucceeded, s.intent("pi_twice_1", "TS-200039", 1, 3000, "gbp")))
		s.ok(event("evt_twice_2", stripe.EventTypePaymentIntentSucceeded, s.intent("pi_twice_2", "TS-200039", 1, 3000, "gbp")))
		ps := s.cardPayments()
		if len(ps) != 2 {
			t.Fatalf("%d card payments, want 2 (two PaymentIntents)", len(ps))
		}
		var flagged int
		for _, p := range ps {
			if p.Flag == payments.FlagAlreadyPaid && p.Allocated == 0 {
				flagged++
			}
		}
		if o := s.read("TS-200039"); flagged != 1 || o.InvoicePaid != 3000 {
			t.Errorf("%d flagged paid already, invoice paid %d: want 1 and 3000", flagged, o.InvoicePaid)
		}
		s.books()
	})
}

func TestAPaymentForACancelledOrderIsRefundedAndStaffTold(t *testing.T) {
	t.Parallel()
	for i, status := range []string{orders.StatusCancelled, orders.StatusCancelling} {
		t.Run(status, func(t *testing.T) {
			t.Parallel()
			s := newShop(t)
			id := fmt.Sprintf("TS-20004%d", i)
			s.order(id, 1, 6400, status)
			body := event("evt_cancel_"+status, stripe.EventTypePaymentIntentSucceeded, s.intent("pi_cancel_"+status, id, 1, 6400, "gbp"))
			s.ok(body)
			s.ok(body) // again: the refund is not asked twice
			ps := s.cardPayments()
			if len(ps) != 1 || ps[0].Flag != payments.FlagCancelled {
				t.Fatalf("payments %+v, want one flagged cancelled", ps)
			}
			refunds, err := s.st.Refunds(context.Background(), s.uid)
			if err != nil {
				t.Fatal(err)
			}
			if len(refunds) != 1 || refunds[0].Source != ps[0].ID || refunds[0].Amount != 6400 {
				t.Errorf("refunds %+v, want one REF of 6400 from %s", refunds, ps[0].ID)
			}
			if o := s.read(id); o.Paid() || o.InvoicePaid != 0 {
				t.Errorf("the cancelled order was paid (%v, %d)", o.Paid(), o.InvoicePaid)
			}
			if !s.outboxed(id + "/" + mail.KindCardFlagged + "-" + ps[0].ID) {
				t.Error("staff were not told")
			}
			s.books()
		})
	}
}

func Test20ConcurrentDeliveriesRecordOnePayment(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	s.order("TS-200051", 1, 45678, orders.StatusPlaced)
	// Another order of the account, paid by a second PaymentIntent at the same time.
	s.order("TS-200052", 2, 1234, orders.StatusPlaced)
	first := event("evt_many_1", stripe.EventTypePaymentIntentSucceeded, s.intent("pi_many_1", "TS-200051", 1, 45678, "gbp"))
	session := event("evt_many_2", stripe.EventTypeCheckoutSessionCompleted, s.session("cs_many_2", "pi_many_1", "TS-200051", 1, 45678, "paid"))
	other := event("evt_many_3", stripe.EventTypePaymentIntentSucceeded, s.intent("pi_many_3", "TS-200052", 1, 1234, "gbp"))
	var wg sync.WaitGroup
	codes := make([]int, 30)
	for i := range codes {
		body := first
		switch {
		case i >= 25:
			body = other
		case i >= 20:
			body = session
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = s.deliver(body, testSecret, time.Now())
		}()
	}
	wg.Wait()
	for i, code := range codes {
		if code != http.StatusOK {
			t.Errorf("delivery %d: %d", i, code)
		}
	}
	ps := s.cardPayments()
	byPI := map[string]int{}
	for _, p := range ps {
		byPI[p.Reference]++
	}
	if len(ps) != 2 || byPI["pi_many_1"] != 1 || byPI["pi_many_3"] != 1 {
		t.Fatalf("card payments by PaymentIntent: %v, want one each", byPI)
	}
	for id, total := range map[string]int64{"TS-200051": 45678, "TS-200052": 1234} {
		if o := s.read(id); !o.Paid() || o.InvoicePaid != total || o.Version != 2 {
			t.Errorf("order %s: paid %v, invoice paid %d of %d, version %d", id, o.Paid(), o.InvoicePaid, total, o.Version)
		}
	}
	s.books()
}

func TestAnEventRecordedButNotAppliedIsAppliedOnceWhenDeliveredAgain(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	s.order("TS-200061", 1, 8800, orders.StatusPlaced)
	ctx := context.Background()
	// The edge stopped between recording the event and applying it.
	if applied, err := s.st.RecordStripeEvent(ctx, "evt_crash_1", string(stripe.EventTypePaymentIntentSucceeded), time.Now()); err != nil || applied {
		t.Fatalf("record: applied %v, %v", applied, err)
	}
	if applied, err := s.st.RecordStripeEvent(ctx, "evt_crash_1", string(stripe.EventTypePaymentIntentSucceeded), time.Now()); err != nil || applied {
		t.Fatalf("recorded, not applied: applied %v, %v (want false: apply it again)", applied, err)
	}
	body := event("evt_crash_1", stripe.EventTypePaymentIntentSucceeded, s.intent("pi_crash_1", "TS-200061", 1, 8800, "gbp"))
	s.ok(body)
	s.paidOnce("TS-200061", 8800)
	if found, applied, err := s.st.StripeEventApplied(ctx, "evt_crash_1"); err != nil || !found || !applied {
		t.Errorf("event record: found %v, applied %v, %v", found, applied, err)
	}
	s.ok(body)
	s.paidOnce("TS-200061", 8800)
	s.books()
}

func TestOtherEventTypesAreRecordedAndIgnored(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	s.ok(event("evt_other_1", "customer.created", map[string]any{"id": "cus_1", "object": "customer"}))
	if found, applied, err := s.st.StripeEventApplied(context.Background(), "evt_other_1"); err != nil || !found || !applied {
		t.Errorf("event record: found %v, applied %v, %v", found, applied, err)
	}
}

func TestThePauseHookIsLocalOnly(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d, err := cardpay.PauseFromEnv(env(map[string]string{"STAGE": "local", "STRIPE_WEBHOOK_PAUSE_MS": "1500"})); err != nil || d != 1500*time.Millisecond {
		t.Errorf("local: %v, %v", d, err)
	}
	for _, stage := range []string{"staging", "production", ""} {
		if _, err := cardpay.PauseFromEnv(env(map[string]string{"STAGE": stage, "STRIPE_WEBHOOK_PAUSE_MS": "1500"})); err == nil {
			t.Errorf("stage %q took the pause hook", stage)
		}
	}
	if d, err := cardpay.PauseFromEnv(env(map[string]string{"STAGE": "production"})); err != nil || d != 0 {
		t.Errorf("unset: %v, %v", d, err)
	}
}

// TestACardPaymentRacingStaffsMarkPaidPaysTheInvoiceOnce: a card payment arriving while a
// member of staff marks the same order paid. Whichever writes first pays the invoice; the
// other is refused (Mark paid: the order moved) or flagged (the card payment: paid
// already). The invoice is never paid twice.
func TestACardPaymentRacingStaffsMarkPaidPaysTheInvoiceOnce(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	ctx := context.Background()
	const n = 6
	for i := range n {
		s.order(fmt.Sprintf("TS-20007%d", i), int64(i+1), 1000+int64(i), orders.StatusPlaced)
	}
	var wg sync.WaitGroup
	for i := range n {
		id := fmt.Sprintf("TS-20007%d", i)
		o := s.read(id)
		body := event("evt_race_"+fmt.Sprint(i), stripe.EventTypePaymentIntentSucceeded, s.intent("pi_race_"+fmt.Sprint(i), id, 1, o.TotalIncVAT, "gbp"))
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, _ = s.svc.Payments.PayInvoice(ctx, o, orders.Staff{UID: "staff-1", Email: "staff@example.com"})
		}()
		go func() {
			defer wg.Done()
			if code := s.deliver(body, testSecret, time.Now()); code != http.StatusOK {
				t.Errorf("delivery for %s: %d", id, code)
			}
		}()
	}
	wg.Wait()
	for i := range n {
		id := fmt.Sprintf("TS-20007%d", i)
		if o := s.read(id); !o.Paid() || o.InvoicePaid != o.TotalIncVAT {
			t.Errorf("order %s: paid %v, invoice paid %d of %d", id, o.Paid(), o.InvoicePaid, o.TotalIncVAT)
		}
	}
	for _, p := range s.cardPayments() {
		if (p.Allocated == 0) != (p.Flag == payments.FlagAlreadyPaid) {
			t.Errorf("card payment %s: allocated %d, flag %q", p.ID, p.Allocated, p.Flag)
		}
	}
	s.books()
}
