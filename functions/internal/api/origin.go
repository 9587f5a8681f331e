package api

import (
	"context"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net/http"
)

// OriginSecretHeader is the header CloudFront adds to every request it sends to the API
// origin, holding ORIGIN_SECRET (infra/lib/static-site.ts). The API's own execute-api
// address is public; a request without the header did not come through CloudFront (and
// its WAF), so it is refused.
const OriginSecretHeader = "X-Origin-Verify"

// minOriginSecret is the shortest ORIGIN_SECRET accepted.
const minOriginSecret = 32

// OriginGuardFromEnv reads ORIGIN_SECRET and answers the middleware that refuses (403)
// every request whose OriginSecretHeader does not hold it. In staging and production the
// secret is required (at least 32 characters): a function without it refuses to start.
// Locally (no CloudFront) it is normally unset and nothing is checked; set, it is checked
// as in the cloud.
func OriginGuardFromEnv(getenv func(string) string) (func(http.Handler) http.Handler, error) {
	secret := getenv("ORIGIN_SECRET")
	if secret == "" {
		if stage := getenv("STAGE"); stage == "staging" || stage == "production" {
			return nil, fmt.Errorf("ORIGIN_SECRET must be set when STAGE is %s: it is how the API knows a request came through CloudFront", stage)
		}
		return func(h http.Handler) http.Handler { return h }, nil
	}
	if len(secret) < minOriginSecret {
		return nil, fmt.Errorf("ORIGIN_SECRET must be at least %d characters", minOriginSecret)
	}
	return func(h http.Handler) http.Handler { return RequireOriginSecret(secret, h) }, nil
}

// RequireOriginSecret serves h only requests whose OriginSecretHeader holds secret
// (compared in constant time); any other request gets a JSON 403.
func RequireOriginSecret(secret string, h http.Handler) http.Handler {
	want := []byte(secret)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get(OriginSecretHeader)), want) != 1 {
			writeError(w, r, slog.Default(), errNotThroughSite)
			return
		}
		r.Header.Del(OriginSecretHeader) // the handlers never see it
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), throughOriginKey{}, true)))
	})
}

// throughOriginKey marks a request's context once RequireOriginSecret has checked it came
// through CloudFront: only then are the headers CloudFront sets (the viewer's address)
// the viewer's, not whatever a caller wrote.
type throughOriginKey struct{}

// throughOrigin reports whether the origin guard checked this request came through
// CloudFront.
func throughOrigin(ctx context.Context) bool {
	ok, _ := ctx.Value(throughOriginKey{}).(bool)
	return ok
}
