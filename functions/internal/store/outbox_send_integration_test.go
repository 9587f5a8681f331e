package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

func message(id string) outbox.Message {
	return outbox.Message{ID: id, To: "buyer@shop.test", ReplyTo: "trade@shop.test", Subject: "Order " + id, Text: "text", HTML: "<p>html</p>"}
}

func status(t *testing.T, st *store.Store, id string) outbox.Status {
	t.Helper()
	s, err := st.OutboxStatus(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// One claim wins however many senders try at once; a claim whose lease ended is taken
// over; marking sent moves the record out of the outbox, and the id cannot be queued again.
func TestOutboxClaimLeaseAndSent(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	now := time.Now().Truncate(time.Millisecond)
	id := "TS-100001/confirmation"
	if err := st.Enqueue(ctx, message(id), now); err != nil {
		t.Fatal(err)
	}
	if err := st.Enqueue(ctx, message(id), now); !errors.Is(err, store.ErrQueued) {
		t.Fatalf("a second enqueue: %v, want ErrQueued", err)
	}
	if due, err := st.DueOutbox(ctx, now, 10); err != nil || len(due) != 1 || due[0] != id {
		t.Fatalf("due %v %v", due, err)
	}

	const lease = time.Minute
	var mu sync.Mutex
	var claims []outbox.Claim
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, ok, err := st.ClaimOutbox(ctx, id, now, lease)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				claims = append(claims, c)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(claims) != 1 {
		t.Fatalf("%d of 8 concurrent claims won, want 1", len(claims))
	}
	first := claims[0]
	if first.To != "buyer@shop.test" || first.ReplyTo != "trade@shop.test" || first.HTML != "<p>html</p>" || first.Attempts != 1 || first.Token == "" {
		t.Errorf("the claim %+v", first)
	}
	if s := status(t, st, id); s.State != outbox.StateSending || s.Attempts != 1 {
		t.Errorf("claimed: %+v", s)
	}
	if due, _ := st.DueOutbox(ctx, now.Add(lease-time.Millisecond), 10); len(due) != 0 {
		t.Errorf("due under its lease: %v", due)
	}
	if _, ok, _ := st.ClaimOutbox(ctx, id, now.Add(lease-time.Millisecond), lease); ok {
		t.Error("claimed again under the first claim's lease")
	}
	// The first sender died: after the lease another takes it over.
	second, ok, err := st.ClaimOutbox(ctx, id, now.Add(lease), lease)
	if err != nil || !ok || second.Attempts != 2 || second.Token == first.Token {
		t.Fatalf("take-over after the lease: %+v %v %v", second, ok, err)
	}
	// The first claim's release is no longer its to make.
	if err := st.ReleaseOutbox(ctx, first, now, false, "late"); err != nil {
		t.Fatal(err)
	}
	if s := status(t, st, id); s.State != outbox.StateSending || s.LastError != "" {
		t.Errorf("a stale claim released the message: %+v", s)
	}
	sentAt := now.Add(lease + time.Second)
	if err := st.MarkOutboxSent(ctx, second, sentAt); err != nil {
		t.Fatal(err)
	}
	// The first sender, back, marks it too: no error, nothing changes.
	if err := st.MarkOutboxSent(ctx, first, sentAt.Add(time.Second)); err != nil {
		t.Errorf("marking a sent message sent again: %v", err)
	}
	if s := status(t, st, id); s.State != outbox.StateSent || !s.SentAt.Equal(sentAt) || s.Attempts != 2 {
		t.Errorf("sent: %+v", s)
	}
	if due, _ := st.DueOutbox(ctx, now.Add(24*time.Hour), 10); len(due) != 0 {
		t.Errorf("a sent message is due: %v", due)
	}
	if err := st.Enqueue(ctx, message(id), now.Add(time.Hour)); !errors.Is(err, store.ErrQueued) {
		t.Errorf("queueing a sent message again: %v, want ErrQueued", err)
	}
}

// A released message is due again at its next time; a parked one never.
func TestOutboxReleaseAndPark(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	now := time.Now().Truncate(time.Millisecond)
	for i := range 3 {
		if err := st.Enqueue(ctx, message(fmt.Sprintf("TS-10000%d/dispatch", i)), now); err != nil {
			t.Fatal(err)
		}
	}
	if due, _ := st.DueOutbox(ctx, now, 2); len(due) != 2 {
		t.Errorf("limit 2 answered %v", due)
	}
	c, ok, err := st.ClaimOutbox(ctx, "TS-100000/dispatch", now, time.Minute)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	next := now.Add(10 * time.Second)
	if err := st.ReleaseOutbox(ctx, c, next, false, "dial tcp 127.0.0.1:1: connection refused"); err != nil {
		t.Fatal(err)
	}
	if s := status(t, st, c.ID); s.State != outbox.StatePending || !s.NextAt.Equal(next) || s.Attempts != 1 || s.LastError == "" {
		t.Errorf("released: %+v", s)
	}
	if due, _ := st.DueOutbox(ctx, next.Add(-time.Millisecond), 10); len(due) != 2 {
		t.Errorf("before its back-off ends, due %v", due)
	}
	if due, _ := st.DueOutbox(ctx, next, 10); len(due) != 3 {
		t.Errorf("when its back-off ends, due %v", due)
	}
	c, ok, err = st.ClaimOutbox(ctx, "TS-100001/dispatch", now, time.Minute)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if err := st.ReleaseOutbox(ctx, c, next, true, "554 rejected"); err != nil {
		t.Fatal(err)
	}
	if s := status(t, st, c.ID); s.State != outbox.StateFailed {
		t.Errorf("parked: %+v", s)
	}
	if due, _ := st.DueOutbox(ctx, now.Add(365*24*time.Hour), 10); len(due) != 2 {
		t.Errorf("a year on, due %v: the parked one must not be", due)
	}
	if _, err := st.OutboxStatus(ctx, "TS-999999/confirmation"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("status of a message never queued: %v", err)
	}
}
