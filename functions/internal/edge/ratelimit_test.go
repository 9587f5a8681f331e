package edge

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// limitedEdge is the edge with a limit of three /api requests a minute, on a clock the
// test moves.
func limitedEdge(t *testing.T) (http.Handler, func(time.Duration)) {
	t.Helper()
	var mu sync.Mutex
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	l := NewRateLimiter(3)
	l.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	site := t.TempDir()
	writeFile(t, site, "index.html", "<h1>home</h1>")
	writeFile(t, site, "404.html", "<h1>missing</h1>")
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h := New(Config{SiteDir: site, MediaDir: t.TempDir(), API: api, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), APILimit: l})
	return h, func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
}

func from(h http.Handler, addr, path string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", path, nil)
	r.RemoteAddr = addr
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestAPIRateLimitPerClient(t *testing.T) {
	t.Parallel()
	h, advance := limitedEdge(t)
	for i := range 3 {
		if w := from(h, "192.0.2.1:5000", "/api/basket"); w.Code != http.StatusTeapot {
			t.Fatalf("request %d: %d, want the API's answer", i+1, w.Code)
		}
	}
	advance(15 * time.Second)
	w := from(h, "192.0.2.1:5001", "/api/basket") // another port, the same address
	if w.Code != http.StatusTooManyRequests {
		t.Fatalf("4th request in the minute: %d, want 429", w.Code)
	}
	if got := w.Header().Get("Retry-After"); got != "45" {
		t.Errorf("Retry-After %q, want 45 (seconds until the window ends)", got)
	}
	var body map[string]string
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body["error"] != TooManyMessage {
		t.Errorf("body %q: %v", w.Body.String(), err)
	}
	if w.Header().Get("Content-Type") != "application/json" {
		t.Errorf("Content-Type %q", w.Header().Get("Content-Type"))
	}

	// Another address has its own count; pages are never limited.
	if w := from(h, "198.51.100.7:5000", "/api/basket"); w.Code != http.StatusTeapot {
		t.Errorf("another address: %d", w.Code)
	}
	if w := httptest.NewRecorder(); true {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "192.0.2.1:5000"
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			t.Errorf("a page from the limited address: %d, want 200", w.Code)
		}
	}

	// The window ends 60 s after the address's first request: the count starts again.
	advance(45 * time.Second)
	for i := range 3 {
		if w := from(h, "192.0.2.1:5000", "/api/basket"); w.Code != http.StatusTeapot {
			t.Fatalf("after the window, request %d: %d", i+1, w.Code)
		}
	}
	if w := from(h, "192.0.2.1:5000", "/api/basket"); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "60" {
		t.Errorf("over the limit again: %d Retry-After %q, want 429 and 60", w.Code, w.Header().Get("Retry-After"))
	}
}

func TestParseAPIRateLimit(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]int{"": DefaultAPIRateLimit, "0": 0, "120": 120} {
		if got, err := ParseAPIRateLimit(v); err != nil || got != want {
			t.Errorf("%q: %d %v, want %d", v, got, err, want)
		}
	}
	for _, bad := range []string{"-1", "lots", "10/60"} {
		if _, err := ParseAPIRateLimit(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if NewRateLimiter(0) != nil {
		t.Error("a limit of 0 must limit nothing")
	}
	h := NewRateLimiter(0).Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
	for range 10 {
		if w := from(h, "192.0.2.1:1", "/api/x"); w.Code != 204 {
			t.Fatalf("no limit: %d", w.Code)
		}
	}
}
