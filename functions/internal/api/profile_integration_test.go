package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/auth/authtest"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

func testDeps(t *testing.T, st *store.Store, v auth.Verifier) Deps {
	t.Helper()
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, err := csrf.New([]byte(strings.Repeat("s", 32)))
	if err != nil {
		t.Fatal(err)
	}
	return Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Verifier: v, Store: st, CSRF: p, Shop: shop, Now: time.Now}
}

// putSeedCatalogue writes a generated catalogue of n products to the table and answers it.
func putSeedCatalogue(t *testing.T, st *store.Store, n int) seed.Catalogue {
	t.Helper()
	cat, err := seed.Generate(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutCatalogue(context.Background(), cat.Ranges, cat.Categories, cat.Products, nil); err != nil {
		t.Fatal(err)
	}
	return cat
}

// client calls the API as the page does: it fetches a CSRF token first and sends it
// back with its cookie.
type client struct {
	t     *testing.T
	h     http.Handler
	token string
	cook  *http.Cookie
}

func newClient(t *testing.T, h http.Handler) *client {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/csrf", nil))
	var body map[string]string
	_ = json.Unmarshal(rec.Body.Bytes(), &body)
	cookies := rec.Result().Cookies()
	if rec.Code != 200 || body["token"] == "" || len(cookies) != 1 || cookies[0].Value != body["token"] {
		t.Fatalf("csrf: %d %s", rec.Code, rec.Body.String())
	}
	return &client{t: t, h: h, token: body["token"], cook: cookies[0]}
}

func (c *client) post(path, body string, mod func(*http.Request)) (int, map[string]any) {
	r := httptest.NewRequest("POST", path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r.Header.Set(csrf.HeaderName, c.token)
	r.AddCookie(c.cook)
	if mod != nil {
		mod(r)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, r)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

func profileBody(tok, business, tel, email string, opt int) string {
	b, _ := json.Marshal(map[string]any{"payLoad": map[string]any{"business": business, "telephone": tel, "email": email, "optInMarketing": opt, "token": tok}})
	return string(b)
}

func TestProfileAgainstLocalStack(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	alice := testenv.NewNamedUser(t, "Alice's Card Shop")
	bob := testenv.NewNamedUser(t, "Bob's Newsagents")
	c := newClient(t, h)

	t.Run("getProfile creates the profile from the display name and email", func(t *testing.T) {
		code, p := c.post("/api/getProfile", `{"token":"`+alice.IDToken+`"}`, nil)
		if code != 200 || p["business"] != "Alice's Card Shop" || p["email"] != alice.Email || p["active_coupon_id"] != "" {
			t.Fatalf("%d %v", code, p)
		}
		var dsc map[string]int
		if err := json.Unmarshal([]byte(p["dsc"].(string)), &dsc); err != nil || dsc["range:wholesale-christmas"] != 5 {
			t.Fatalf("dsc %v: %v", p["dsc"], err)
		}
	})

	t.Run("profile updates with the page's CSRF token", func(t *testing.T) {
		code, p := c.post("/api/profile", profileBody(alice.IDToken, "Alice's Cards Ltd", "01632 960 123", alice.Email, 1), nil)
		if code != 200 || p["business"] != "Alice's Cards Ltd" || p["telephone"] != "01632 960 123" || p["optInMarketing"] != float64(1) {
			t.Fatalf("%d %v", code, p)
		}
		stored, err := st.Profile(context.Background(), alice.UID)
		if err != nil || stored.Business != "Alice's Cards Ltd" {
			t.Fatalf("stored %+v %v", stored, err)
		}
	})

	refusals := []struct {
		name    string
		body    string
		mod     func(*http.Request)
		status  int
		problem string
	}{
		{"missing CSRF header", profileBody(alice.IDToken, "Changed", "", alice.Email, 0), func(r *http.Request) { r.Header.Del(csrf.HeaderName) }, 403, ""},
		{"wrong CSRF token", profileBody(alice.IDToken, "Changed", "", alice.Email, 0), func(r *http.Request) { r.Header.Set(csrf.HeaderName, "x.1.y") }, 403, ""},
		{"cross-site request", profileBody(alice.IDToken, "Changed", "", alice.Email, 0), func(r *http.Request) {
			r.Header.Set("Sec-Fetch-Site", "cross-site")
			r.Header.Set("Origin", "https://evil.example")
		}, 403, ""},
		{"empty business", profileBody(alice.IDToken, " ", "", alice.Email, 0), nil, 400, "business"},
		{"bad telephone", profileBody(alice.IDToken, "Changed", "call me", alice.Email, 0), nil, 400, "telephone"},
		{"bad email", profileBody(alice.IDToken, "Changed", "", "not-an-email", 0), nil, 400, "email"},
		{"optInMarketing not 0 or 1", profileBody(alice.IDToken, "Changed", "", alice.Email, 7), nil, 400, "optInMarketing"},
		{"someone else's email", profileBody(alice.IDToken, "Changed", "", bob.Email, 0), nil, 400, "email"},
		{"no token", profileBody("", "Changed", "", alice.Email, 0), nil, 401, ""},
	}
	for _, tc := range refusals {
		t.Run("refused: "+tc.name, func(t *testing.T) {
			code, body := c.post("/api/profile", tc.body, tc.mod)
			if code != tc.status || body["error"] == nil {
				t.Fatalf("%d %v, want %d", code, body, tc.status)
			}
			if tc.problem != "" {
				if problems, _ := body["problems"].(map[string]any); problems[tc.problem] == nil {
					t.Fatalf("no problem for %s in %v", tc.problem, body)
				}
			}
			if p, _ := st.Profile(context.Background(), alice.UID); p.Business != "Alice's Cards Ltd" {
				t.Fatalf("a refused request changed the profile: %+v", p)
			}
		})
	}

	t.Run("a buyer only ever sees their own profile", func(t *testing.T) {
		code, p := c.post("/api/getProfile", `{"token":"`+bob.IDToken+`"}`, nil)
		if code != 200 || p["business"] != "Bob's Newsagents" {
			t.Fatalf("%d %v", code, p)
		}
		code, _ = c.post("/api/getProfile", `{"token":"`+bob.IDToken+`","uid":"`+alice.UID+`"}`, nil)
		if code != 400 {
			t.Fatalf("a uid in the body must be refused, got %d", code)
		}
	})
}

// The production verification path, end to end through the handlers and DynamoDB: a
// token signed by the trusted test key is served; every forged one is refused with 401
// and nothing is written.
func TestForgedTokensAreRefusedByEveryCustomerEndpoint(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	good := authtest.NewKey(t, "key-1")
	srv, _ := authtest.KeyServer(t, good.Public)
	v, err := auth.NewKeySetVerifier(context.Background(), "tradeshop-test", srv.URL, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHandler(testDeps(t, st, v))
	c := newClient(t, h)
	now := time.Now()
	const victim = "uid-victim"

	for name, tok := range authtest.Forged(t, "tradeshop-test", victim, now, good) {
		for _, call := range []struct{ path, body string }{
			{"/api/getProfile", `{"token":"` + tok + `"}`},
			{"/api/profile", profileBody(tok, "Forged Ltd", "", victim+"@shop.test", 0)},
			{"/api/shoppingCartSmall", `{"token":"` + tok + `"}`},
			{"/api/recommended", `{"token":"` + tok + `"}`},
		} {
			if code, body := c.post(call.path, call.body, nil); code != 401 {
				t.Errorf("%s on %s: %d %v, want 401", name, call.path, code, body)
			}
		}
	}
	if _, err := st.Profile(context.Background(), victim); err == nil {
		t.Fatal("a forged token wrote a profile")
	}

	real := authtest.Sign(t, authtest.Claims("tradeshop-test", victim, now, nil), jwa.RS256(), good.Private)
	if code, p := c.post("/api/getProfile", `{"token":"`+real+`"}`, nil); code != 200 || p["business"] != "Business of "+victim {
		t.Fatalf("correctly signed token: %d %v", code, p)
	}
}

// basketLines reads uid's basket lines, newest first.
func basketLines(ctx context.Context, st *store.Store, uid string) ([]basket.Line, error) {
	b, err := st.Basket(ctx, uid)
	return b.Lines, err
}
