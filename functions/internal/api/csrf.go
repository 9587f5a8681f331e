package api

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/tradeshop/functions/internal/csrf"
)

// csrfAnswer is the token a page sends back with each write, and the header to send it in.
type csrfAnswer struct {
	Token  string `json:"token"`
	Header string `json:"header"`
}

// handleCSRF answers GET /api/csrf with the token for the page's csrf-token meta tag: the
// browser's current one while it has long enough to live, else a fresh one with its
// HttpOnly cookie (csrf.Protector.Token).
func handleCSRF(p *csrf.Protector) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		encode(w, http.StatusOK, csrfAnswer{Token: p.Token(w, r), Header: csrf.HeaderName})
	})
}

// protect puts a state-changing endpoint behind the CSRF checks; refusals are 403 JSON.
func protect(log *slog.Logger, p *csrf.Protector, h http.Handler) http.Handler {
	return p.Protect(h, func(w http.ResponseWriter, r *http.Request, err error) { writeError(w, r, log, err) })
}

func isCSRF(err error) bool { return errors.Is(err, csrf.ErrInvalid) }
