package store

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/metrics/emfcheck"
)

// Each attempt the table throttles is counted on the request's line (StoreThrottles), the
// SDK's retries included. DynamoDB Local never throttles, so a server answers as DynamoDB
// does when it throttles: HTTP 400 with the exception's type.
func TestThrottledAttemptsAreCounted(t *testing.T) {
	var attempts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attempts.Add(1)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded."}`))
	}))
	defer srv.Close()
	st, err := Open(context.Background(), Config{TableName: "t", Endpoint: srv.URL, Region: "eu-west-2", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	log := metrics.NewLogger(&logged, metrics.Config{Namespace: "TradeShop/local", Build: "b"})
	scope := metrics.NewScope("req-throttle-1")
	scope.SetEndpoint("basket", "basket")
	ctx := metrics.WithScope(context.Background(), scope)
	if _, err := st.Product(ctx, "GC101-00001"); err == nil || errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want the throttling error", err)
	}
	log.LogAttrs(ctx, slog.LevelInfo, "request", metrics.Flush(ctx))
	line := emfcheck.Line(t, bytes.TrimSpace(logged.Bytes()))
	if n := attempts.Load(); n != maxAttempts || line["StoreThrottles"] != float64(n) {
		t.Errorf("StoreThrottles = %v after %d attempts (want %d)", line["StoreThrottles"], n, maxAttempts)
	}
	if strings.Contains(logged.String(), "StoreTimeouts") {
		t.Errorf("a throttle counted as a timeout: %s", logged.String())
	}
}
