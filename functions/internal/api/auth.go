package api

import (
	"log/slog"
	"net/http"

	"github.com/tradeshop/functions/internal/auth"
)

// tokenBody is a request body that carries the caller's ID token.
type tokenBody interface {
	Validator
	idToken() string
}

// withToken is the one place per-customer endpoints check the caller: it decodes and
// validates the body, verifies its ID token, and hands the handler the verified claims.
// The uid always comes from the token, never from the body.
func withToken[T tokenBody](log *slog.Logger, verify auth.Verifier, next func(w http.ResponseWriter, r *http.Request, who auth.Claims, body T)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := decode[T](r)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		who, err := verify.Verify(r.Context(), body.idToken())
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		next(w, r, who, body)
	})
}

func (t tokenRequest) idToken() string { return t.Token }
