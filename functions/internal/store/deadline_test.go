package store

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// These unit tests need no store: each points the client at a loopback listener that
// misbehaves as a paused, dead or refusing store does.

// client answers a client of the store at endpoint with the given per-call deadline.
func client(t *testing.T, endpoint string, timeout time.Duration) *dynamodb.Client {
	t.Helper()
	db, err := NewClient(context.Background(), Config{TableName: "t", Endpoint: endpoint, Region: "eu-west-2", Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func probe(ctx context.Context, db *dynamodb.Client) error {
	_, err := db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String("t"),
		Key:       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "P"}, "sk": &types.AttributeValueMemberS{Value: "S"}},
	})
	return err
}

// listen answers a loopback listener whose connections handle gets; it counts them.
func listen(t *testing.T, handle func(net.Conn)) (endpoint string, accepted *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = new(atomic.Int32)
	var held []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			held = append(held, c)
			go handle(c)
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		<-done
		for _, c := range held {
			_ = c.Close()
		}
	})
	return "http://" + ln.Addr().String(), accepted
}

// A store that accepts the connection and never answers (a paused process: SIGSTOP)
// makes the call fail at its deadline, not minutes later, as ErrUnavailable.
func TestDeadlineEndsACallTheStoreNeverAnswers(t *testing.T) {
	endpoint, accepted := listen(t, func(net.Conn) {}) // read nothing, answer nothing
	const timeout = 400 * time.Millisecond
	db := client(t, endpoint, timeout)
	start := time.Now()
	err := probe(context.Background(), db)
	took := time.Since(start)
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if took < timeout-20*time.Millisecond || took > timeout+500*time.Millisecond {
		t.Errorf("the call took %v, want about its deadline %v", took, timeout)
	}
	if accepted.Load() < 1 {
		t.Errorf("the call never reached the listener")
	}
	if !strings.Contains(err.Error(), "did not answer within 400ms") {
		t.Errorf("err = %q, want it to say the deadline", err)
	}
}

// A store that drops every connection (killed mid-answer) is retried, a bounded number
// of times with short back-off, and the call then fails as ErrUnavailable well inside
// its deadline.
func TestRetriesAreBoundedInsideTheDeadline(t *testing.T) {
	endpoint, accepted := listen(t, func(c net.Conn) {
		buf := make([]byte, 4096)
		_, _ = c.Read(buf) // take the request, then hang up without an answer
		_ = c.Close()
	})
	db := client(t, endpoint, 5*time.Second)
	start := time.Now()
	err := probe(context.Background(), db)
	took := time.Since(start)
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if n := accepted.Load(); n != maxAttempts {
		t.Errorf("the store saw %d attempts, want %d (maxAttempts)", n, maxAttempts)
	}
	if limit := time.Duration(maxAttempts-1)*maxBackoff + time.Second; took > limit {
		t.Errorf("the call took %v, want under %v (bounded back-off)", took, limit)
	}
}

// Nothing listening (the store is down) is ErrUnavailable too, and quick.
func TestRefusedConnectionIsUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + ln.Addr().String()
	_ = ln.Close()
	start := time.Now()
	err = probe(context.Background(), client(t, endpoint, 3*time.Second))
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("a refused call took %v", took)
	}
}

// An answer, even an error answer, is not "unavailable": the store spoke.
func TestAnErrorAnswerIsNotUnavailable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"no table"}`))
	}))
	defer srv.Close()
	err := probe(context.Background(), client(t, srv.URL, time.Second))
	var missing *types.ResourceNotFoundException
	if !errors.As(err, &missing) {
		t.Fatalf("err = %v, want ResourceNotFoundException", err)
	}
	if errors.Is(err, ErrUnavailable) {
		t.Errorf("an answered error is ErrUnavailable: %v", err)
	}
}

// A caller that gives up first (the buyer's request ended) keeps its own error: that is
// not the store's fault.
func TestCallerCancellationIsNotUnavailable(t *testing.T) {
	endpoint, _ := listen(t, func(net.Conn) {})
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	err := probe(ctx, client(t, endpoint, 2*time.Second))
	if err == nil || errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want the caller's deadline, not ErrUnavailable", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
}

func TestStoreTimeoutFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env     string
		want    time.Duration
		problem bool
	}{
		{"", DefaultTimeout, false},
		{"1500", 1500 * time.Millisecond, false},
		{"100", 100 * time.Millisecond, false},
		{"60000", time.Minute, false},
		{"99", 0, true},
		{"60001", 0, true},
		{"0", 0, true},
		{"-5", 0, true},
		{"3s", 0, true},
		{"1.5", 0, true},
	} {
		c := ConfigFromEnv(func(k string) string {
			if k == "STORE_TIMEOUT_MS" {
				return tc.env
			}
			return ""
		})
		_, err := NewClient(context.Background(), c)
		switch {
		case tc.problem && err == nil:
			t.Errorf("STORE_TIMEOUT_MS=%q was accepted", tc.env)
		case tc.problem && !strings.Contains(err.Error(), "STORE_TIMEOUT_MS must be a whole number of milliseconds from 100 to 60000"):
			t.Errorf("STORE_TIMEOUT_MS=%q: err = %q, want the sentence naming the variable", tc.env, err)
		case !tc.problem && err != nil:
			t.Errorf("STORE_TIMEOUT_MS=%q: %v", tc.env, err)
		case !tc.problem && c.Timeout != tc.want:
			t.Errorf("STORE_TIMEOUT_MS=%q: timeout %v, want %v", tc.env, c.Timeout, tc.want)
		}
	}
}

// Creating the table (seed, tests) may take longer than a buyer's call: it gets
// adminTimeout, not the store timeout.
func TestTableCreationHasTheLongerDeadline(t *testing.T) {
	endpoint, _ := listen(t, func(net.Conn) {})
	db := client(t, endpoint, 200*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	_, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("t")})
	if errors.Is(err, ErrUnavailable) || time.Since(start) < 900*time.Millisecond {
		t.Fatalf("DeleteTable ended after %v with %v; want it to outlive the 200ms store timeout (the caller's 1s ends it)", time.Since(start), err)
	}
}
