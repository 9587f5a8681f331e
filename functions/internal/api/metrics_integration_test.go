package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/metrics/emfcheck"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// syncBuffer is a log a handler under test writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// requestLine is the request line of the last request to path that answered status, as
// parsed JSON, checked against the EMF specification.
func requestLine(t *testing.T, log string, path string, status int) map[string]any {
	t.Helper()
	var found []byte
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == "request" && m["path"] == path && m["status"] == float64(status) {
			found = []byte(l)
		}
	}
	if found == nil {
		t.Fatalf("no request line for %s %d in:\n%s", path, status, log)
	}
	return emfcheck.Line(t, found)
}

// The request line of an order placed, refused and timed out is EMF with the metric
// names, units and dimensions of docs/operations.md, and the log of it all holds no
// token, cookie or password.
func TestOrderMetricsAreEMF(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	cat := putSeedCatalogue(t, st, 300)
	var logged syncBuffer
	deps := testDeps(t, st, testenv.Verifier(t))
	deps.Log = metrics.NewLogger(&logged, metrics.Config{Namespace: metrics.NamespaceOf("production"), Build: "test-build"})
	h := WithRequestLog(deps.Log, NewHandler(deps))
	c := newClient(t, h)
	u := testenv.NewUser(t)
	var big = cat.Products[0]
	for _, p := range cat.Products {
		if p.Stock >= 50*p.PackSize && p.UnitPrice*int64(p.PackSize)*10 >= 15000 {
			big = p
			break
		}
	}
	if err := st.SaveBilling(ctx, u.UID, store.Billing{Company: "Shop Ltd", Contact: "Pat", PaymentMethod: "proforma",
		Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	place := func(key string) (int, map[string]any) {
		return c.post("/api/orders", fmt.Sprintf(`{"token":%q,"idempotency_key":%q,"delivery_option":"standard","same_as_billing":true}`, u.IDToken, key), nil)
	}
	requestMetrics := map[string]string{
		"Requests":  `Count [["endpoint"],["group"]]`,
		"Status4xx": `Count [["endpoint"],["group"]]`,
		"Status5xx": `Count [["endpoint"],["group"]]`,
		"Latency":   `Milliseconds [["endpoint"],["group"]]`,
	}
	with := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for _, m := range []map[string]string{requestMetrics, extra} {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	check := func(t *testing.T, line map[string]any, want map[string]string, values map[string]any) {
		t.Helper()
		if got := emfcheck.Metrics(line); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("metrics\n got %v\nwant %v", got, want)
		}
		for k, v := range values {
			if line[k] != v {
				t.Errorf("%s = %v, want %v", k, line[k], v)
			}
		}
		if ns := line["_aws"].(map[string]any)["CloudWatchMetrics"].([]any)[0].(map[string]any)["Namespace"]; ns != "TradeShop/production" {
			t.Errorf("namespace %v", ns)
		}
		if id, _ := line["request_id"].(string); len(id) < 8 {
			t.Errorf("request_id %q", id)
		}
	}

	t.Run("placed", func(t *testing.T) {
		if err := st.SetLine(ctx, u.UID, big.SKU, 10*big.PackSize, time.Now()); err != nil {
			t.Fatal(err)
		}
		code, o := place("metrics-placed-0001")
		if code != http.StatusCreated {
			t.Fatalf("%d %v", code, o)
		}
		line := requestLine(t, logged.String(), "/api/orders", 201)
		check(t, line, with(map[string]string{"OrdersPlaced": "Count [[]]", "OrderValue": "None [[]]"}), map[string]any{
			"endpoint": "orders", "group": "orders", "build": "test-build", "Requests": 1.0, "Status4xx": 0.0, "Status5xx": 0.0,
			"OrdersPlaced": 1.0, "OrderValue": o["total_inc_vat"],
		})
	})

	t.Run("refused", func(t *testing.T) {
		small := cat.Products[3]
		if err := st.SetLine(ctx, u.UID, small.SKU, small.PackSize, time.Now()); err != nil {
			t.Fatal(err)
		}
		if code, body := place("metrics-refused-001"); code != http.StatusConflict {
			t.Fatalf("%d %v", code, body)
		}
		line := requestLine(t, logged.String(), "/api/orders", 409)
		check(t, line, with(map[string]string{"OrdersRefused": `Count [["reason"]]`}), map[string]any{
			"reason": "minimum_order", "OrdersRefused": 1.0, "Status4xx": 1.0, "Status5xx": 0.0,
		})
	})

	t.Run("timed out", func(t *testing.T) {
		// A "store" that takes connections and never answers: every call misses its deadline.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				defer conn.Close()
			}
		}()
		mute, err := store.Open(ctx, store.Config{TableName: "mute", Endpoint: "http://" + ln.Addr().String(), Region: "eu-west-2", Timeout: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		var muteLog syncBuffer
		d := testDeps(t, mute, testenv.Verifier(t))
		d.Log = metrics.NewLogger(&muteLog, metrics.Config{Namespace: metrics.NamespaceOf("production"), Build: "test-build"})
		mc := newClient(t, WithRequestLog(d.Log, NewHandler(d)))
		if code, body := mc.post("/api/orders", fmt.Sprintf(`{"token":%q,"idempotency_key":"metrics-timeout-001","delivery_option":"standard","same_as_billing":true}`, u.IDToken), nil); code != http.StatusServiceUnavailable {
			t.Fatalf("%d %v", code, body)
		}
		line := requestLine(t, muteLog.String(), "/api/orders", 503)
		check(t, line, with(map[string]string{"StoreTimeouts": `Count [[],["endpoint"]]`}), map[string]any{
			"StoreTimeouts": 1.0, "Status5xx": 1.0, "Status4xx": 0.0,
		})
		logged.Write([]byte(muteLog.String()))
	})

	t.Run("no secret in the log", func(t *testing.T) {
		all := logged.String()
		for name, secret := range map[string]string{"ID token": u.IDToken, "CSRF token": c.token, "session cookie": c.cook.Value,
			"password": testenv.Password, "email address": u.Email} {
			if secret != "" && strings.Contains(all, secret) {
				t.Errorf("the log holds the %s", name)
			}
		}
	})
}
