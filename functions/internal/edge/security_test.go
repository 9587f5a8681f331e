package edge

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	t.Parallel()
	headers, err := SecurityHeaders("http://127.0.0.1:9099")
	if err != nil {
		t.Fatal(err)
	}
	site, _ := newSite(t)
	h := New(Config{SiteDir: site, MediaDir: t.TempDir(), API: http.NotFoundHandler(), Headers: headers,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for _, path := range []string{"/", "/no/such/page/", "/outlet/r/wholesale_balloons", "/api/nothing"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "http://shop.test"+path, nil))
		got := rec.Header()
		csp := got.Get("Content-Security-Policy")
		for _, want := range []string{"frame-ancestors 'none'", "default-src 'self'",
			"connect-src 'self' https://identitytoolkit.googleapis.com https://securetoken.googleapis.com http://127.0.0.1:9099"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if got.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(got.Get("Strict-Transport-Security"), "max-age=63072000; includeSubDomains") ||
			got.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: headers %v", path, got)
		}
	}
}
