package cardpay

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/store"
)

// testService is a Service over a fresh table of the local DynamoDB whose Stripe calls go
// to the shared stripe-mock (STRIPE_API_BASE): every request the shop sends is checked
// against Stripe's API.
func testService(t *testing.T) (Service, *store.Store) {
	t.Helper()
	for _, k := range []string{"DYNAMODB_ENDPOINT", "STRIPE_API_BASE"} {
		if os.Getenv(k) == "" {
			t.Skipf("%s is not set: integration test needs the local stack (run scripts/test)", k)
		}
	}
	ctx := context.Background()
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName = "it-card-" + randomHex()[:8]
	st, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.EnsureTable(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.DeleteTable(context.Background()) })
	c, err := ConfigFromEnv(func(k string) string {
		switch k {
		case "STAGE":
			return StageLocal
		case "STRIPE_SECRET_KEY":
			return "sk_test_local"
		case "STRIPE_WEBHOOK_SECRET":
			return "whsec_local"
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
	s := NewService(c, st, mail.Notices{Shop: shop, SiteURL: c.SiteURL}, time.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	return *s, st
}

// putCredit puts credit on account as a credit note's transaction does: a payment item
// of method credit_note (id the note's number) holding amount, nothing allocated.
func putCredit(t *testing.T, st *store.Store, uid, number, orderID string, amount int64) {
	t.Helper()
	now := time.Now()
	p := payments.Payment{ID: number, UID: uid, Method: payments.MethodCreditNote, Date: payments.Day(now).Format(time.DateOnly),
		Amount: amount, Reference: number, RecordedAt: now, By: orders.Staff{UID: "staff-test"}, OrderID: orderID}
	if err := st.WriteAllocation(context.Background(), payments.Write{Payment: p, New: true,
		Audit: orders.AuditEntry{At: now, Action: "credit note", After: map[string]any{"credit_note": number}}}); err != nil {
		t.Fatal(err)
	}
}

// TestRefundCardTwiceIsOneRefund: asking for the same refund twice (a retry, the sweep)
// writes one REF document and one allocation on its source; stripe-mock takes the
// request, and its answer (succeeded) settles it.
func TestRefundCardTwiceIsOneRefund(t *testing.T) {
	t.Parallel()
	s, st := testService(t)
	ctx := context.Background()
	uid := "card-refund-" + randomHex()[:8]
	putCredit(t, st, uid, "CN-000101", "TS-100101", 2500)
	r1, err := s.RefundCard(ctx, uid, "TS-100101", "CN-000101", "pi_test_twice", 2000, "test")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := s.RefundCard(ctx, uid, "TS-100101", "CN-000101", "pi_test_twice", 2000, "test")
	if err != nil {
		t.Fatal(err)
	}
	if r1.ID != r2.ID || r1.ID != CardRefundID("CN-000101", "pi_test_twice", 2000) {
		t.Fatalf("ids %s and %s", r1.ID, r2.ID)
	}
	refunds, err := st.Refunds(ctx, uid)
	if err != nil || len(refunds) != 1 {
		t.Fatalf("%d refunds (%v), want 1", len(refunds), err)
	}
	got := refunds[0]
	if got.Method != payments.MethodCard || got.PaymentIntent != "pi_test_twice" || got.StripeRefund == "" || got.Status != payments.RefundSucceeded ||
		got.OrderID != "TS-100101" {
		t.Fatalf("refund %+v", got)
	}
	src, err := st.Payment(ctx, uid, "CN-000101")
	if err != nil || src.Allocated != 2000 || len(src.Allocations) != 1 || src.Allocations[0].Refund != got.ID {
		t.Fatalf("source %+v (%v)", src, err)
	}
	if left, err := st.CardRefundsUnanswered(ctx, time.Now().Add(time.Hour)); err != nil || len(left) != 0 {
		t.Fatalf("markers left: %v %v", left, err)
	}
}

// writePending writes a refund to a card as RefundCard does before Stripe is asked: the
// crash (or an event faster than Stripe's answer) happens after it.
func writePending(t *testing.T, s Service, uid, orderID, source, pi string, amount int64) payments.Refund {
	t.Helper()
	r, err := s.recordCardRefund(context.Background(), uid, orderID, source, pi, amount, "test")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func refundEvent(r payments.Refund, re string, status stripe.RefundStatus) *stripe.Refund {
	return &stripe.Refund{ID: re, Status: status, Amount: r.Amount, FailureReason: "expired_or_canceled_card",
		Metadata: map[string]string{MetaRefundID: r.ID, MetaUID: r.UID, MetaOrderID: r.OrderID}}
}

// TestRefundEventsOutOfOrder: an event before the re_ id is stored applies by its
// metadata's refund_id; succeeded then a late pending stays succeeded; a failed event
// after succeeded changes nothing.
func TestRefundEventsOutOfOrder(t *testing.T) {
	t.Parallel()
	s, st := testService(t)
	ctx := context.Background()
	uid := "card-events-" + randomHex()[:8]
	putCredit(t, st, uid, "CN-000102", "TS-100102", 3000)
	r := writePending(t, s, uid, "TS-100102", "CN-000102", "pi_test_events", 3000)
	for _, status := range []stripe.RefundStatus{stripe.RefundStatusSucceeded, stripe.RefundStatusPending, stripe.RefundStatusFailed} {
		if err := s.ApplyRefundEvent(ctx, refundEvent(r, "re_test_events", status)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.Refund(ctx, uid, r.ID)
	if err != nil || got.Status != payments.RefundSucceeded || got.StripeRefund != "re_test_events" || got.Failure != "" {
		t.Fatalf("refund %+v (%v)", got, err)
	}
	if pays, _ := st.Payments(ctx, uid); len(pays) != 1 {
		t.Fatalf("%d payments: a succeeded refund put money back", len(pays))
	}
	if left, err := st.CardRefundsUnanswered(ctx, time.Now().Add(time.Hour)); err != nil || len(left) != 0 {
		t.Fatalf("markers left: %v %v", left, err)
	}
	// A refund the shop did not ask for is left alone.
	if err := s.ApplyRefundEvent(ctx, &stripe.Refund{ID: "re_dashboard", Status: stripe.RefundStatusSucceeded}); err != nil {
		t.Fatal(err)
	}
}

// TestFailedRefundPutsTheMoneyBackOnce: a failed refund (delivered twice) puts its money
// back on account once, as a new credit document free to allocate, tells staff, and the
// account's books still balance.
func TestFailedRefundPutsTheMoneyBackOnce(t *testing.T) {
	t.Parallel()
	s, st := testService(t)
	ctx := context.Background()
	uid := "card-failed-" + randomHex()[:8]
	putCredit(t, st, uid, "CN-000103", "TS-100103", 1800)
	r := writePending(t, s, uid, "TS-100103", "CN-000103", "pi_test_failed", 1200)
	for range 2 {
		if err := s.ApplyRefundEvent(ctx, refundEvent(r, "re_test_failed", stripe.RefundStatusFailed)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.Refund(ctx, uid, r.ID)
	if err != nil || got.Status != payments.RefundFailed || got.Failure == "" {
		t.Fatalf("refund %+v (%v)", got, err)
	}
	// Succeeded after failed changes nothing either.
	if err := s.ApplyRefundEvent(ctx, refundEvent(r, "re_test_failed", stripe.RefundStatusSucceeded)); err != nil {
		t.Fatal(err)
	}
	pays, err := st.Payments(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	var back []payments.Payment
	for _, p := range pays {
		if p.ID == ReturnedID(r.ID) {
			back = append(back, p)
		}
	}
	if len(back) != 1 || back[0].Amount != 1200 || back[0].Unallocated() != 1200 || back[0].Method != payments.MethodCard {
		t.Fatalf("money back: %+v", back)
	}
	l, err := s.Payments.Ledger(ctx, uid)
	if err != nil {
		// The account has no profile here: the ledger is drawn from the documents alone.
		docs := payments.Documents{Payments: pays}
		docs.Refunds, _ = st.Refunds(ctx, uid)
		l = payments.Build(docs, time.Now())
	}
	if l.Unallocated != 600+1200 {
		t.Fatalf("unallocated %d, want the credit's £6 left and the £12 back", l.Unallocated)
	}
}

// TestSweepAsksStripeForAnUnansweredRefund: a refund recorded but never sent to Stripe (a
// crash in between) is asked for by the sweep, once, and settled by its answer.
func TestSweepAsksStripeForAnUnansweredRefund(t *testing.T) {
	t.Parallel()
	s, st := testService(t)
	ctx := context.Background()
	uid := "card-sweep-" + randomHex()[:8]
	putCredit(t, st, uid, "CN-000104", "TS-100104", 900)
	r := writePending(t, s, uid, "TS-100104", "CN-000104", "pi_test_sweep", 900)
	s.Now = func() time.Time { return time.Now().Add(2 * unansweredAfter) }
	asked, err := s.Sweep(ctx)
	if err != nil || asked != 1 {
		t.Fatalf("asked %d: %v", asked, err)
	}
	got, err := st.Refund(ctx, uid, r.ID)
	if err != nil || got.StripeRefund == "" || got.Status != payments.RefundSucceeded {
		t.Fatalf("refund %+v (%v)", got, err)
	}
	if asked, err := s.Sweep(ctx); err != nil || asked != 0 {
		t.Fatalf("asked again %d: %v", asked, err)
	}
}
