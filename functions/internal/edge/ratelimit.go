package edge

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// DefaultAPIRateLimit is the local edge's limit on /api/* requests per client address per
// minute when API_RATE_LIMIT is not set: far above what one person clicking through the
// shop makes, so only a runaway client meets it. (In the cloud the WAF's rate-based rule
// holds each address to the stage's limit: docs/infrastructure.md.) Everything local comes
// from 127.0.0.1, so the test command, the fault suite and the benchmarks turn it off.
const DefaultAPIRateLimit = 6000

// RateWindow is the window the local limit counts in.
const RateWindow = time.Minute

// TooManyMessage is the error sentence of a 429, locally and from the WAF.
const TooManyMessage = "Too many requests from your address: please wait a minute and try again."

// ParseAPIRateLimit reads API_RATE_LIMIT: empty is DefaultAPIRateLimit, "0" is no limit,
// else a whole number of requests per client address per minute.
func ParseAPIRateLimit(v string) (int, error) {
	if v == "" {
		return DefaultAPIRateLimit, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("API_RATE_LIMIT must be a whole number of requests per client address per minute (0 for none), not %q", v)
	}
	return n, nil
}

// RateLimiter holds each client address to Limit requests per Window (fixed windows that
// start at the address's first request), answering the rest 429 with Retry-After.
type RateLimiter struct {
	Limit  int
	Window time.Duration
	Now    func() time.Time

	mu      sync.Mutex
	clients map[string]*window
	swept   time.Time
}

type window struct {
	start time.Time
	count int
}

// NewRateLimiter holds each address to limit requests a minute; 0 means no limit (nil).
func NewRateLimiter(limit int) *RateLimiter {
	if limit <= 0 {
		return nil
	}
	return &RateLimiter{Limit: limit, Window: RateWindow, Now: time.Now}
}

// clientAddress is the request's peer address without its port. The local edge is the
// first hop, so it trusts no forwarding header.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// allow counts one request of addr; when over the limit it answers how long until the
// address's window ends.
func (l *RateLimiter) allow(addr string) (bool, time.Duration) {
	now := l.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.clients == nil {
		l.clients = map[string]*window{}
	}
	if now.Sub(l.swept) >= l.Window { // forget addresses whose window has ended
		for a, w := range l.clients {
			if now.Sub(w.start) >= l.Window {
				delete(l.clients, a)
			}
		}
		l.swept = now
	}
	w := l.clients[addr]
	if w == nil || now.Sub(w.start) >= l.Window {
		w = &window{start: now}
		l.clients[addr] = w
	}
	if w.count >= l.Limit {
		return false, w.start.Add(l.Window).Sub(now)
	}
	w.count++
	return true, 0
}

// Wrap answers 429 with Retry-After (whole seconds until the address's window ends) and
// a JSON error to a request over the limit, else serves next. A nil limiter limits nothing.
func (l *RateLimiter) Wrap(next http.Handler) http.Handler {
	if l == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok, wait := l.allow(clientAddress(r))
		if ok {
			next.ServeHTTP(w, r)
			return
		}
		secs := int((wait + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusTooManyRequests)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": TooManyMessage})
	})
}
