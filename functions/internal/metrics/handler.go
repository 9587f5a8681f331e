package metrics

import (
	"context"
	"io"
	"log/slog"
	"math"
	"slices"
	"strings"
)

// Config is what the log handler adds to every line.
type Config struct {
	// Namespace of the metrics: "TradeShop/" and the stage (NamespaceOf).
	Namespace string
	// Build is the code's version (BUILD_ID), on every line.
	Build string
}

// NamespaceOf is the metrics namespace of a stage: each stage's metrics apart, so one
// account can hold staging and production.
func NamespaceOf(stage string) string {
	if stage == "" {
		stage = "local"
	}
	return "TradeShop/" + stage
}

// ConfigFromEnv reads STAGE (default local) and BUILD_ID (default local).
func ConfigFromEnv(getenv func(string) string) Config {
	build := getenv("BUILD_ID")
	if build == "" {
		build = "local"
	}
	return Config{Namespace: NamespaceOf(getenv("STAGE")), Build: build}
}

// NewLogger is the JSON logger of every function and of the local edge: lines to w, each
// with the build and, logged with a request's context, its request id and endpoint, and
// the metrics it carries as EMF.
func NewLogger(w io.Writer, c Config) *slog.Logger {
	return slog.New(NewHandler(slog.NewJSONHandler(w, nil), c))
}

// Handler wraps a JSON slog handler: see NewLogger.
type Handler struct {
	inner slog.Handler
	c     Config
	// fixed are the keys given to WithAttrs, which the line then has already.
	fixed []string
}

// NewHandler wraps inner (a slog.JSONHandler).
func NewHandler(inner slog.Handler, c Config) *Handler { return &Handler{inner: inner, c: c} }

// Enabled is the inner handler's.
func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

// WithAttrs keeps the handler around the inner one's.
func (h *Handler) WithAttrs(as []slog.Attr) slog.Handler {
	fixed := slices.Clone(h.fixed)
	for _, a := range as {
		fixed = append(fixed, a.Key)
	}
	return &Handler{inner: h.inner.WithAttrs(as), c: h.c, fixed: fixed}
}

// WithGroup keeps the handler around the inner one's. Lines of a group still get the
// context keys, inside the group; the shop logs no groups.
func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{inner: h.inner.WithGroup(name), c: h.c, fixed: h.fixed}
}

// Handle writes r with the context's keys and its points as EMF.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	has := map[string]bool{}
	for _, k := range h.fixed {
		has[k] = true
	}
	strs := map[string]string{}
	var points []Point
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == pointsKey {
			if p, ok := a.Value.Any().([]Point); ok {
				points = append(points, p...)
			}
			return true
		}
		has[a.Key] = true
		if a.Value.Kind() == slog.KindString {
			strs[a.Key] = a.Value.String()
		}
		out.AddAttrs(a)
		return true
	})
	add := func(k, v string) {
		if v != "" && !has[k] {
			has[k] = true
			strs[k] = v
			out.AddAttrs(slog.String(k, v))
		}
	}
	if s := ScopeOf(ctx); s != nil {
		add("request_id", s.RequestID)
		name, group := s.Endpoint()
		add(DimEndpoint, name)
		add(DimGroup, group)
	}
	add("build", h.c.Build)
	docs := encode(h.c.Namespace, r.Time.UnixMilli(), points, strs, has)
	if len(docs) > 0 {
		out.AddAttrs(docs[0]...)
	}
	if err := h.inner.Handle(ctx, out); err != nil {
		return err
	}
	// Points whose dimension values clash with the line's (two reasons in one request)
	// go on lines of their own, with the same context keys.
	for _, extra := range docs[min(1, len(docs)):] {
		line := slog.NewRecord(r.Time, r.Level, "metrics", r.PC)
		for _, k := range []string{"request_id", DimEndpoint, DimGroup, "build"} {
			if v, ok := strs[k]; ok {
				line.AddAttrs(slog.String(k, v))
			}
		}
		line.AddAttrs(extra...)
		if err := h.inner.Handle(ctx, line); err != nil {
			return err
		}
	}
	return nil
}

// directive is one entry of _aws.CloudWatchMetrics.
type directive struct {
	Namespace  string       `json:"Namespace"`
	Dimensions [][]string   `json:"Dimensions"`
	Metrics    []metricName `json:"Metrics"`
}

type metricName struct {
	Name string `json:"Name"`
	Unit Unit   `json:"Unit"`
}

// aws is the _aws key of an EMF line.
type aws struct {
	Timestamp         int64       `json:"Timestamp"`
	CloudWatchMetrics []directive `json:"CloudWatchMetrics"`
}

// doc is the metrics of one line as it is being built.
type doc struct {
	dims   map[string]string // dimension values this line adds as keys
	order  []string          // metric names in the order first recorded
	metric map[string]Metric
	values map[string][]float64
}

// encode is the attributes of points as EMF: the _aws key, each metric's value (a Count
// recorded twice is summed; another unit's values are a list) and the dimension values
// the line lacks. lineStrs are the line's string keys (the endpoint, the group), has all
// its keys. A point whose dimension value clashes with the line's goes in a further
// document, written on its own line. A dimension set whose key has no value is left out;
// a metric with no set left is not written.
func encode(namespace string, at int64, points []Point, lineStrs map[string]string, has map[string]bool) [][]slog.Attr {
	var docs []*doc
	for _, p := range points {
		if !finite(p.Value) || !usable(p.Metric, p.Dims, lineStrs) {
			continue
		}
		d := docFor(&docs, p, lineStrs, has)
		name := p.Metric.Name
		if _, ok := d.metric[name]; !ok {
			d.order = append(d.order, name)
			d.metric[name] = p.Metric
		}
		if p.Metric.Unit == Count && len(d.values[name]) == 1 {
			d.values[name][0] += p.Value
		} else {
			d.values[name] = append(d.values[name], p.Value)
		}
	}
	out := make([][]slog.Attr, 0, len(docs))
	for i, d := range docs {
		out = append(out, d.attrs(namespace, at, lineStrs, i == 0))
	}
	return out
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// usable says whether at least one of m's dimension sets has every value.
func usable(m Metric, dims []Dim, lineStrs map[string]string) bool {
	for _, set := range m.Dimensions {
		if hasAll(set, dims, lineStrs) {
			return true
		}
	}
	return false
}

func hasAll(set []string, dims []Dim, lineStrs map[string]string) bool {
	for _, k := range set {
		if lineStrs[k] == "" && !slices.ContainsFunc(dims, func(d Dim) bool { return d.Key == k && d.Value != "" }) {
			return false
		}
	}
	return true
}

// docFor is the first document p's dimension values fit, or a new one.
func docFor(docs *[]*doc, p Point, lineStrs map[string]string, has map[string]bool) *doc {
	for i, d := range *docs {
		if fits(d, p, lineStrs, has, i == 0) {
			addDims(d, p)
			return d
		}
	}
	d := &doc{dims: map[string]string{}, metric: map[string]Metric{}, values: map[string][]float64{}}
	addDims(d, p)
	*docs = append(*docs, d)
	return d
}

// fits says whether p's dimension values agree with d's and, on the line itself (first),
// with the line's own keys; a metric already in d must keep its unit.
func fits(d *doc, p Point, lineStrs map[string]string, has map[string]bool, first bool) bool {
	for _, dim := range p.Dims {
		if v, ok := d.dims[dim.Key]; ok && v != dim.Value {
			return false
		}
		if !first {
			continue
		}
		if v, ok := lineStrs[dim.Key]; ok && v != dim.Value {
			return false
		}
		if has[dim.Key] && lineStrs[dim.Key] == "" {
			return false // the line has the key with a value that is no string
		}
	}
	return true
}

func addDims(d *doc, p Point) {
	for _, dim := range p.Dims {
		d.dims[dim.Key] = dim.Value
	}
}

// attrs is d as log attributes: on the line itself (first) with the dimension values the
// line lacks, on a line of its own with all of them.
func (d *doc) attrs(namespace string, at int64, lineStrs map[string]string, first bool) []slog.Attr {
	value := func(k string) string {
		if v, ok := d.dims[k]; ok {
			return v
		}
		return lineStrs[k]
	}
	// One directive per distinct list of dimension sets, in the order first met.
	var dirs []directive
	for _, name := range d.order {
		m := d.metric[name]
		var sets [][]string
		for _, set := range m.Dimensions {
			ok := true
			for _, k := range set {
				ok = ok && value(k) != ""
			}
			if ok {
				sets = append(sets, slices.Clone(set))
			}
		}
		i := slices.IndexFunc(dirs, func(x directive) bool { return sameSets(x.Dimensions, sets) })
		if i < 0 {
			dirs = append(dirs, directive{Namespace: namespace, Dimensions: sets})
			i = len(dirs) - 1
		}
		dirs[i].Metrics = append(dirs[i].Metrics, metricName{m.Name, m.Unit})
	}
	as := []slog.Attr{slog.Any("_aws", aws{Timestamp: at, CloudWatchMetrics: dirs})}
	keys := make([]string, 0, len(d.dims))
	for k := range d.dims {
		if _, onLine := lineStrs[k]; !onLine || !first {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		as = append(as, slog.String(k, d.dims[k]))
	}
	for _, name := range d.order {
		as = append(as, valueAttr(name, d.values[name]))
	}
	return as
}

func sameSets(a, b [][]string) bool {
	return slices.EqualFunc(a, b, func(x, y []string) bool {
		return strings.Join(x, "\x00") == strings.Join(y, "\x00") && len(x) == len(y)
	})
}

// valueAttr is a metric's value: a whole number as an integer, several as a list.
func valueAttr(name string, vs []float64) slog.Attr {
	if len(vs) == 1 {
		return number(name, vs[0])
	}
	return slog.Any(name, vs)
}

func number(name string, v float64) slog.Attr {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return slog.Int64(name, int64(v))
	}
	return slog.Float64(name, v)
}
