package csrf

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func protector(t *testing.T) *Protector {
	t.Helper()
	p, err := New([]byte(strings.Repeat("k", 32)))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProtect(t *testing.T) {
	t.Parallel()
	p := protector(t)
	other, _ := New([]byte(strings.Repeat("z", 32)))
	good := p.Issue()
	expired := func() string {
		q := *p
		q.now = func() time.Time { return time.Now().Add(-2 * TTL) }
		return q.Issue()
	}()
	h := p.Protect(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }),
		func(w http.ResponseWriter, r *http.Request, err error) {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("refusal with %v", err)
			}
			w.WriteHeader(403)
		})
	cases := []struct {
		name           string
		header, cookie string
		secFetchSite   string
		origin         string
		want           int
	}{
		{"the page's own request", good, good, "same-origin", "", 204},
		{"no header", "", good, "same-origin", "", 403},
		{"no cookie", good, "", "same-origin", "", 403},
		{"header and cookie differ", good, p.Issue(), "same-origin", "", 403},
		{"signed with another secret", other.Issue(), "", "same-origin", "", 403},
		{"tampered signature", good[:len(good)-2] + "xx", good[:len(good)-2] + "xx", "same-origin", "", 403},
		{"expired", expired, expired, "same-origin", "", 403},
		{"cross-site, even with a valid token", good, good, "cross-site", "https://evil.example", 403},
		{"cross-origin by Origin header", good, good, "", "https://evil.example", 403},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest("POST", "http://shop.test/api/profile", nil)
			if tc.header != "" {
				r.Header.Set(HeaderName, tc.header)
			}
			if tc.cookie != "" {
				r.AddCookie(&http.Cookie{Name: cookiePlain, Value: tc.cookie})
			} else if tc.name == "signed with another secret" {
				r.AddCookie(&http.Cookie{Name: cookiePlain, Value: tc.header})
			}
			if tc.secFetchSite != "" {
				r.Header.Set("Sec-Fetch-Site", tc.secFetchSite)
			}
			if tc.origin != "" {
				r.Header.Set("Origin", tc.origin)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if rec.Code != tc.want {
				t.Fatalf("status %d, want %d", rec.Code, tc.want)
			}
		})
	}
}

func TestSetCookieNamesAndFlags(t *testing.T) {
	t.Parallel()
	p := protector(t)
	rec := httptest.NewRecorder()
	tok := p.SetCookie(rec, httptest.NewRequest("GET", "http://127.0.0.1/api/csrf", nil))
	c := rec.Result().Cookies()[0]
	if c.Name != cookiePlain || c.Value != tok || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Secure {
		t.Fatalf("plain-HTTP cookie %+v", c)
	}
	r := httptest.NewRequest("GET", "https://shop.example/api/csrf", nil)
	r.Header.Set("X-Forwarded-Proto", "https")
	rec = httptest.NewRecorder()
	p.SetCookie(rec, r)
	c = rec.Result().Cookies()[0]
	if c.Name != "__Host-csrf" || !c.Secure || c.Path != "/" || c.Domain != "" {
		t.Fatalf("HTTPS cookie %+v", c)
	}
}

func TestTokenKeepsTheBrowsersToken(t *testing.T) {
	t.Parallel()
	p := protector(t)
	at := func(ago time.Duration) string {
		q := *p
		q.now = func() time.Time { return time.Now().Add(-ago) }
		return q.Issue()
	}
	other, _ := New([]byte(strings.Repeat("z", 32)))
	fresh, old := at(time.Minute), at(TTL/2+time.Minute)
	cases := []struct {
		name, cookie string
		keep         bool
	}{
		{"no cookie yet", "", false},
		{"a fresh token: every tab keeps it", fresh, true},
		{"less than half its life left: replaced", old, false},
		{"expired", at(2 * TTL), false},
		{"signed with another secret", other.Issue(), false},
		{"garbage", "x.1.y", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest("GET", "http://127.0.0.1/api/csrf", nil)
			if tc.cookie != "" {
				r.AddCookie(&http.Cookie{Name: cookiePlain, Value: tc.cookie})
			}
			rec := httptest.NewRecorder()
			tok := p.Token(rec, r)
			set := rec.Result().Cookies()
			if tc.keep {
				if tok != tc.cookie || len(set) != 0 {
					t.Fatalf("token %q, cookies %v: want the browser's own token and no new cookie", tok, set)
				}
				return
			}
			if tok == tc.cookie || len(set) != 1 || set[0].Value != tok || !p.valid(tok) {
				t.Fatalf("token %q, cookies %v: want a fresh token in a new cookie", tok, set)
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if _, err := FromEnv(env(map[string]string{"STAGE": "production"})); err == nil {
		t.Fatal("production without CSRF_SECRET accepted")
	}
	if _, err := FromEnv(env(map[string]string{"CSRF_SECRET": "short"})); err == nil {
		t.Fatal("short secret accepted")
	}
	if _, err := FromEnv(env(map[string]string{})); err != nil {
		t.Fatalf("local default: %v", err)
	}
}

func TestSealAndOpen(t *testing.T) {
	t.Parallel()
	p := protector(t)
	s := p.Seal("session", "uid-1", time.Hour)
	if v, ok := p.Open("session", s); !ok || v != "uid-1" {
		t.Fatalf("open: %q %v", v, ok)
	}
	if _, ok := p.Open("other", s); ok {
		t.Fatal("opened under another label")
	}
	if _, ok := p.Open("session", s+"x"); ok {
		t.Fatal("opened a tampered value")
	}
	if _, ok := p.Open("session", p.Seal("session", "uid-1", -time.Second)); ok {
		t.Fatal("opened an expired value")
	}
}

// Behind CloudFront the API sees its own Host; SITE_ORIGIN lets the site's own requests
// from browsers without Sec-Fetch-Site through, and still refuses other origins.
func TestTrustedSiteOrigin(t *testing.T) {
	t.Parallel()
	secret := strings.Repeat("s", 32)
	getenv := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if _, err := FromEnv(getenv(map[string]string{"CSRF_SECRET": secret, "SITE_ORIGIN": "shop.example/path"})); err == nil {
		t.Fatal("a malformed SITE_ORIGIN was accepted")
	}
	withOrigin, err := FromEnv(getenv(map[string]string{"CSRF_SECRET": secret, "SITE_ORIGIN": "https://trade.shop.example"}))
	if err != nil {
		t.Fatal(err)
	}
	without, _ := FromEnv(getenv(map[string]string{"CSRF_SECRET": secret}))
	token := withOrigin.Issue()
	for _, tc := range []struct {
		name   string
		p      *Protector
		origin string
		want   int
	}{
		{"the site's origin, trusted", withOrigin, "https://trade.shop.example", 204},
		{"the site's origin, not configured", without, "https://trade.shop.example", 403},
		{"another origin", withOrigin, "https://evil.example", 403},
	} {
		h := tc.p.Protect(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }),
			func(w http.ResponseWriter, r *http.Request, err error) { w.WriteHeader(403) })
		r := httptest.NewRequest("POST", "https://abc123.execute-api.eu-west-2.amazonaws.com/api/profile", nil)
		r.Header.Set(HeaderName, token)
		r.AddCookie(&http.Cookie{Name: cookieSecure, Value: token})
		r.Header.Set("Origin", tc.origin)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, rec.Code, tc.want)
		}
	}
}

func TestDisabledProtectorRefusesToSign(t *testing.T) {
	p := Disabled()
	_ = p.Protect(http.NotFoundHandler(), nil) // wrapping a handler needs no secret
	for name, use := range map[string]func(){
		"Issue": func() { p.Issue() },
		"Seal":  func() { p.Seal("session", "uid", time.Minute) },
		"Open":  func() { p.Open("session", "a.1.b") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s on a Disabled protector did not panic", name)
				}
			}()
			use()
		}()
	}
}
