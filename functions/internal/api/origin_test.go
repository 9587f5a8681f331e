package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestOriginSecretGuard(t *testing.T) {
	t.Parallel()
	secret := strings.Repeat("s3cr3t-", 6)
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	guard, err := OriginGuardFromEnv(env(map[string]string{"STAGE": "production", "ORIGIN_SECRET": secret}))
	if err != nil {
		t.Fatal(err)
	}
	var seen http.Header
	h := guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Clone()
		w.WriteHeader(http.StatusNoContent)
	}))
	call := func(header string, set bool) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/api/basket", strings.NewReader(`{}`))
		if set {
			r.Header.Set(OriginSecretHeader, header)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	if w := call(secret, true); w.Code != http.StatusNoContent {
		t.Fatalf("through CloudFront: %d", w.Code)
	}
	if seen.Get(OriginSecretHeader) != "" {
		t.Error("the handler saw the origin secret")
	}
	for name, w := range map[string]*httptest.ResponseRecorder{
		"no header":     call("", false),
		"wrong secret":  call(strings.Repeat("x", len(secret)), true),
		"secret prefix": call(secret[:len(secret)-1], true),
	} {
		var body map[string]string
		if w.Code != http.StatusForbidden || json.Unmarshal(w.Body.Bytes(), &body) != nil || body["error"] != msgNotThroughSite {
			t.Errorf("%s: %d %s, want 403 JSON", name, w.Code, w.Body.String())
		}
	}

	// The cloud refuses to start without a good secret; locally nothing is checked.
	for _, vars := range []map[string]string{{"STAGE": "staging"}, {"STAGE": "production"}, {"STAGE": "production", "ORIGIN_SECRET": "short"}} {
		if _, err := OriginGuardFromEnv(env(vars)); err == nil {
			t.Errorf("%v: started", vars)
		}
	}
	local, err := OriginGuardFromEnv(env(map[string]string{"STAGE": "local"}))
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	local(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })).ServeHTTP(w, httptest.NewRequest("GET", "/api/csrf", nil))
	if w.Code != http.StatusNoContent {
		t.Errorf("local without ORIGIN_SECRET: %d, want the handler's answer", w.Code)
	}
}
