package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/outbox"
)

// Sender sends one email.
type Sender interface {
	Send(ctx context.Context, m outbox.Message) error
}

// Outbox is the store's side of sending (store/outbox_send.go).
type Outbox interface {
	// DueOutbox answers up to limit ids of messages a sender may claim at now.
	DueOutbox(ctx context.Context, now time.Time, limit int) ([]string, error)
	// ClaimOutbox claims message id until now+lease; ok is false when it is no longer
	// due (another sender claimed it first, or it was sent).
	ClaimOutbox(ctx context.Context, id string, now time.Time, lease time.Duration) (c outbox.Claim, ok bool, err error)
	// MarkOutboxSent records c as sent: it leaves the outbox.
	MarkOutboxSent(ctx context.Context, c outbox.Claim, now time.Time) error
	// ReleaseOutbox gives c back after a failed send: due again at next, or parked
	// (failed, not due) when park.
	ReleaseOutbox(ctx context.Context, c outbox.Claim, next time.Time, park bool, reason string) error
}

const (
	// Lease is how long a claim keeps other senders off a message: far longer than one
	// send may take (SendTimeout). A sender that dies holding a claim delays that message
	// by at most this.
	Lease = 2 * time.Minute
	// SendTimeout bounds one message's SMTP conversation.
	SendTimeout = 30 * time.Second
	// PerRun is the most messages one Deliver sends: the rest wait for the next run.
	PerRun = 50
	// ParkAfter is how many times a message the server refuses for good (a 5xx answer,
	// such as an unverified sender or recipient in SES's sandbox) is tried before it is
	// parked: state failed, no longer due. Any other failure is retried without end.
	ParkAfter = 8
)

// Backoff is how long a message waits after its attempts-th failed attempt: 5 s,
// doubling, at most 15 minutes.
func Backoff(attempts int) time.Duration {
	const first, most = 5 * time.Second, 15 * time.Minute
	if attempts < 1 {
		attempts = 1
	}
	if attempts > 10 {
		return most
	}
	return min(first<<(attempts-1), most)
}

// Deliver sends every message of box due at now, up to PerRun, one claim at a time:
// each is claimed (another sender running at the same time never gets the same one),
// sent through sender and marked sent, or released with Backoff when the send failed.
// A mail server that cannot be reached ends the run after its first failure (the other
// messages stay due, untouched), and so does a store that fails a claim; nothing else is
// held up by either. sent and failed count
// the messages; err says what went wrong, the store's errors and the sends' alike.
func Deliver(ctx context.Context, box Outbox, sender Sender, now time.Time) (sent, failed int, err error) {
	start := time.Now()
	clock := func() time.Time { return now.Add(time.Since(start)) }
	ids, err := box.DueOutbox(ctx, now, PerRun)
	if err != nil {
		return 0, 0, err
	}
	var errs []error
	for _, id := range ids {
		if ctx.Err() != nil {
			break
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < SendTimeout+5*time.Second {
			break // too little time left to send and mark one more: the next run will
		}
		c, ok, err := box.ClaimOutbox(ctx, id, clock(), Lease)
		if err != nil {
			// The store is failing: the next claims would wait for it too.
			errs = append(errs, err)
			break
		}
		if !ok {
			continue
		}
		sendCtx, cancel := context.WithTimeout(ctx, SendTimeout)
		serr := sender.Send(sendCtx, c.Message)
		cancel()
		if serr == nil {
			sent++
			if err := box.MarkOutboxSent(ctx, c, clock()); err != nil {
				// Sent but not marked: after the lease it is due again and sent a second
				// time (the one at-least-once window, docs/back-office.md "Emails").
				errs = append(errs, err)
			}
			continue
		}
		failed++
		park := Permanent(serr) && c.Attempts >= ParkAfter
		reason := serr.Error()
		if park {
			reason = fmt.Sprintf("parked after %d attempts: %s", c.Attempts, reason)
		}
		errs = append(errs, fmt.Errorf("email %s (attempt %d): %w", c.ID, c.Attempts, serr))
		// The release must be written even when the run's context is ending, or the
		// message waits for its lease instead of its back-off.
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		if err := box.ReleaseOutbox(rctx, c, clock().Add(Backoff(c.Attempts)), park, reason); err != nil {
			errs = append(errs, err)
		}
		rcancel()
		if Unreachable(serr) {
			break
		}
	}
	return sent, failed, errors.Join(errs...)
}

// DeliveryMetrics is the attribute carrying a delivery run's metrics (EmailsSent,
// EmailsFailed) and whatever else its context's scope recorded (the store's timeouts), for
// the run's log line.
func DeliveryMetrics(ctx context.Context, sent, failed int) slog.Attr {
	metrics.Add(ctx, metrics.EmailsSent, float64(sent))
	metrics.Add(ctx, metrics.EmailsFailed, float64(failed))
	return metrics.Flush(ctx)
}
