package cardpay

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/store"
)

// LocalPagePath is where the local edge serves the local payment page (STAGE=local only).
const LocalPagePath = "/pay/local/"

// The local payment page's outcomes, each delivered as the events Stripe would send.
const (
	OutcomeSucceed  = "succeed"
	OutcomeDecline  = "decline"
	OutcomeAuthFail = "auth_fail"
)

// The failures the local page's outcomes carry, as Stripe words them.
const (
	DeclinedMessage = "Your card was declined."
	AuthFailMessage = "We are unable to authenticate your payment method. Please choose a different payment method and try again."
)

// LocalPaymentIntent is the PaymentIntent id the local page gives attempt of orderID.
func LocalPaymentIntent(orderID string, attempt int) string {
	return "pi_local_" + orderID + "_" + strconv.Itoa(attempt)
}

// LocalPayment is one card payment on the local page: the order, its attempt, the
// Checkout Session stripe-mock answered, and the amount (the server's order's).
type LocalPayment struct {
	Order   orders.Order
	Attempt int
	Session string
	Amount  int64
}

// LocalEvents builds the events Stripe would send for outcome of p, in the order it
// sends them: Succeed is checkout.session.completed (paid) then
// payment_intent.succeeded; Decline and Require authentication then fail are each one
// payment_intent.payment_failed with Stripe's error. Each is the JSON of a
// stripe.Event of this library's API version.
func LocalEvents(p LocalPayment, outcome string, now time.Time) ([][]byte, error) {
	meta := Metadata(p.Order, p.Attempt)
	pi := LocalPaymentIntent(p.Order.ID, p.Attempt)
	intent := map[string]any{"id": pi, "object": "payment_intent", "amount": p.Amount, "currency": Currency, "metadata": meta,
		"livemode": false, "created": now.Unix(), "description": LineName(p.Order)}
	var objects []map[string]any
	var types []stripe.EventType
	switch outcome {
	case OutcomeSucceed:
		session := map[string]any{"id": p.Session, "object": "checkout.session", "mode": "payment", "status": "complete",
			"payment_status": "paid", "amount_total": p.Amount, "currency": Currency, "client_reference_id": p.Order.ID,
			"metadata": meta, "payment_intent": pi, "livemode": false, "created": now.Unix()}
		intent["status"], intent["amount_received"] = "succeeded", p.Amount
		intent["latest_charge"] = "ch_local_" + p.Order.ID + "_" + strconv.Itoa(p.Attempt)
		objects = []map[string]any{session, intent}
		types = []stripe.EventType{stripe.EventTypeCheckoutSessionCompleted, stripe.EventTypePaymentIntentSucceeded}
	case OutcomeDecline, OutcomeAuthFail:
		code, msg := "card_declined", DeclinedMessage
		if outcome == OutcomeAuthFail {
			code, msg = "authentication_required", AuthFailMessage
		}
		intent["status"], intent["amount_received"] = "requires_payment_method", 0
		intent["last_payment_error"] = map[string]any{"type": "card_error", "code": code, "message": msg}
		objects = []map[string]any{intent}
		types = []stripe.EventType{stripe.EventTypePaymentIntentPaymentFailed}
	default:
		return nil, fmt.Errorf("no such outcome %q", outcome)
	}
	out := make([][]byte, len(objects))
	for i, obj := range objects {
		ev := map[string]any{"id": "evt_local_" + randomHex(), "object": "event", "api_version": stripe.APIVersion,
			"created": now.Unix(), "livemode": false, "pending_webhooks": 1, "type": types[i],
			"request": map[string]any{"id": nil, "idempotency_key": nil}, "data": map[string]any{"object": obj}}
		b, err := json.Marshal(ev)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// SignLocal signs payload with secret at now as Stripe signs its webhook events: the
// Stripe-Signature header's value.
func SignLocal(payload []byte, secret string, now time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: now}).Header
}

func randomHex() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// LocalPage serves the local payment page (GET) and delivers its outcomes (POST) to
// webhookURL, the edge's own POST /api/payments/stripe, signed with the webhook secret:
// the same endpoint, and the same verification, as Stripe's events in the cloud. It is
// mounted by the local edge only, and answers 404 in any stage but local besides. Its
// form is same-origin only (http.CrossOriginProtection).
func (s Service) LocalPage(webhookURL string) http.Handler {
	post := http.NewCrossOriginProtection().Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.localPost(w, r, webhookURL)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.Config.Local() || s.Stripe == nil {
			http.NotFound(w, r)
			return
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			s.localGet(w, r)
		case http.MethodPost:
			post.ServeHTTP(w, r)
		default:
			w.Header().Set("Allow", "GET, HEAD, POST")
			http.Error(w, "Method not allowed.", http.StatusMethodNotAllowed)
		}
	})
}

// localView is what the local page shows.
type localView struct {
	OrderID, Amount, Session, Problem, OrderPage string
	Attempt                                      int
}

// localPayment reads the payment the page's query names: the order (whoever's: the
// local page has no sign-in, as Stripe's hosted page has none), its attempt and session.
// A problem is a sentence for the page; err a failure of the store.
func (s Service) localPayment(ctx context.Context, r *http.Request) (p LocalPayment, problem string, err error) {
	q := r.URL.Query()
	id, session := q.Get("order"), q.Get("session")
	attempt, _ := strconv.Atoi(q.Get("attempt"))
	if !orders.ValidID(id) || attempt < 1 || session == "" {
		return p, "This link does not name a payment: start again from the order's Pay now.", nil
	}
	o, err := s.Store.OrderByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return p, "There is no order " + id + ".", nil
	}
	if err != nil {
		return p, "", err
	}
	if o, err = s.Store.Order(ctx, o.UID, id); err != nil {
		return p, "", err
	}
	p = LocalPayment{Order: o, Attempt: attempt, Session: session}
	inv, err := payable(o)
	if err != nil {
		return p, err.Error(), nil
	}
	if o.Card == nil || o.Card.Attempt != attempt || o.Card.Session != session {
		return p, "This payment page is out of date (a newer one was started, and this one has expired): start again from the order's Pay now.", nil
	}
	p.Amount = inv.Outstanding()
	return p, "", nil
}

func (s Service) localGet(w http.ResponseWriter, r *http.Request) {
	p, problem, err := s.localPayment(r.Context(), r)
	if err != nil {
		s.Log.ErrorContext(r.Context(), "local payment page", "err", err)
		http.Error(w, "The store could not be read: try again.", http.StatusInternalServerError)
		return
	}
	v := localView{OrderID: p.Order.ID, Amount: orders.Pounds(p.Amount), Session: p.Session, Attempt: p.Attempt, Problem: problem,
		OrderPage: s.orderPage(p.Order.ID)}
	var b bytes.Buffer
	if err := localTemplate.Execute(&b, v); err != nil {
		s.Log.ErrorContext(r.Context(), "local payment page", "err", err)
		http.Error(w, "The page could not be drawn.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(b.Bytes())
}

// localPost delivers the outcome the buyer chose as signed events to webhookURL, one
// after the other, then sends the browser where Stripe would: the complete page after a
// payment, the order page after a failure.
func (s Service) localPost(w http.ResponseWriter, r *http.Request, webhookURL string) {
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	outcome := r.PostFormValue("outcome")
	p, problem, err := s.localPayment(r.Context(), r)
	switch {
	case err != nil:
		s.Log.ErrorContext(r.Context(), "local payment page", "err", err)
		http.Error(w, "The store could not be read: try again.", http.StatusInternalServerError)
		return
	case problem != "":
		http.Error(w, problem, http.StatusConflict)
		return
	}
	events, err := LocalEvents(p, outcome, s.Now())
	if err != nil {
		http.Error(w, "Choose Succeed, Decline or Require authentication then fail.", http.StatusBadRequest)
		return
	}
	for _, ev := range events {
		if err := s.deliverLocal(r.Context(), webhookURL, ev); err != nil {
			s.Log.ErrorContext(r.Context(), "local payment page: deliver the event", "err", err)
			http.Error(w, "The shop's webhook did not take the event: "+err.Error(), http.StatusBadGateway)
			return
		}
	}
	to := s.orderPage(p.Order.ID)
	if outcome == OutcomeSucceed {
		to = s.Config.SiteURL + "/checkout/complete/" + p.Order.ID + "/?paid=1"
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// deliverLocal POSTs one event, signed now, to webhookURL: an error unless it answers 2xx.
func (s Service) deliverLocal(ctx context.Context, webhookURL string, payload []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, webhookURL, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Stripe-Signature", SignLocal(payload, s.Config.WebhookSecret, s.Now()))
	res, err := localClient.Do(req)
	if err != nil {
		return fmt.Errorf("post to %s: %w", webhookURL, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 2<<10))
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %d: %s", webhookURL, res.StatusCode, bytes.TrimSpace(body))
	}
	return nil
}

// localClient delivers the local page's events (a webhook paused by
// STRIPE_WEBHOOK_PAUSE_MS may take a while).
var localClient = &http.Client{Timeout: 60 * time.Second}

var localTemplate = htmltemplate.Must(htmltemplate.New("local").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local test payment — no money moves</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
.banner { background: #fff3cd; border: 2px dashed #b58100; padding: .75rem 1rem; font-weight: 600; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dt { font-weight: 600; }
form { display: flex; flex-direction: column; gap: .75rem; margin-top: 1.5rem; }
button { font: inherit; padding: .75rem 1rem; cursor: pointer; border-radius: .375rem; border: 1px solid #555; background: #fff; }
button[value=succeed] { background: #1b6e3a; color: #fff; border-color: #1b6e3a; }
</style>
</head>
<body>
<main>
<h1>Local test payment — no money moves</h1>
<p class="banner">This page stands in for Stripe's payment page on this machine (STAGE=local). No card is asked for and no money moves: each button sends the shop the signed webhook events Stripe would send.</p>
{{if .Problem}}
<p role="alert">{{.Problem}}</p>
{{if .OrderID}}<p><a href="{{.OrderPage}}">Back to order {{.OrderID}}</a></p>{{end}}
{{else}}
<dl>
<dt>Order</dt><dd>{{.OrderID}}</dd>
<dt>Amount</dt><dd>{{.Amount}}</dd>
<dt>Attempt</dt><dd>{{.Attempt}}</dd>
<dt>Session</dt><dd><code>{{.Session}}</code></dd>
</dl>
<form method="post">
<button type="submit" name="outcome" value="succeed">Succeed</button>
<button type="submit" name="outcome" value="decline">Decline</button>
<button type="submit" name="outcome" value="auth_fail">Require authentication then fail</button>
</form>
<p><a href="{{.OrderPage}}">Back to order {{.OrderID}} without paying</a></p>
{{end}}
</main>
</body>
</html>
`))
