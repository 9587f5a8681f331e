package mail

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/outbox"
)

// memBox is an Outbox in memory, with the store's rules: a claim of a message not due
// fails, a release is ignored unless the claim is still the message's.
type memBox struct {
	mu       sync.Mutex
	msgs     map[string]*memMsg
	sent     []string
	claimErr error // every claim fails with it (the store is down)
	claims   int
}

type memMsg struct {
	m        outbox.Message
	state    string
	attempts int
	next     time.Time
	lease    time.Time
	token    string
	reason   string
}

func newBox(now time.Time, ids ...string) *memBox {
	b := &memBox{msgs: map[string]*memMsg{}}
	for _, id := range ids {
		b.msgs[id] = &memMsg{m: outbox.Message{ID: id, To: "x@shop.test"}, state: outbox.StatePending, next: now}
	}
	return b
}

func (b *memBox) DueOutbox(_ context.Context, now time.Time, limit int) ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var ids []string
	for id, m := range b.msgs {
		if (m.state == outbox.StatePending && !m.next.After(now)) || (m.state == outbox.StateSending && !m.lease.After(now)) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids[:min(limit, len(ids))], nil
}

func (b *memBox) ClaimOutbox(_ context.Context, id string, now time.Time, lease time.Duration) (outbox.Claim, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.claims++
	if b.claimErr != nil {
		return outbox.Claim{}, false, b.claimErr
	}
	m := b.msgs[id]
	if m == nil || !((m.state == outbox.StatePending && !m.next.After(now)) || (m.state == outbox.StateSending && !m.lease.After(now))) {
		return outbox.Claim{}, false, nil
	}
	m.state, m.lease, m.token = outbox.StateSending, now.Add(lease), id+time.Now().String()
	m.attempts++
	return outbox.Claim{Message: m.m, Attempts: m.attempts, Token: m.token}, true, nil
}

func (b *memBox) MarkOutboxSent(_ context.Context, c outbox.Claim, _ time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.msgs, c.ID)
	b.sent = append(b.sent, c.ID)
	return nil
}

func (b *memBox) ReleaseOutbox(_ context.Context, c outbox.Claim, next time.Time, park bool, reason string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := b.msgs[c.ID]
	if m == nil || m.token != c.Token {
		return nil
	}
	m.state, m.next, m.reason = outbox.StatePending, next, reason
	if park {
		m.state = outbox.StateFailed
	}
	return nil
}

// fakeSender records what it sends, failing with err while err is set.
type fakeSender struct {
	mu   sync.Mutex
	err  error
	sent []string
}

func (s *fakeSender) Send(_ context.Context, m outbox.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.sent = append(s.sent, m.ID)
	return nil
}

var t0 = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

func TestDeliverSendsEveryDueMessageOnceAndMarksItSent(t *testing.T) {
	t.Parallel()
	box, s := newBox(t0, "TS-1/confirmation", "TS-1/new-order", "TS-2/confirmation"), &fakeSender{}
	sent, failed, err := Deliver(context.Background(), box, s, t0)
	if err != nil || sent != 3 || failed != 0 {
		t.Fatalf("sent %d failed %d err %v", sent, failed, err)
	}
	if sent, _, _ := Deliver(context.Background(), box, s, t0.Add(time.Hour)); sent != 0 || len(s.sent) != 3 {
		t.Errorf("a second run sent %d more (%v)", sent, s.sent)
	}
}

func TestDeliverStopsAtAnUnreachableServerAndBacksOff(t *testing.T) {
	t.Parallel()
	box := newBox(t0, "a", "b", "c")
	s := &fakeSender{err: &unreachable{errors.New("connection refused")}}
	sent, failed, err := Deliver(context.Background(), box, s, t0)
	if sent != 0 || failed != 1 || err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("sent %d failed %d err %v: want one failure, then the run ends", sent, failed, err)
	}
	a := box.msgs["a"]
	if a.state != outbox.StatePending || a.attempts != 1 || a.next.Before(t0.Add(Backoff(1))) || !strings.Contains(a.reason, "connection refused") {
		t.Errorf("a after the failure: %+v", *a)
	}
	if box.msgs["b"].attempts != 0 || box.msgs["c"].attempts != 0 {
		t.Error("the run went on to other messages after the server proved unreachable")
	}
	// Later runs meet the server down too, then it is back: each message arrives once.
	now := t0
	for range 3 {
		now = now.Add(2 * time.Second)
		_, _, _ = Deliver(context.Background(), box, s, now)
	}
	s.mu.Lock()
	s.err = nil
	s.mu.Unlock()
	for range 10 {
		now = now.Add(time.Minute)
		_, _, _ = Deliver(context.Background(), box, s, now)
	}
	slices.Sort(s.sent)
	if !slices.Equal(s.sent, []string{"a", "b", "c"}) {
		t.Errorf("sent %v, want a, b and c once each", s.sent)
	}
}

func TestDeliverParksAMessageRefusedForGood(t *testing.T) {
	t.Parallel()
	box := newBox(t0, "bad")
	s := &fakeSender{err: &permanent{errors.New("554 Message rejected: Email address is not verified")}}
	now := t0
	for i := 1; i <= ParkAfter; i++ {
		if _, failed, _ := Deliver(context.Background(), box, s, now); failed != 1 {
			t.Fatalf("attempt %d: %d failed", i, failed)
		}
		m := box.msgs["bad"]
		want := outbox.StatePending
		if i == ParkAfter {
			want = outbox.StateFailed
		}
		if m.state != want {
			t.Fatalf("after attempt %d the message is %s, want %s", i, m.state, want)
		}
		now = now.Add(time.Hour)
	}
	if _, failed, _ := Deliver(context.Background(), box, s, now.Add(24*time.Hour)); failed != 0 {
		t.Error("a parked message was tried again")
	}
}

func TestConcurrentDeliversSendEachMessageOnce(t *testing.T) {
	t.Parallel()
	var ids []string
	for i := range 40 {
		ids = append(ids, "m"+string(rune('A'+i%26))+string(rune('a'+i/26)))
	}
	box, s := newBox(t0, ids...), &fakeSender{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, _ = Deliver(context.Background(), box, s, t0)
		}()
	}
	wg.Wait()
	slices.Sort(s.sent)
	if !slices.Equal(s.sent, slices.Sorted(slices.Values(ids))) {
		t.Errorf("sent %d messages (%v), want each of %d once", len(s.sent), s.sent, len(ids))
	}
}

func TestDeliverSendsAtMostPerRun(t *testing.T) {
	t.Parallel()
	var ids []string
	for i := range PerRun + 7 {
		ids = append(ids, time.Duration(i).String())
	}
	box, s := newBox(t0, ids...), &fakeSender{}
	if sent, _, _ := Deliver(context.Background(), box, s, t0); sent != PerRun {
		t.Errorf("sent %d, want %d", sent, PerRun)
	}
	if sent, _, _ := Deliver(context.Background(), box, s, t0); sent != 7 {
		t.Errorf("the next run sent %d, want the 7 left", sent)
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	for attempts, want := range map[int]time.Duration{0: 5 * time.Second, 1: 5 * time.Second, 2: 10 * time.Second, 3: 20 * time.Second,
		8: 640 * time.Second, 9: 15 * time.Minute, 50: 15 * time.Minute} {
		if got := Backoff(attempts); got != want {
			t.Errorf("Backoff(%d) = %v, want %v", attempts, got, want)
		}
	}
}

func TestDeliverStopsWhenTheStoreFailsAClaim(t *testing.T) {
	t.Parallel()
	box, s := newBox(t0, "a", "b", "c"), &fakeSender{}
	box.claimErr = errors.New("the store did not answer in time")
	sent, failed, err := Deliver(context.Background(), box, s, t0)
	if sent != 0 || failed != 0 || err == nil || box.claims != 1 {
		t.Errorf("sent %d failed %d err %v after %d claims: want one failed claim, then the run ends", sent, failed, err, box.claims)
	}
}
