package api

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/csrf"
)

// A 403 for a stale or foreign CSRF token says so in its code, so the site's fetch
// helper refetches the token only for that 403 (a cross-site 403 gets another code, and
// every other error none).
func TestCSRFRefusalsCarryTheirCode(t *testing.T) {
	t.Parallel()
	p, err := csrf.New([]byte(strings.Repeat("c", 32)))
	if err != nil {
		t.Fatal(err)
	}
	rotated, _ := csrf.New([]byte(strings.Repeat("r", 32)))
	h := protect(slog.New(slog.NewTextHandler(io.Discard, nil)), p, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
	good, stale := p.Issue(), rotated.Issue()
	cases := []struct {
		name, header, cookie, site string
		status                     int
		code                       string
	}{
		{"good token", good, good, "same-origin", 204, ""},
		{"token signed with the old secret (a rotation)", stale, stale, "same-origin", 403, "csrf_token"},
		{"no token", "", good, "same-origin", 403, "csrf_token"},
		{"cross-site", good, good, "cross-site", 403, "cross_site"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "http://shop.test/api/basket/add", strings.NewReader("{}"))
			if tc.header != "" {
				r.Header.Set(csrf.HeaderName, tc.header)
			}
			r.AddCookie(&http.Cookie{Name: "tradeshop_csrf", Value: tc.cookie})
			r.Header.Set("Sec-Fetch-Site", tc.site)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d", rec.Code, tc.status)
			}
			if tc.status == 204 {
				return
			}
			var body errorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Code != tc.code || body.Error == "" {
				t.Fatalf("body %s (%v), want code %q", rec.Body.String(), err, tc.code)
			}
		})
	}
}
