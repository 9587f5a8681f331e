package metrics

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"

	"github.com/aws/aws-lambda-go/lambdacontext"
)

// Dim is a dimension value a point carries itself (the reason of a refusal); the endpoint
// and group come from the Scope.
type Dim struct{ Key, Value string }

// Reason is the reason dimension of a refusal.
func Reason(r string) Dim { return Dim{DimReason, r} }

// Point is one value of a metric.
type Point struct {
	Metric Metric
	Value  float64
	Dims   []Dim
}

// P is a point of m.
func P(m Metric, v float64, dims ...Dim) Point { return Point{m, v, dims} }

// Scope is what one request (or one run of a job) is: its id, the endpoint that serves it
// and the metrics recorded while it runs. The request-log middleware makes it; the route
// names the endpoint; the log handler reads it for every line logged with its context.
type Scope struct {
	RequestID string

	mu       sync.Mutex
	endpoint string
	group    string
	points   []Point
}

// NewScope is the scope of a request or run with this id.
func NewScope(requestID string) *Scope { return &Scope{RequestID: requestID} }

// SetEndpoint names the endpoint (or job) serving the scope's request, and its group.
func (s *Scope) SetEndpoint(name, group string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endpoint, s.group = name, group
}

// Endpoint is the endpoint and group SetEndpoint named ("" before).
func (s *Scope) Endpoint() (name, group string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.endpoint, s.group
}

type scopeKey struct{}

// WithScope is ctx carrying s.
func WithScope(ctx context.Context, s *Scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, s)
}

// ScopeOf is the scope ctx carries, or nil.
func ScopeOf(ctx context.Context) *Scope {
	s, _ := ctx.Value(scopeKey{}).(*Scope)
	return s
}

// Add records a value of m in ctx's scope, to be written on the scope's request line.
// Without a scope (a tool, a test) it does nothing: a metric is never worth a failure.
func Add(ctx context.Context, m Metric, v float64, dims ...Dim) {
	s := ScopeOf(ctx)
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.points = append(s.points, Point{m, v, dims})
}

// pointsKey is the key of the attribute that carries points to the handler, which writes
// them as EMF in its place.
const pointsKey = "_metrics"

// Flush is the attribute carrying the points ctx's scope recorded so far, taking them from
// the scope: log it on the request line.
func Flush(ctx context.Context) slog.Attr {
	s := ScopeOf(ctx)
	if s == nil {
		return Record()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	pts := s.points
	s.points = nil
	return Record(pts...)
}

// Record is the attribute carrying these points, for a line of their own (a job's run).
func Record(points ...Point) slog.Attr {
	return slog.Any(pointsKey, points)
}

// JobGroup is the group of the scheduled jobs' lines.
const JobGroup = "jobs"

// Job is ctx carrying the scope of one run of a scheduled job (the order sweep, the email
// sender): its lines say the job and the run's id (the Lambda's request id in the cloud),
// and the store's timeouts and throttles during it are counted on them.
func Job(ctx context.Context, name, runID string) context.Context {
	s := NewScope(runID)
	s.SetEndpoint(name, JobGroup)
	return WithScope(ctx, s)
}

// RunID is the id of a job's run for its log lines: the Lambda's request id when ctx is a
// Lambda invocation's, a new id (NewID) otherwise.
func RunID(ctx context.Context) string {
	if lc, ok := lambdacontext.FromContext(ctx); ok {
		return lc.AwsRequestID
	}
	return NewID()
}

// NewID is a new request or run id: 24 hex digits.
func NewID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
