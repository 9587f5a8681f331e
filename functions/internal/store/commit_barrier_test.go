package store

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// localStore answers TransactWriteItems with 200 and GetItem with getStatus; it records
// each request's operation and body.
func localStore(t *testing.T, getStatus int) (endpoint string, calls func() []string, bodies func() []map[string]any) {
	t.Helper()
	var mu sync.Mutex
	var ops []string
	var seen []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		mu.Lock()
		ops, seen = append(ops, op), append(seen, body)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		if op == "GetItem" && getStatus != http.StatusOK {
			w.WriteHeader(getStatus)
			_, _ = w.Write([]byte(`{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"down"}`))
			return
		}
		_, _ = w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL,
		func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), ops...) },
		func() []map[string]any { mu.Lock(); defer mu.Unlock(); return append([]map[string]any(nil), seen...) }
}

func oneTransaction() *dynamodb.TransactWriteItemsInput {
	return &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("t"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "USER#u"}, "sk": &types.AttributeValueMemberS{Value: "ORDER#TS-1"},
			"total": &types.AttributeValueMemberN{Value: "100"},
		}}},
		{Update: &types.Update{TableName: aws.String("t"), Key: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "PRODUCT#x"}, "sk": &types.AttributeValueMemberS{Value: "PRODUCT"},
		}, UpdateExpression: aws.String("SET stock = stock - :n"), ExpressionAttributeValues: map[string]types.AttributeValue{":n": &types.AttributeValueMemberN{Value: "1"}}}},
	}}
}

// On a local endpoint, a transaction that answered is followed by a consistent read of
// its first item's key (DynamoDB Local answers before it commits: commit_barrier.go), and
// an endpoint's own call counters (Config.APIOptions) see the transaction only.
func TestLocalTransactionIsFollowedByAConsistentRead(t *testing.T) {
	t.Parallel()
	endpoint, calls, bodies := localStore(t, http.StatusOK)
	var mu sync.Mutex
	var counted []string
	count := func(s *middleware.Stack) error {
		return s.Initialize.Add(middleware.InitializeMiddlewareFunc("count", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			mu.Lock()
			counted = append(counted, middleware.GetOperationName(ctx))
			mu.Unlock()
			return next.HandleInitialize(ctx, in)
		}), middleware.Before)
	}
	db, err := NewClient(context.Background(), Config{TableName: "t", Endpoint: endpoint, Region: "eu-west-2", Timeout: time.Second, APIOptions: []func(*middleware.Stack) error{count}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.TransactWriteItems(context.Background(), oneTransaction()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(calls(), " "); got != "TransactWriteItems GetItem" {
		t.Fatalf("the store saw %q, want the transaction then the read", got)
	}
	read := bodies()[1]
	if read["ConsistentRead"] != true || read["TableName"] != "t" {
		t.Fatalf("the read was %v, want a consistent read of table t", read)
	}
	key, _ := json.Marshal(read["Key"])
	if string(key) != `{"pk":{"S":"USER#u"},"sk":{"S":"ORDER#TS-1"}}` {
		t.Fatalf("the read's key was %s, want the first item's", key)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(counted, " ") != "TransactWriteItems" {
		t.Fatalf("the endpoint's counters saw %v, want the transaction only", counted)
	}
}

// When the read after a transaction fails, the transaction's outcome is unknown: the call
// is ErrUnavailable (a 503 to a buyer, who may send it again with the same key), never a
// success.
func TestLocalTransactionWhoseCommitIsUnconfirmedIsUnavailable(t *testing.T) {
	t.Parallel()
	endpoint, calls, _ := localStore(t, http.StatusInternalServerError)
	db := patientClient(t, endpoint, time.Second, Patience{})
	_, err := db.TransactWriteItems(context.Background(), oneTransaction())
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if got := calls(); len(got) < 2 || got[0] != "TransactWriteItems" || got[1] != "GetItem" {
		t.Fatalf("the store saw %v", got)
	}
}

// Other calls are not followed by a read.
func TestLocalSingleWriteHasNoBarrier(t *testing.T) {
	t.Parallel()
	endpoint, calls, _ := localStore(t, http.StatusOK)
	db := patientClient(t, endpoint, time.Second, Patience{})
	if _, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("t"), Item: oneTransaction().TransactItems[0].Put.Item}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(calls(), " "); got != "PutItem" {
		t.Fatalf("the store saw %q", got)
	}
}
