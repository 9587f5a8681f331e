package cardpay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/tradeshop/functions/internal/store"
)

// MaxEventBytes bounds a webhook request's body: Stripe's events are a few KB.
const MaxEventBytes = 256 << 10

// Webhook answers POST /api/payments/stripe, Stripe's deliveries of events (docs/payments.md
// "Events handled"). It takes no token and no CSRF check: the signature is the
// authentication. A body that is too big, not signed with the endpoint's secret, signed
// more than 300 s ago (webhook.DefaultTolerance) or not an event is 400 and changes
// nothing. A good event is recorded once by its id, applied (Apply: idempotent), then
// marked applied; one recorded and applied before is answered 200 at once, and one
// recorded but not applied (the edge stopped in between) is applied again. Any failure
// after the signature is 500, so that Stripe delivers the event again.
//
// pause (PauseFromEnv: the local stage's fault suite only) is slept between recording an
// event and applying it, the window a crash of the edge leaves an event recorded but not
// applied.
func Webhook(s Service, pause time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log := s.webhookLog()
		if s.Config.WebhookSecret == "" {
			answerEvent(w, http.StatusServiceUnavailable, map[string]string{"error": "Card payment is not set up on this shop."})
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxEventBytes))
		if err != nil {
			answerEvent(w, http.StatusBadRequest, map[string]string{"error": "The event is too big, or its body could not be read."})
			return
		}
		evt, err := webhook.ConstructEvent(body, r.Header.Get("Stripe-Signature"), s.Config.WebhookSecret)
		if err != nil || evt.ID == "" {
			// Stripe's own error is safe to log (it holds no secret) but not to answer.
			log.Warn("stripe webhook refused", "reason", fmt.Sprint(err))
			answerEvent(w, http.StatusBadRequest, map[string]string{"error": "The event's signature is not valid, is too old, or the event cannot be read."})
			return
		}
		ctx := r.Context()
		applied, err := s.Store.RecordStripeEvent(ctx, evt.ID, string(evt.Type), s.Now())
		if err != nil {
			s.failed(w, log, evt.ID, string(evt.Type), err)
			return
		}
		if applied {
			answerEvent(w, http.StatusOK, map[string]any{"received": true, "applied": "before"})
			return
		}
		if pause > 0 {
			pauseFor(ctx, pause)
		}
		if err := s.Apply(ctx, evt); err != nil {
			s.failed(w, log, evt.ID, string(evt.Type), err)
			return
		}
		if err := s.Store.MarkStripeEventApplied(ctx, evt.ID, s.Now()); err != nil {
			s.failed(w, log, evt.ID, string(evt.Type), err)
			return
		}
		answerEvent(w, http.StatusOK, map[string]any{"received": true, "applied": "now"})
	})
}

// failed answers 500 for event id that could not be recorded or applied (503 when the
// store did not answer in time): Stripe sends it again. The error is logged, never
// answered.
func (s Service) failed(w http.ResponseWriter, log *slog.Logger, id, typ string, err error) {
	log.Error("stripe webhook event not applied", "event", id, "type", typ, "err", err)
	if errors.Is(err, store.ErrUnavailable) {
		answerEvent(w, http.StatusServiceUnavailable, map[string]string{"error": store.UnavailableMessage})
		return
	}
	answerEvent(w, http.StatusInternalServerError, map[string]string{"error": "The event could not be applied: send it again."})
}

// PauseFromEnv reads STRIPE_WEBHOOK_PAUSE_MS, the fault suite's pause between recording an
// event and applying it: 0 when unset. It is a test hook, so any other stage than
// STAGE=local refuses it, as it refuses the Auth emulator's unsigned tokens.
func PauseFromEnv(getenv func(string) string) (time.Duration, error) {
	v := getenv("STRIPE_WEBHOOK_PAUSE_MS")
	if v == "" {
		return 0, nil
	}
	if stage := getenv("STAGE"); stage != "local" {
		return 0, fmt.Errorf("STRIPE_WEBHOOK_PAUSE_MS is a local test hook: refused in stage %q", stage)
	}
	ms, err := strconv.Atoi(v)
	if err != nil || ms < 0 || ms > 60_000 {
		return 0, errors.New("STRIPE_WEBHOOK_PAUSE_MS must be a number of milliseconds from 0 to 60000")
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// pauseFor waits d, or until ctx ends.
func pauseFor(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// answerEvent writes v as JSON with status.
func answerEvent(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// webhookLog is s.Log, or the default logger.
func (s Service) webhookLog() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}
