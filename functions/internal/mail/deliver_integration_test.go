package mail_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// These tests send through the real local mail server the test command starts (maildev:
// MAILDEV_URL, SMTP_HOST, SMTP_PORT) from an outbox in DynamoDB Local, and read what
// arrived back from maildev's API. maildev's inbox is shared with every other test and
// the end-to-end edge, so each test's emails have a run id of their own in their address.

func runID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func smtpConfig(t *testing.T) (mail.Config, config.Shop) {
	t.Helper()
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := mail.ConfigFromEnv(os.Getenv, shop)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, shop
}

func newSMTP(t *testing.T, cfg mail.Config) *mail.SMTP {
	t.Helper()
	s, err := mail.NewSMTP(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// enqueue queues n messages of run, answering their ids.
func enqueue(t *testing.T, st *store.Store, run string, n int, now time.Time) []string {
	t.Helper()
	var ids []string
	for i := range n {
		id := outbox.ID(fmt.Sprintf("IT-%s-%02d", run, i), outbox.KindConfirmation)
		m := outbox.Message{ID: id, To: fmt.Sprintf("buyer-%s-%02d@shop.test", run, i), ReplyTo: "trade@shop.test",
			Subject: "Your order " + id, Text: "Plain text of " + id + "\n", HTML: "<!DOCTYPE html><p>HTML of <b>" + id + "</b></p>"}
		if err := st.Enqueue(context.Background(), m, now); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// arrived waits (at most 20 s) until maildev holds at least want emails of run, and
// answers them by outbox id.
func arrived(t *testing.T, inbox, run string, want int) map[string][]testenv.Email {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		by := map[string][]testenv.Email{}
		n := 0
		for _, e := range testenv.Emails(t, inbox) {
			if strings.Contains(e.Recipient(), "-"+run+"-") {
				by[e.Header(mail.OutboxHeader)] = append(by[e.Header(mail.OutboxHeader)], e)
				n++
			}
		}
		if n >= want || time.Now().After(deadline) {
			return by
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// drain runs Deliver until nothing is due (at most 30 s), answering how many it sent.
func drain(t *testing.T, st *store.Store, s mail.Sender, at func() time.Time) int {
	t.Helper()
	ctx := context.Background()
	total := 0
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		sent, _, err := mail.Deliver(ctx, st, s, at())
		if err != nil {
			t.Errorf("deliver: %v", err)
		}
		total += sent
		due, err := st.DueOutbox(ctx, at(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			return total
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Error("messages still due after 30 s")
	return total
}

func TestDeliverThroughMaildevSendsEachEmailOnceWithTwoSenders(t *testing.T) {
	t.Parallel()
	inbox := testenv.MaildevURL(t)
	st := testenv.Store(t)
	cfg, shop := smtpConfig(t)
	sender := newSMTP(t, cfg)
	run := runID()
	ids := enqueue(t, st, run, 12, time.Now())

	var sent atomic.Int64
	var wg sync.WaitGroup
	for range 2 { // two sender loops at once, as two Lambda runs or the edge and a Lambda
		wg.Add(1)
		go func() {
			defer wg.Done()
			sent.Add(int64(drain(t, st, sender, time.Now)))
		}()
	}
	wg.Wait()
	if sent.Load() != int64(len(ids)) {
		t.Errorf("the two senders sent %d, want %d", sent.Load(), len(ids))
	}

	from, err := netmail.ParseAddress(cfg.From)
	if err != nil {
		t.Fatal(err)
	}
	domain := from.Address[strings.LastIndexByte(from.Address, '@')+1:]
	by := arrived(t, inbox, run, len(ids))
	for i, id := range ids {
		got := by[id]
		if len(got) != 1 {
			t.Errorf("%s arrived %d times, want once", id, len(got))
			continue
		}
		e := got[0]
		if want := fmt.Sprintf("buyer-%s-%02d@shop.test", run, i); e.Recipient() != want {
			t.Errorf("%s went to %q, want %q", id, e.Recipient(), want)
		}
		if len(e.From) != 1 || e.From[0].Address != shop.Contact.Email || e.From[0].Name != shop.Business.TradingName {
			t.Errorf("%s is from %+v", id, e.From)
		}
		if want := "<" + mail.MessageID(id, domain) + ">"; e.Header("message-id") != want {
			t.Errorf("%s Message-ID %q, want %q", id, e.Header("message-id"), want)
		}
		if src := testenv.Source(t, inbox, e.ID); !strings.Contains(src, "\nReply-To: <trade@shop.test>") {
			t.Errorf("%s has no Reply-To: <trade@shop.test>:\n%s", id, src[:min(len(src), 600)])
		}
		if e.Subject != "Your order "+id || !strings.Contains(e.Text, "Plain text of "+id) || !strings.Contains(e.HTML, "<b>"+id+"</b>") {
			t.Errorf("%s arrived as %q, text %q, HTML %q", id, e.Subject, e.Text, e.HTML)
		}
		if s, err := st.OutboxStatus(context.Background(), id); err != nil || s.State != outbox.StateSent || s.Attempts != 1 {
			t.Errorf("%s after delivery: %+v %v", id, s, err)
		}
	}
	// A retried event cannot queue a sent email again.
	err = st.Enqueue(context.Background(), outbox.Message{ID: ids[0], To: "x@shop.test"}, time.Now())
	if !errors.Is(err, store.ErrQueued) {
		t.Errorf("re-queueing a sent email: %v, want ErrQueued", err)
	}
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	return port
}

func TestDeliverWithTheMailServerDownDelaysEmailsThenSendsEachOnce(t *testing.T) {
	t.Parallel()
	inbox := testenv.MaildevURL(t)
	st := testenv.Store(t)
	cfg, _ := smtpConfig(t)
	down := cfg
	down.Port = closedPort(t)
	ctx := context.Background()
	run := runID()
	start := time.Now()
	ids := enqueue(t, st, run, 3, start)

	sent, failed, err := mail.Deliver(ctx, st, newSMTP(t, down), start)
	if sent != 0 || failed != 1 || err == nil || !mail.Unreachable(errors.Unwrap(err)) && !strings.Contains(err.Error(), "connect to") {
		t.Fatalf("server down: sent %d failed %d err %v; want one failure, then the run ends", sent, failed, err)
	}
	tried := 0
	for _, id := range ids {
		s, err := st.OutboxStatus(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		switch s.Attempts {
		case 0:
			if s.State != outbox.StatePending {
				t.Errorf("%s untried but %s", id, s.State)
			}
		case 1:
			tried++
			if s.State != outbox.StatePending || s.NextAt.Before(start.Add(mail.Backoff(1))) || !strings.Contains(s.LastError, "connect to") {
				t.Errorf("%s after a failed attempt: %+v", id, s)
			}
		default:
			t.Errorf("%s tried %d times in one run", id, s.Attempts)
		}
	}
	if tried != 1 {
		t.Errorf("%d messages tried, want 1 (the run stops at an unreachable server)", tried)
	}
	// Still down for a while: every run fails softly and the messages wait.
	for i := 1; i <= 8; i++ {
		if sent, _, _ := mail.Deliver(ctx, st, newSMTP(t, down), start.Add(time.Duration(i)*10*time.Second)); sent != 0 {
			t.Fatalf("sent %d with the server down", sent)
		}
	}
	if due, _ := st.DueOutbox(ctx, start.Add(time.Hour), 10); len(due) != len(ids) {
		t.Errorf("%d of %d messages still queued with the server down", len(due), len(ids))
	}
	// The server is back: each email arrives once.
	later := func() time.Time { return time.Now().Add(time.Hour) } // past every back-off
	if n := drain(t, st, newSMTP(t, cfg), later); n != len(ids) {
		t.Errorf("sent %d once the server was back, want %d", n, len(ids))
	}
	by := arrived(t, inbox, run, len(ids))
	for _, id := range ids {
		if len(by[id]) != 1 {
			t.Errorf("%s arrived %d times, want once", id, len(by[id]))
		}
	}
}
