package store

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// pausedFor answers a store that holds its first n requests unanswered (as a paused
// process does) and answers the rest with an empty item; it counts the requests.
func pausedFor(t *testing.T, n int32) (endpoint string, requests *atomic.Int32) {
	t.Helper()
	requests = new(atomic.Int32)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) <= n {
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = w.Write([]byte(`{}`))
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	return srv.URL, requests
}

func patientClient(t *testing.T, endpoint string, timeout time.Duration, p Patience) *dynamodb.Client {
	t.Helper()
	db, err := NewClient(context.Background(), Config{TableName: "t", Endpoint: endpoint, Region: "eu-west-2", Timeout: timeout, Patience: p})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// A batch tool's read that misses its deadline is sent again, with back-off, and the tool
// is told each time; the call succeeds once the store answers.
func TestPatienceSendsARepeatableCallAgain(t *testing.T) {
	t.Parallel()
	endpoint, requests := pausedFor(t, 2)
	var mu sync.Mutex
	var told []Retry
	db := patientClient(t, endpoint, 200*time.Millisecond, Patience{Budget: 10 * time.Second, Notify: func(r Retry) {
		mu.Lock()
		told = append(told, r)
		mu.Unlock()
	}})
	if err := probe(context.Background(), db); err != nil {
		t.Fatalf("probe: %v", err)
	}
	if got := requests.Load(); got != 3 {
		t.Errorf("the store saw %d requests, want 3 (two unanswered, one answered)", got)
	}
	if len(told) != 2 {
		t.Fatalf("notified %d times, want 2: %v", len(told), told)
	}
	if told[0].Op != "GetItem" || told[0].Try != 1 || told[0].Wait != firstWait || told[1].Wait != 2*firstWait {
		t.Errorf("retries = %+v", told)
	}
	if s := told[0].String(); !strings.Contains(s, "did not answer GetItem within 200ms (try 1); trying again in 250ms") {
		t.Errorf("progress line %q", s)
	}
}

// The budget bounds the whole: a store that never answers fails the call as
// ErrUnavailable about the budget after its first try.
func TestPatienceEndsAtItsBudget(t *testing.T) {
	t.Parallel()
	endpoint, _ := pausedFor(t, 1000)
	db := patientClient(t, endpoint, 200*time.Millisecond, Patience{Budget: 1500 * time.Millisecond})
	start := time.Now()
	err := probe(context.Background(), db)
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if took := time.Since(start); took < time.Second || took > 3*time.Second {
		t.Errorf("the call took %v, want about its 1.5s budget", took)
	}
}

// A call whose outcome a second try could change (UpdateItem, a conditional put) is sent
// once, patience or not; so is every call of a client without patience.
func TestPatienceLeavesUnrepeatableCallsAlone(t *testing.T) {
	t.Parallel()
	k := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "P"}, "sk": &types.AttributeValueMemberS{Value: "S"}}
	for name, call := range map[string]func(*dynamodb.Client) error{
		"update": func(db *dynamodb.Client) error {
			_, err := db.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String("t"), Key: k,
				UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}})
			return err
		},
		"conditional put": func(db *dynamodb.Client) error {
			_, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("t"), Item: k,
				ConditionExpression: aws.String("attribute_not_exists(pk)")})
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			endpoint, requests := pausedFor(t, 1)
			err := call(patientClient(t, endpoint, 200*time.Millisecond, Patience{Budget: 5 * time.Second}))
			if !errors.Is(err, ErrUnavailable) || requests.Load() != 1 {
				t.Errorf("err = %v after %d requests, want ErrUnavailable after 1", err, requests.Load())
			}
		})
	}
	t.Run("no patience", func(t *testing.T) {
		t.Parallel()
		endpoint, requests := pausedFor(t, 1)
		err := probe(context.Background(), patientClient(t, endpoint, 200*time.Millisecond, Patience{}))
		if !errors.Is(err, ErrUnavailable) || requests.Load() != 1 {
			t.Errorf("err = %v after %d requests, want ErrUnavailable after 1", err, requests.Load())
		}
	})
}

func TestBatchBudgetFromEnv(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env     string
		want    time.Duration
		problem bool
	}{
		{"", DefaultBatchBudget, false},
		{"1000", time.Second, false},
		{"600000", 10 * time.Minute, false},
		{"999", 0, true},
		{"3600001", 0, true},
		{"2m", 0, true},
	} {
		getenv := func(k string) string {
			if k == "STORE_BATCH_BUDGET_MS" {
				return tc.env
			}
			return ""
		}
		c := BatchConfigFromEnv(getenv, nil)
		_, err := NewClient(context.Background(), c)
		switch {
		case tc.problem && (err == nil || !strings.Contains(err.Error(), "STORE_BATCH_BUDGET_MS must be a whole number of milliseconds from 1000 to 3600000")):
			t.Errorf("STORE_BATCH_BUDGET_MS=%q: err = %v, want the sentence naming the variable", tc.env, err)
		case !tc.problem && (err != nil || c.Patience.Budget != tc.want):
			t.Errorf("STORE_BATCH_BUDGET_MS=%q: budget %v, err %v; want %v", tc.env, c.Patience.Budget, err, tc.want)
		}
	}
}
