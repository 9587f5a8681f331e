package metrics

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/metrics/emfcheck"
)

func lines(b *bytes.Buffer) [][]byte {
	return bytes.Split(bytes.TrimSpace(b.Bytes()), []byte("\n"))
}

func TestRequestLineIsEMF(t *testing.T) {
	var buf bytes.Buffer
	log := NewLogger(&buf, Config{Namespace: NamespaceOf("production"), Build: "b1"})
	s := NewScope("req-12345678")
	s.SetEndpoint("orders", "orders")
	ctx := WithScope(context.Background(), s)
	Add(ctx, OrdersPlaced, 1)
	Add(ctx, OrderValue, 123456)
	Add(ctx, StoreThrottles, 1)
	Add(ctx, StoreThrottles, 1)
	Add(ctx, Requests, 1)
	Add(ctx, Latency, 12.5)
	log.LogAttrs(ctx, slog.LevelInfo, "request", slog.Int("status", 201), Flush(ctx))

	ls := lines(&buf)
	if len(ls) != 1 {
		t.Fatalf("%d lines, want 1: %s", len(ls), buf.String())
	}
	root := emfcheck.Line(t, ls[0])
	for k, want := range map[string]any{"request_id": "req-12345678", "endpoint": "orders", "group": "orders", "build": "b1",
		"OrdersPlaced": 1.0, "OrderValue": 123456.0, "StoreThrottles": 2.0, "Latency": 12.5} {
		if root[k] != want {
			t.Errorf("%s = %v, want %v", k, root[k], want)
		}
	}
	want := map[string]string{
		"OrdersPlaced":   `Count [[]]`,
		"OrderValue":     `None [[]]`,
		"StoreThrottles": `Count [[],["endpoint"]]`,
		"Requests":       `Count [["endpoint"],["group"]]`,
		"Latency":        `Milliseconds [["endpoint"],["group"]]`,
	}
	if got := emfcheck.Metrics(root); !mapsEqual(got, want) {
		t.Errorf("metrics %v, want %v", got, want)
	}
	if ns := root["_aws"].(map[string]any)["CloudWatchMetrics"].([]any)[0].(map[string]any)["Namespace"]; ns != "TradeShop/production" {
		t.Errorf("namespace %v", ns)
	}
	// Taken by Flush: the next line of the request carries none.
	buf.Reset()
	log.InfoContext(ctx, "after", Flush(ctx))
	if strings.Contains(buf.String(), "_aws") {
		t.Errorf("flushed points written again: %s", buf.String())
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestEveryLineCarriesTheContextKeys(t *testing.T) {
	var buf bytes.Buffer
	log := NewLogger(&buf, Config{Namespace: "TradeShop/local", Build: "b2"})
	s := NewScope("req-abcdefgh")
	ctx := WithScope(context.Background(), s)
	s.SetEndpoint("basket", "basket")
	log.WarnContext(ctx, "something", "err", "x")
	log.Info("no request")
	ls := lines(&buf)
	var first, second map[string]any
	_ = json.Unmarshal(ls[0], &first)
	_ = json.Unmarshal(ls[1], &second)
	if first["request_id"] != "req-abcdefgh" || first["endpoint"] != "basket" || first["build"] != "b2" {
		t.Errorf("line in a request: %s", ls[0])
	}
	if second["build"] != "b2" || second["request_id"] != nil {
		t.Errorf("line outside a request: %s", ls[1])
	}
	if strings.Contains(buf.String(), "_aws") {
		t.Errorf("lines without metrics carry _aws: %s", buf.String())
	}
}

func TestKeysTheLineHasAreNotRepeated(t *testing.T) {
	var buf bytes.Buffer
	log := NewLogger(&buf, Config{Namespace: "TradeShop/local", Build: "b"}).With("endpoint", "sendEmails")
	s := NewScope("r-12345678")
	s.SetEndpoint("other", "")
	log.InfoContext(WithScope(context.Background(), s), "x", "request_id", "mine")
	if n := strings.Count(buf.String(), `"endpoint"`); n != 1 {
		t.Errorf("endpoint %d times: %s", n, buf.String())
	}
	if n := strings.Count(buf.String(), `"request_id"`); n != 1 || !strings.Contains(buf.String(), `"mine"`) {
		t.Errorf("request_id: %s", buf.String())
	}
}

func TestClashingDimensionsGoOnALineOfTheirOwn(t *testing.T) {
	var buf bytes.Buffer
	log := NewLogger(&buf, Config{Namespace: "TradeShop/local", Build: "b"})
	s := NewScope("r-12345678")
	s.SetEndpoint("orders", "orders")
	ctx := WithScope(context.Background(), s)
	Add(ctx, OrdersRefused, 1, Reason("short_stock"))
	Add(ctx, OrdersRefused, 1, Reason("coupon_used_up"))
	Add(ctx, OrdersRefused, 1, Reason("short_stock"))
	log.InfoContext(ctx, "request", Flush(ctx))
	ls := lines(&buf)
	if len(ls) != 2 {
		t.Fatalf("%d lines, want 2: %s", len(ls), buf.String())
	}
	a, b := emfcheck.Line(t, ls[0]), emfcheck.Line(t, ls[1])
	if a["reason"] != "short_stock" || a["OrdersRefused"] != 2.0 || b["reason"] != "coupon_used_up" || b["OrdersRefused"] != 1.0 {
		t.Errorf("lines %s", buf.String())
	}
	if b["request_id"] != "r-12345678" || b["endpoint"] != "orders" {
		t.Errorf("the second line lacks the context: %s", ls[1])
	}
}

func TestUnusableMetricsAreLeftOut(t *testing.T) {
	var buf bytes.Buffer
	log := NewLogger(&buf, Config{Namespace: "TradeShop/local", Build: "b"})
	// No endpoint: Requests (by endpoint or group) cannot be filed, nor a NaN; StoreTimeouts still
	// can (no dimension), without its by-endpoint set.
	log.Info("job", Record(P(Requests, 1), P(StoreTimeouts, 1), P(Latency, math.NaN())))
	root := emfcheck.Line(t, lines(&buf)[0])
	if got := emfcheck.Metrics(root); !mapsEqual(got, map[string]string{"StoreTimeouts": "Count [[]]"}) {
		t.Errorf("metrics %v", got)
	}
}

func TestValuesOfOtherUnitsAreListed(t *testing.T) {
	var buf bytes.Buffer
	log := NewLogger(&buf, Config{Namespace: "TradeShop/local", Build: "b"})
	log.Info("x", Record(P(OutboxOldestAge, 3), P(OutboxOldestAge, 4.5)))
	root := emfcheck.Line(t, lines(&buf)[0])
	if fmt.Sprint(root["OutboxOldestAge"]) != "[3 4.5]" {
		t.Errorf("values %v", root["OutboxOldestAge"])
	}
}

func TestEveryMetricIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range All {
		if seen[m.Name] || m.Name == "" || !slices.Contains(emfcheck.Units, string(m.Unit)) || len(m.Dimensions) == 0 {
			t.Errorf("metric %+v", m)
		}
		seen[m.Name] = true
	}
}
