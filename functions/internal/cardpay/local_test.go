package cardpay

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/tradeshop/functions/internal/orders"
)

// TestLocalEventsVerifyAsStripes: each outcome of the local page is the events Stripe
// would send, in its order, each signed so that webhook.ConstructEvent (the webhook's
// own check, with its API version and tolerance) takes it, with the order's metadata,
// the local PaymentIntent id and, for a failure, Stripe's error.
func TestLocalEventsVerifyAsStripes(t *testing.T) {
	t.Parallel()
	o := orders.Order{ID: "TS-100777", UID: "uid-local", Invoice: &orders.Invoice{Number: 42}}
	p := LocalPayment{Order: o, Attempt: 2, Session: "cs_test_local", Amount: 12345}
	cases := []struct {
		outcome string
		types   []stripe.EventType
		code    string
		message string
	}{
		{OutcomeSucceed, []stripe.EventType{stripe.EventTypeCheckoutSessionCompleted, stripe.EventTypePaymentIntentSucceeded}, "", ""},
		{OutcomeDecline, []stripe.EventType{stripe.EventTypePaymentIntentPaymentFailed}, "card_declined", DeclinedMessage},
		{OutcomeAuthFail, []stripe.EventType{stripe.EventTypePaymentIntentPaymentFailed}, "authentication_required", AuthFailMessage},
	}
	for _, c := range cases {
		t.Run(c.outcome, func(t *testing.T) {
			t.Parallel()
			now := time.Now()
			events, err := LocalEvents(p, c.outcome, now)
			if err != nil || len(events) != len(c.types) {
				t.Fatalf("%d events: %v", len(events), err)
			}
			for i, payload := range events {
				ev, err := webhook.ConstructEvent(payload, SignLocal(payload, "whsec_local", now), "whsec_local")
				if err != nil {
					t.Fatalf("event %d does not verify: %v", i, err)
				}
				if ev.Type != c.types[i] || !strings.HasPrefix(ev.ID, "evt_local_") || ev.APIVersion != stripe.APIVersion {
					t.Fatalf("event %d: %s %s %s", i, ev.Type, ev.ID, ev.APIVersion)
				}
				if _, err := webhook.ConstructEvent(payload, SignLocal(payload, "whsec_other", now), "whsec_local"); err == nil {
					t.Fatal("an event signed with another secret verified")
				}
				switch ev.Type {
				case stripe.EventTypeCheckoutSessionCompleted:
					var cs stripe.CheckoutSession
					if err := cs.UnmarshalJSON(ev.Data.Raw); err != nil {
						t.Fatal(err)
					}
					if cs.ID != "cs_test_local" || cs.PaymentStatus != stripe.CheckoutSessionPaymentStatusPaid || cs.AmountTotal != 12345 ||
						cs.ClientReferenceID != o.ID || cs.Metadata[MetaAttempt] != "2" || cs.PaymentIntent.ID != "pi_local_TS-100777_2" {
						t.Fatalf("session %+v", cs)
					}
				default:
					var pi stripe.PaymentIntent
					if err := pi.UnmarshalJSON(ev.Data.Raw); err != nil {
						t.Fatal(err)
					}
					if pi.ID != "pi_local_TS-100777_2" || pi.Amount != 12345 || pi.Currency != Currency ||
						pi.Metadata[MetaOrderID] != o.ID || pi.Metadata[MetaUID] != o.UID || pi.Metadata[MetaAttempt] != "2" {
						t.Fatalf("payment intent %+v", pi)
					}
					if c.code != "" && (pi.LastPaymentError == nil || string(pi.LastPaymentError.Code) != c.code || pi.LastPaymentError.Msg != c.message) {
						t.Fatalf("last payment error %+v", pi.LastPaymentError)
					}
				}
			}
		})
	}
	if _, err := LocalEvents(p, "refund everything", time.Now()); err == nil {
		t.Fatal("an unknown outcome made events")
	}
}

// TestLocalPageOnlyLocally: the local page is not there in any other stage, and its form
// is refused from another origin.
func TestLocalPageOnlyLocally(t *testing.T) {
	t.Parallel()
	staging := Service{Config: Config{Stage: "staging", SecretKey: "sk_test_x", WebhookSecret: "whsec_x"}, Stripe: NewClient(Config{SecretKey: "sk_test_x"}, nil)}
	rec := httptest.NewRecorder()
	staging.LocalPage("http://127.0.0.1:1/api/payments/stripe").ServeHTTP(rec, httptest.NewRequest("GET", LocalPagePath+"?order=TS-100001&attempt=1&session=cs_x", nil))
	if rec.Code != http.StatusNotFound {
		t.Fatalf("staging answered %d", rec.Code)
	}
	local := staging
	local.Config.Stage = StageLocal
	req := httptest.NewRequest("POST", LocalPagePath+"?order=TS-100001&attempt=1&session=cs_x", strings.NewReader("outcome=succeed"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	rec = httptest.NewRecorder()
	local.LocalPage("http://127.0.0.1:1/api/payments/stripe").ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("a cross-site POST answered %d", rec.Code)
	}
}
