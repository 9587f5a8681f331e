package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/testenv"
)

// Backlogs counts the outbox's waiting and failed emails apart, with the oldest waiting
// one's time; a read stops at its bound and says there are more.
func TestBacklogs(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	now := time.Now().Truncate(time.Millisecond)
	empty, err := st.Backlogs(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if empty.OutboxWaiting.Count != 0 || !empty.OutboxWaiting.Oldest.IsZero() || empty.OutboxWaiting.OldestAge(now) != 0 || empty.OrdersPending.Count != 0 {
		t.Fatalf("empty: %+v", empty)
	}
	for i := range 5 {
		if err := st.Enqueue(ctx, message(fmt.Sprintf("TS-1000%d/confirmation", i)), now.Add(-time.Duration(10-i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	// The oldest fails for good: parked, no longer waiting.
	c, ok, err := st.ClaimOutbox(ctx, "TS-10000/confirmation", now, time.Minute)
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if err := st.ReleaseOutbox(ctx, c, now, true, "refused by the server"); err != nil {
		t.Fatal(err)
	}
	b, err := st.Backlogs(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if b.OutboxWaiting.Count != 4 || b.OutboxFailed.Count != 1 || b.OutboxWaiting.More || !b.OutboxWaiting.Oldest.Equal(now.Add(-9*time.Minute)) ||
		b.OutboxWaiting.OldestAge(now) != 9*time.Minute {
		t.Errorf("outbox: waiting %+v, failed %+v", b.OutboxWaiting, b.OutboxFailed)
	}
	for _, tc := range []struct {
		limit int
		n     int
		more  bool
	}{{3, 3, true}, {4, 4, true}, {5, 5, false}, {50, 5, false}} {
		n, more, err := st.ReadAtMostForTest(ctx, "OUTBOX", tc.limit)
		if err != nil || n != tc.n || more != tc.more {
			t.Errorf("at most %d: %d, more %v, %v; want %d, more %v", tc.limit, n, more, err, tc.n, tc.more)
		}
	}
}
