package edge

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/listing"
)

// vectorFile is builds/edge-test-vectors.json: the routing every edge shares.
type vectorFile struct {
	Files map[string]string `json:"files"`
	Build struct {
		Redirects json.RawMessage `json:"redirects"`
	} `json:"build"`
	CacheHeaders []struct {
		Path         string `json:"path"`
		CacheControl string `json:"cacheControl"`
	} `json:"cacheHeaders"`
	// FilteredViewKeys are the query keys that make a page a filtered view (noindex).
	FilteredViewKeys []string `json:"filteredViewKeys"`
	Vectors          []struct {
		Name      string `json:"name"`
		Path      string `json:"path"`
		Query     string `json:"query"`
		UserAgent string `json:"userAgent"`
		Status    int    `json:"status"`
		Location  string `json:"location"`
		Body      string `json:"body"`
		NotBody   string `json:"notBody"`
		// Robots is the X-Robots-Tag the answer carries ("" for none).
		Robots string `json:"robots"`
	} `json:"vectors"`
}

func TestSharedEdgeVectors(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../../builds/edge-test-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vf vectorFile
	if err := json.Unmarshal(raw, &vf); err != nil {
		t.Fatal(err)
	}
	if len(vf.Vectors) == 0 {
		t.Fatal("no vectors")
	}
	if !slices.Equal(filteredViewKeys, vf.FilteredViewKeys) {
		t.Errorf("the edge's filteredViewKeys %v, the vectors' %v: keep them (and infra/edge/viewer-response.js's) equal", filteredViewKeys, vf.FilteredViewKeys)
	}
	if keys := listing.FilteredViewKeys(); !slices.Equal(keys, vf.FilteredViewKeys) {
		t.Errorf("listing.FilteredViewKeys() %v, the vectors' %v: a key the listing reads must make a filtered view on every edge", keys, vf.FilteredViewKeys)
	}
	site := t.TempDir()
	for name, body := range vf.Files {
		writeFile(t, site, name, body)
	}
	cutBuild(t, site, "vectors", string(vf.Build.Redirects))
	h := New(Config{SiteDir: site, MediaDir: t.TempDir(), API: http.NotFoundHandler(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for _, c := range vf.CacheHeaders {
		t.Run("cache "+c.Path, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "http://shop.test"+c.Path, nil))
			if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != c.CacheControl {
				t.Fatalf("got %d %q, want 200 %q", rec.Code, rec.Header().Get("Cache-Control"), c.CacheControl)
			}
		})
	}
	for _, v := range vf.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequest("GET", "http://shop.test/", nil)
			req.URL.Path, req.URL.RawPath, req.URL.RawQuery = received(v.Path), v.Path, v.Query
			if v.UserAgent != "" {
				req.Header.Set("User-Agent", v.UserAgent)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != v.Status || rec.Header().Get("Location") != v.Location {
				t.Fatalf("got %d %q, want %d %q", rec.Code, rec.Header().Get("Location"), v.Status, v.Location)
			}
			if !strings.Contains(rec.Body.String(), v.Body) || (v.NotBody != "" && strings.Contains(rec.Body.String(), v.NotBody)) {
				t.Fatalf("body %.80q (want %q, not %q)", rec.Body.String(), v.Body, v.NotBody)
			}
			if got := rec.Header().Get(robotsHeader); got != v.Robots {
				t.Fatalf("X-Robots-Tag %q, want %q", got, v.Robots)
			}
		})
	}
}

// received is a vector's path (as the client sent it) as net/http hands it to a handler:
// percent-decoded, so /.%2e/x is /../x. A path with a broken escape is left as sent (the
// vectors' raw control characters are not escapes).
func received(sent string) string {
	if p, err := url.PathUnescape(sent); err == nil {
		return p
	}
	return sent
}
