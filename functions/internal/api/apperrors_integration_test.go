package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/metrics/emfcheck"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// testClock is a clock a test moves.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// sendReports posts body to /api/errors from the client at remote (host:port) with the
// user agent a browser sends, changed by mod when it is not nil.
func sendReports(h http.Handler, remote, body string, mod func(*http.Request)) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/api/errors", strings.NewReader(body))
	r.RemoteAddr = remote
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("User-Agent", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36")
	if mod != nil {
		mod(r)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// reportsBody is a body of the given reports (each a JSON object).
func reportsBody(reports ...string) string {
	return `{"build":"20261126T231136Z-bd33f6","agent":"desktop","reports":[` + strings.Join(reports, ",") + `]}`
}

const apiReport = `{"kind":"api","name":"ApiError","message":"The basket answered 500.","path":"/checkout/basket/","status":500,"count":1,"at":1795734763889}`

func recordedOf(t *testing.T, w *httptest.ResponseRecorder) int {
	t.Helper()
	var out struct {
		Recorded *int `json:"recorded"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || out.Recorded == nil {
		t.Fatalf("answer %d %s has no recorded", w.Code, w.Body.String())
	}
	return *out.Recorded
}

func groupsOf(t *testing.T, st *store.Store) []store.AppErrorGroup {
	t.Helper()
	groups, err := st.AppErrorGroups(context.Background(), time.Now(), 100)
	if err != nil {
		t.Fatal(err)
	}
	return groups
}

// TestErrorReportBounds sends a report with each field out of bounds in turn: each is
// refused with 400 and a sentence naming the field, and nothing is recorded.
func TestErrorReportBounds(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	deps := testDeps(t, st, nil)
	deps.ErrorReportLimit = DefaultErrorReportLimit
	h := NewHandler(deps)
	with := func(field, value string) string {
		var m map[string]any
		_ = json.Unmarshal([]byte(apiReport), &m)
		var v any
		_ = json.Unmarshal([]byte(value), &v)
		m[field] = v
		b, _ := json.Marshal(m)
		return reportsBody(string(b))
	}
	tenReports := strings.TrimSuffix(strings.Repeat(apiReport+",", 11), ",")
	for _, tc := range []struct {
		name, body, field string
	}{
		{"no reports", reportsBody(), "reports"},
		{"eleven reports", reportsBody(tenReports), "reports"},
		{"a kind not on the list", with("kind", `"boom"`), "reports[0].kind"},
		{"an empty message", with("message", `""`), "reports[0].message"},
		{"a message of 301 characters", with("message", `"`+strings.Repeat("é", 301)+`"`), "reports[0].message"},
		{"a message with a line break", with("message", `"one\ntwo"`), "reports[0].message"},
		{"a name of 61 characters", with("name", `"`+strings.Repeat("N", 61)+`"`), "reports[0].name"},
		{"a name with a control character", with("name", `"Api\u0007Error"`), "reports[0].name"},
		{"a path without its slash", with("path", `"basket/"`), "reports[0].path"},
		{"a path with a query string", with("path", `"/basket/?token=abc"`), "reports[0].path"},
		{"a path with a fragment", with("path", `"/basket/#top"`), "reports[0].path"},
		{"a path of 201 characters", with("path", `"/`+strings.Repeat("p", 200)+`"`), "reports[0].path"},
		{"a status of 99", with("status", `99`), "reports[0].status"},
		{"a status of 600", with("status", `600`), "reports[0].status"},
		{"a count of 0", with("count", `0`), "reports[0].count"},
		{"a count of 101", with("count", `101`), "reports[0].count"},
		{"a negative time", with("at", `-1`), "reports[0].at"},
		{"a build with a space", `{"build":"a b","agent":"desktop","reports":[` + apiReport + `]}`, "build"},
		{"a build of 65 characters", `{"build":"` + strings.Repeat("b", 65) + `","agent":"desktop","reports":[` + apiReport + `]}`, "build"},
		{"an agent not on the list", `{"build":"","agent":"robot","reports":[` + apiReport + `]}`, "agent"},
		{"a user that is no hash", `{"build":"","agent":"phone","user":"someone@example.com","reports":[` + apiReport + `]}`, "user"},
		{"a user in capitals", `{"build":"","agent":"phone","user":"` + strings.Repeat("AB", 32) + `","reports":[` + apiReport + `]}`, "user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := sendReports(h, "192.0.2.10:5000", tc.body, nil)
			var out errorBody
			_ = json.Unmarshal(w.Body.Bytes(), &out)
			if w.Code != http.StatusBadRequest || out.Problems[tc.field] == "" {
				t.Fatalf("answer %d %s, want 400 with a problem of %s", w.Code, w.Body.String(), tc.field)
			}
			if p := out.Problems[tc.field]; !isSentence(p) {
				t.Errorf("problem %q is not a whole sentence", p)
			}
		})
	}
	for _, tc := range []struct{ name, body string }{
		{"a body over 16 KiB", reportsBody(`{"kind":"api","name":"ApiError","message":"` + strings.Repeat("m", 17<<10) + `","path":"/","count":1}`)},
		{"a field the endpoint does not know", `{"build":"","agent":"desktop","email":"a@example.com","reports":[` + apiReport + `]}`},
		{"not JSON", `reports`},
	} {
		if w := sendReports(h, "192.0.2.10:5000", tc.body, nil); w.Code != http.StatusBadRequest {
			t.Errorf("%s: answer %d %s, want 400", tc.name, w.Code, w.Body.String())
		}
	}
	if groups := groupsOf(t, st); len(groups) != 0 {
		t.Errorf("refused reports were recorded: %+v", groups)
	}
}

// TestErrorReportsAreGrouped records reports and reads their groups: the same kind, name,
// message and path add to one group, keeping when it was first seen.
func TestErrorReportsAreGrouped(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	clock := &testClock{t: time.Now().Truncate(time.Millisecond)}
	deps := testDeps(t, st, nil)
	deps.ErrorReportLimit, deps.Now = DefaultErrorReportLimit, clock.now
	h := NewHandler(deps)
	chunk := `{"kind":"chunk","name":"ChunkLoadError","message":"Loading chunk 7 failed (https://shop.example/_next/x.js?v=1).","path":"/cards/birthday/","count":2}`
	if w := sendReports(h, "192.0.2.20:5000", reportsBody(apiReport, chunk, apiReport), nil); w.Code != http.StatusAccepted || recordedOf(t, w) != 3 {
		t.Fatalf("first reports: %d %s", w.Code, w.Body.String())
	}
	first := clock.now()
	clock.add(90 * time.Second)
	if w := sendReports(h, "192.0.2.20:5000", reportsBody(apiReport), nil); w.Code != http.StatusAccepted || recordedOf(t, w) != 1 {
		t.Fatalf("second report: %d %s", w.Code, w.Body.String())
	}
	groups := groupsOf(t, st)
	if len(groups) != 2 {
		t.Fatalf("groups: %+v, want 2", groups)
	}
	api, chunks := groups[0], groups[1] // most recently seen first
	if api.Kind != "api" || api.Count != 3 || api.Status != 500 || !api.FirstSeen.Equal(first) || !api.LastSeen.Equal(clock.now()) ||
		api.Path != "/checkout/basket/" || api.Build != "20261126T231136Z-bd33f6" {
		t.Errorf("api group: %+v", api)
	}
	if chunks.Kind != "chunk" || chunks.Count != 2 || chunks.Status != 0 || !chunks.LastSeen.Equal(first) {
		t.Errorf("chunk group: %+v", chunks)
	}
	if strings.Contains(chunks.Message, "?v=1") {
		t.Errorf("the message kept an address's query string: %q", chunks.Message)
	}
}

// TestErrorReportsFromCrawlers answers a crawler 202 with nothing recorded.
func TestErrorReportsFromCrawlers(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	deps := testDeps(t, st, nil)
	deps.ErrorReportLimit = DefaultErrorReportLimit
	h := NewHandler(deps)
	w := sendReports(h, "192.0.2.30:5000", reportsBody(apiReport), func(r *http.Request) {
		r.Header.Set("User-Agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
	})
	if w.Code != http.StatusAccepted || recordedOf(t, w) != 0 {
		t.Fatalf("crawler: %d %s, want 202 with recorded 0", w.Code, w.Body.String())
	}
	if groups := groupsOf(t, st); len(groups) != 0 {
		t.Errorf("a crawler's reports were recorded: %+v", groups)
	}
}

// TestErrorReportLimit sends 1,000 reports from one client in a minute: past the limit
// each answers 429 with Retry-After, while another client's are still recorded. A batch
// that only partly fits is recorded in part. Behind the origin guard the client is
// CloudFront's viewer address; without it, that header is anyone's and changes nothing.
func TestErrorReportLimit(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	clock := &testClock{t: time.Now().Truncate(time.Minute).Add(10 * time.Second)} // 10 s into a minute
	deps := testDeps(t, st, nil)
	deps.ErrorReportLimit, deps.Now = DefaultErrorReportLimit, clock.now
	h := NewHandler(deps)
	recorded, refused := 0, 0
	for i := range 1000 {
		spoof := func(r *http.Request) { r.Header.Set(CloudFrontViewerAddress, fmt.Sprintf("198.51.100.%d:443", i%250)) }
		w := sendReports(h, "192.0.2.40:5000", reportsBody(apiReport), spoof)
		switch w.Code {
		case http.StatusAccepted:
			recorded += recordedOf(t, w)
		case http.StatusTooManyRequests:
			refused++
			if ra := w.Header().Get("Retry-After"); ra != "50" {
				t.Fatalf("Retry-After %q 10 s into a minute, want 50", ra)
			}
			var out errorBody
			if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || !isSentence(out.Error) {
				t.Fatalf("429 body %s", w.Body.String())
			}
		default:
			t.Fatalf("report %d: %d %s", i, w.Code, w.Body.String())
		}
	}
	if recorded != DefaultErrorReportLimit || refused != 1000-DefaultErrorReportLimit {
		t.Errorf("recorded %d and refused %d of 1,000, want %d and %d", recorded, refused, DefaultErrorReportLimit, 1000-DefaultErrorReportLimit)
	}
	if g := groupsOf(t, st); len(g) != 1 || g[0].Count != DefaultErrorReportLimit {
		t.Errorf("groups %+v, want one of %d", g, DefaultErrorReportLimit)
	}
	// Another client, IPv6 this time: 25 reports, then a batch of 10 of which 5 fit.
	other := "[2001:db8:1:2::7]:5000"
	for range 5 {
		if w := sendReports(h, other, reportsBody(apiReport, apiReport, apiReport, apiReport, apiReport), nil); w.Code != http.StatusAccepted || recordedOf(t, w) != 5 {
			t.Fatalf("another client: %d %s", w.Code, w.Body.String())
		}
	}
	ten := strings.TrimSuffix(strings.Repeat(apiReport+",", 10), ",")
	if w := sendReports(h, "[2001:db8:1:2::99]:6000", reportsBody(ten), nil); w.Code != http.StatusAccepted || recordedOf(t, w) != 5 {
		t.Fatalf("the same /64, a batch of 10 with 5 places left: %d %s, want 202 recorded 5", w.Code, w.Body.String())
	}
	// The next minute, the client may send again.
	clock.add(time.Minute)
	if w := sendReports(h, "192.0.2.40:5000", reportsBody(apiReport), nil); w.Code != http.StatusAccepted || recordedOf(t, w) != 1 {
		t.Fatalf("the next minute: %d %s", w.Code, w.Body.String())
	}

	// Behind the origin guard, every request comes from CloudFront's few addresses: the
	// viewer's address is the client.
	secret := strings.Repeat("o", 32)
	guarded := RequireOriginSecret(secret, h)
	viewer := func(addr string) func(*http.Request) {
		return func(r *http.Request) {
			r.Header.Set(OriginSecretHeader, secret)
			r.Header.Set(CloudFrontViewerAddress, addr)
		}
	}
	thirty := strings.TrimSuffix(strings.Repeat(apiReport+",", 10), ",")
	for range 3 {
		if w := sendReports(guarded, "10.0.0.1:443", reportsBody(thirty), viewer("203.0.113.5:40000")); w.Code != http.StatusAccepted {
			t.Fatalf("a viewer's first 30: %d %s", w.Code, w.Body.String())
		}
	}
	if w := sendReports(guarded, "10.0.0.1:443", reportsBody(apiReport), viewer("203.0.113.5:40001")); w.Code != http.StatusTooManyRequests {
		t.Errorf("the viewer's 31st: %d, want 429", w.Code)
	}
	if w := sendReports(guarded, "10.0.0.1:443", reportsBody(apiReport), viewer("2001:db8:9::1:40000")); w.Code != http.StatusAccepted {
		t.Errorf("another viewer behind the same CloudFront address: %d %s, want 202", w.Code, w.Body.String())
	}
}

// TestAdminHealth reads the Health page: 403 for a buyer; for staff, the error groups,
// an email waiting in the outbox, a large order pending, an order waiting for its invoice
// and the last catalogue import.
func TestAdminHealth(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	cat := putSeedCatalogue(t, st, 40)
	deps := testDeps(t, st, testenv.Verifier(t))
	deps.ErrorReportLimit = DefaultErrorReportLimit
	h := NewHandler(deps)
	c := newClient(t, h)
	buyer := testenv.NewNamedUser(t, "Health Buyer Ltd")
	staff := testenv.Staff(t, testenv.NewNamedUser(t, "Health Staff"))

	if code, out, _ := c.get("/api/admin/health", buyer.IDToken); code != http.StatusForbidden || out["code"] != codeStaffOnly {
		t.Fatalf("a buyer: %d %v, want 403 staff_only", code, out)
	}
	code, _, raw := c.get("/api/admin/health", staff.IDToken)
	var empty adminHealthAnswer
	if err := json.Unmarshal(raw, &empty); code != http.StatusOK || err != nil {
		t.Fatalf("empty shop: %d %s", code, raw)
	}
	if len(empty.AppErrors) != 0 || empty.Outbox.Waiting != 0 || empty.Outbox.OldestWaitingAt != nil || empty.OrdersPending.OldestAt != nil ||
		empty.LastImport != nil || !strings.Contains(string(raw), `"app_errors":[]`) {
		t.Errorf("empty shop: %s", raw)
	}

	start := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	if w := sendReports(h, "192.0.2.50:5000", reportsBody(apiReport, apiReport), nil); w.Code != http.StatusAccepted {
		t.Fatalf("reports: %d %s", w.Code, w.Body.String())
	}
	if err := st.Enqueue(ctx, outbox.Message{ID: "health-test-1", To: "buyer@example.com", Subject: "Your order", Text: "Thanks.", HTML: "<p>Thanks.</p>"}, start); err != nil {
		t.Fatal(err)
	}
	p := cat.Products[0]
	for _, q := range cat.Products {
		if q.Stock >= 4*q.PackSize {
			p = q
			break
		}
	}
	// A large order whose request died, its pending record an hour old.
	pending := testenv.NewNamedUser(t, "Health Pending Ltd")
	if err := st.AddLines(ctx, pending.UID, []basket.Add{{SKU: p.SKU, Quantity: p.PackSize, Limit: 1000 * p.PackSize}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	b, err := st.Basket(ctx, pending.UID)
	if err != nil {
		t.Fatal(err)
	}
	line := orders.Line{SKU: p.SKU, Quantity: p.PackSize}
	if err := st.StartLarge(ctx, orders.Placement{Order: orders.Order{ID: "TS-HEALTH-1", UID: pending.UID, Lines: []orders.Line{line}},
		Key: "health-pending", Token: "health-pending", BasketVersion: b.Version, StartedAt: start, Chunks: [][]orders.Line{{line}}}); err != nil {
		t.Fatal(err)
	}
	// An order placed whose request died before it issued the invoice.
	unbilled := testenv.NewNamedUser(t, "Health Invoice Ltd")
	if err := st.AddLines(ctx, unbilled.UID, []basket.Add{{SKU: p.SKU, Quantity: p.PackSize, Limit: 1000 * p.PackSize}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if b, err = st.Basket(ctx, unbilled.UID); err != nil {
		t.Fatal(err)
	}
	o := orders.Order{ID: "TS-HEALTH-2", UID: unbilled.UID, PlacedAt: start.Add(time.Minute), Status: orders.StatusPlaced,
		Lines: []orders.Line{{SKU: p.SKU, Quantity: p.PackSize, LineAmount: int64(p.PackSize) * p.UnitPrice, VATRate: 20}}}
	if err := st.PlaceInOne(ctx, orders.Placement{Order: o, Key: "health-invoice", Token: "health-invoice", BasketVersion: b.Version, StartedAt: o.PlacedAt}); err != nil {
		t.Fatal(err)
	}
	imported := start.Add(2 * time.Minute)
	if err := st.RecordImport(ctx, orders.AuditEntry{At: imported, By: orders.Staff{UID: staff.UID, Email: "staff@example.com"}, Action: "import",
		Before: map[string]any{}, After: map[string]any{"file": "products.csv", "full": true, "new": 2, "changed": 5, "discontinued": 1, "unchanged": 30}}); err != nil {
		t.Fatal(err)
	}

	code, _, raw = c.get("/api/admin/health", staff.IDToken)
	var got adminHealthAnswer
	if err := json.Unmarshal(raw, &got); code != http.StatusOK || err != nil {
		t.Fatalf("health: %d %s", code, raw)
	}
	ms := func(t time.Time) *unixMillis { v := unixMillisOf(t); return &v }
	if len(got.AppErrors) != 1 || got.AppErrors[0].Count != 2 || got.AppErrors[0].Path != "/checkout/basket/" || got.AppErrors[0].Status != 500 ||
		got.AppErrors[0].FirstSeen == 0 || got.AppErrors[0].LastSeen < got.AppErrors[0].FirstSeen {
		t.Errorf("app errors: %+v", got.AppErrors)
	}
	if got.Outbox.Waiting != 1 || got.Outbox.Failed != 0 || got.Outbox.OldestWaitingAt == nil || *got.Outbox.OldestWaitingAt != *ms(start) {
		t.Errorf("outbox: %+v, want 1 waiting since %d", got.Outbox, *ms(start))
	}
	if got.OrdersPending.Count != 1 || got.OrdersPending.OldestAt == nil || *got.OrdersPending.OldestAt != *ms(start) {
		t.Errorf("orders pending: %+v", got.OrdersPending)
	}
	if got.OrdersToInvoice.Count != 1 || got.OrdersToInvoice.OldestAt == nil || *got.OrdersToInvoice.OldestAt != *ms(o.PlacedAt) {
		t.Errorf("orders to invoice: %+v", got.OrdersToInvoice)
	}
	want := lastImportAnswer{At: unixMillisOf(imported), By: "staff@example.com", Summary: "products.csv: 2 new, 5 changed, 1 discontinued, 30 unchanged (a full import)."}
	if got.LastImport == nil || *got.LastImport != want {
		t.Errorf("last import: %+v, want %+v", got.LastImport, want)
	}
	if got.CheckedAt == 0 {
		t.Error("checked_at is 0")
	}
}

// TestErrorReportLines reads the log of POST /api/errors: one line per report recorded
// (msg "app error", with its fields, the message's token and query string taken out) and
// the request line carrying AppErrorReports and AppErrorReportsRefused in EMF.
func TestErrorReportLines(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	var logged bytes.Buffer
	log := metrics.NewLogger(&logged, metrics.Config{Namespace: "TradeShop/local", Build: "local"})
	deps := testDeps(t, st, nil)
	deps.Log, deps.ErrorReportLimit = log, 2
	h := WithRequestLog(log, NewHandler(deps))
	leaky := `{"kind":"unhandled","name":"TypeError","message":"Failed on https://shop.example/basket/?token=abc with Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl.","path":"/basket/","count":1}`
	user := strings.Repeat("ab", 32)
	body := `{"build":"b1","agent":"phone","user":"` + user + `","reports":[` + leaky + `,` + apiReport + `,` + apiReport + `]}`
	if w := sendReports(h, "192.0.2.60:5000", body, nil); w.Code != http.StatusAccepted || recordedOf(t, w) != 2 {
		t.Fatalf("reports: %d %s", w.Code, w.Body.String())
	}
	var reports []map[string]any
	var request map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(logged.Bytes()), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		switch m["msg"] {
		case "app error":
			reports = append(reports, m)
		case "request":
			request = emfcheck.Line(t, line)
		}
	}
	if len(reports) != 2 {
		t.Fatalf("%d app error lines, want 2: %s", len(reports), logged.String())
	}
	first := reports[0]
	for k, v := range map[string]any{"kind": "unhandled", "name": "TypeError", "path": "/basket/", "site_build": "b1", "agent": "phone",
		"user": user, "status": float64(0), "message": "Failed on https://shop.example/basket/ with Bearer [redacted]"} {
		if first[k] != v {
			t.Errorf("app error line's %s = %v, want %v", k, first[k], v)
		}
	}
	if s := logged.String(); strings.Contains(s, "eyJ") || strings.Contains(s, "token=abc") {
		t.Errorf("the log holds a token: %s", s)
	}
	if request == nil || request["AppErrorReports"] != float64(2) || request["AppErrorReportsRefused"] != float64(1) {
		t.Errorf("request line: %v, want AppErrorReports 2 and AppErrorReportsRefused 1", request)
	}
}

// TestErrorReportLimitRace sends 60 batches of 3 reports from one client at once, as many
// Lambdas would take them: never more than the limit is recorded.
func TestErrorReportLimitRace(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	deps := testDeps(t, st, nil)
	deps.ErrorReportLimit = DefaultErrorReportLimit
	h := NewHandler(deps)
	var mu sync.Mutex
	var wg sync.WaitGroup
	recorded := 0
	for range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := sendReports(h, "192.0.2.70:5000", reportsBody(apiReport, apiReport, apiReport), nil)
			if w.Code == http.StatusAccepted {
				mu.Lock()
				recorded += recordedOf(t, w)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	g := groupsOf(t, st)
	if recorded == 0 || recorded > DefaultErrorReportLimit || len(g) != 1 || g[0].Count != recorded {
		t.Errorf("recorded %d (groups %+v): want 1 to %d, all in the group", recorded, g, DefaultErrorReportLimit)
	}
}
