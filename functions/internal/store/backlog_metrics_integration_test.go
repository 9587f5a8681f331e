package store_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/metrics/emfcheck"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/testenv"
)

// The email sender's run line carries the outbox's gauges as EMF: how many wait, how
// many failed, and the oldest waiting one's age in seconds.
func TestOutboxGaugesAreEMF(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	now := time.Now()
	for i, age := range []time.Duration{20 * time.Minute, 5 * time.Minute} {
		m := outbox.Message{ID: outbox.ID("TS-90000"+string(rune('1'+i)), outbox.KindConfirmation), To: "b@shop.test", Subject: "s", Text: "t", HTML: "h"}
		if err := st.Enqueue(ctx, m, now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	var logged bytes.Buffer
	log := metrics.NewLogger(&logged, metrics.Config{Namespace: "TradeShop/local", Build: "b"})
	run := metrics.Job(ctx, "sendEmails", "run-12345678")
	if err := st.RecordOutboxBacklog(run, now); err != nil {
		t.Fatal(err)
	}
	log.InfoContext(run, "emails sent", metrics.Flush(run))
	line := emfcheck.Line(t, bytes.TrimSpace(logged.Bytes()))
	if line["OutboxWaiting"] != 2.0 || line["OutboxFailed"] != 0.0 || line["endpoint"] != "sendEmails" || line["group"] != "jobs" {
		t.Errorf("line %s", logged.String())
	}
	if age, _ := line["OutboxOldestAge"].(float64); age < 1199 || age > 1201 {
		t.Errorf("OutboxOldestAge %v, want 1200 s", line["OutboxOldestAge"])
	}
	if got := emfcheck.Metrics(line)["OutboxOldestAge"]; got != "Seconds [[]]" {
		t.Errorf("OutboxOldestAge filed as %s", got)
	}
}
