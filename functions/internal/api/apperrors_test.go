package api

import (
	"context"
	"net/http/httptest"
	"testing"
)

func TestParseErrorReportLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    string
		want int
		ok   bool
	}{{"", DefaultErrorReportLimit, true}, {"0", 0, true}, {"30", 30, true}, {"100000", 100000, true},
		{"-1", 0, false}, {"100001", 0, false}, {"thirty", 0, false}, {"3.5", 0, false}, {" 30", 0, false}} {
		got, err := ParseErrorReportLimit(tc.v)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseErrorReportLimit(%q) = %d, %v; want %d, ok %v", tc.v, got, err, tc.want, tc.ok)
		}
	}
}

// TestClientKey: the connection's address, unless the origin guard checked the request
// came through CloudFront, whose viewer address then counts; an IPv6 address by its /64;
// never the address itself.
func TestClientKey(t *testing.T) {
	t.Parallel()
	key := func(remote, viewer string, guarded bool) string {
		r := httptest.NewRequest("POST", "/api/errors", nil)
		r.RemoteAddr = remote
		if viewer != "" {
			r.Header.Set(CloudFrontViewerAddress, viewer)
		}
		if guarded {
			r = r.WithContext(context.WithValue(r.Context(), throughOriginKey{}, true))
		}
		return clientKey(r)
	}
	a := key("192.0.2.1:5000", "", false)
	if len(a) != 32 || a == "192.0.2.1" {
		t.Errorf("key %q is not a hash", a)
	}
	for _, tc := range []struct {
		name string
		x, y string
		same bool
	}{
		{"the same address on another port", a, key("192.0.2.1:6000", "", false), true},
		{"another address", a, key("192.0.2.2:5000", "", false), false},
		{"a viewer header without the guard is ignored", a, key("192.0.2.1:5000", "203.0.113.9:1", false), true},
		{"behind the guard, the viewer counts", key("10.0.0.1:443", "203.0.113.9:1", true), key("10.0.0.2:443", "203.0.113.9:2", true), true},
		{"behind the guard, two viewers differ", key("10.0.0.1:443", "203.0.113.9:1", true), key("10.0.0.1:443", "203.0.113.10:1", true), false},
		{"an IPv6 viewer, its /64", key("10.0.0.1:443", "2001:db8:1:2::1:443", true), key("10.0.0.1:443", "2001:db8:1:2:ffff::9:80", true), true},
		{"another /64", key("10.0.0.1:443", "2001:db8:1:2::1:443", true), key("10.0.0.1:443", "2001:db8:1:3::1:443", true), false},
		{"a viewer header that is no address falls back to the connection", key("192.0.2.1:443", "nonsense", true), a, true},
		{"an IPv4 address mapped into IPv6 is the IPv4 address", key("[::ffff:192.0.2.1]:5000", "", false), a, true},
	} {
		if (tc.x == tc.y) != tc.same {
			t.Errorf("%s: same %v, want %v", tc.name, tc.x == tc.y, tc.same)
		}
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Loading chunk 7 failed (https://shop.example/_next/static/x.js?v=3#a).": "Loading chunk 7 failed (https://shop.example/_next/static/x.js).",
		"GET /api/orders?cursor=abc answered 500":                                "GET /api/orders answered 500",
		"token=abc.def failed":                                                   "token=[redacted] failed",
		"Authorization: Bearer abcdef":                                           "Authorization: Bearer [redacted]",
		"jwt eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln here":                     "jwt [token] here",
		"No account for pat.doe+trade@example.co.uk.":                            "No account for [email].",
		"Cannot read properties of undefined (reading 'price')":                  "Cannot read properties of undefined (reading 'price')",
	} {
		if got := redact(in); got != want {
			t.Errorf("redact(%q) = %q, want %q", in, got, want)
		}
	}
}
