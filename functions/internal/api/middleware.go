package api

import (
	"context"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/metrics"
)

// RequestID answers the id the logging middleware gave this request.
func RequestID(ctx context.Context) string {
	if s := metrics.ScopeOf(ctx); s != nil {
		return s.RequestID
	}
	return ""
}

var goodRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{8,64}$`)

type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// WithRequestLog gives each request an id (kept from a well-formed X-Request-Id, else
// new) and a metrics scope (package metrics), echoes the id in the answer and logs one
// JSON line when the request ends: method, path, status, duration, and (from the scope,
// through the log handler) the id, the endpoint and the build. For an /api endpoint the
// line is also its metrics in EMF: Requests, Status4xx, Status5xx and Latency by endpoint
// and group, with whatever the handler recorded (an order placed or refused, a store
// call that timed out). The query string, headers, cookies and bodies are never logged,
// so no token or password reaches the log.
func WithRequestLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if !goodRequestID.MatchString(id) {
			id = metrics.NewID()
		}
		w.Header().Set("X-Request-Id", id)
		rec := &statusRecorder{ResponseWriter: w}
		scope := metrics.NewScope(id)
		ctx := metrics.WithScope(r.Context(), scope)
		next.ServeHTTP(rec, r.WithContext(ctx))
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		took := float64(time.Since(start).Microseconds()) / 1000
		if name, _ := scope.Endpoint(); name != "" {
			metrics.Add(ctx, metrics.Requests, 1)
			metrics.Add(ctx, metrics.Status4xx, oneIf(rec.status >= 400 && rec.status < 500))
			metrics.Add(ctx, metrics.Status5xx, oneIf(rec.status >= 500))
			metrics.Add(ctx, metrics.Latency, took)
		} else if !strings.HasPrefix(r.URL.Path, "/api/") {
			scope.SetEndpoint(siteEndpoint, "")
		}
		log.LogAttrs(ctx, slog.LevelInfo, "request",
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", rec.status),
			slog.Float64("duration_ms", took),
			slog.Int("bytes", rec.bytes),
			metrics.Flush(ctx),
		)
	})
}

// siteEndpoint is the endpoint of the lines of the local edge's static files.
const siteEndpoint = "site"

func oneIf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// serving names the endpoint serving a request in its metrics scope, so its lines and
// metrics say which it was.
func serving(name string, next http.Handler) http.Handler {
	group := groupOf(name)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s := metrics.ScopeOf(r.Context()); s != nil {
			s.SetEndpoint(name, group)
		}
		next.ServeHTTP(w, r)
	})
}

// groupOf is the group of the endpoint (routes.go's deploy facts).
func groupOf(name string) string {
	for _, f := range endpointFunctions {
		if f.Name == name {
			return f.Group
		}
	}
	return ""
}
