package api

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/csrf"
)

// sessionTTL is how long the session cookie lasts; the site renews it on sign-in.
const sessionTTL = 14 * 24 * time.Hour

func sessionCookie(r *http.Request, value string, maxAge int) *http.Cookie {
	c := &http.Cookie{Name: "tradeshop_session", Value: value, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, MaxAge: maxAge}
	if csrf.Secure(r) {
		c.Name, c.Secure = "__Host-session", true
	}
	return c
}

func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if t, ok := strings.CutPrefix(h, "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	return ""
}

// handleSessionStart answers POST /api/session (the token sync's sign-in call): it
// verifies the bearer ID token and sets a signed, HttpOnly session cookie for its uid.
func handleSessionStart(log *slog.Logger, verify auth.Verifier, seal *csrf.Protector) http.Handler {
	return withBearer(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		http.SetCookie(w, sessionCookie(r, seal.Seal("session", who.UID, sessionTTL), int(sessionTTL.Seconds())))
		w.WriteHeader(http.StatusNoContent)
	})
}

// handleSessionEnd answers DELETE /api/session (the token sync's sign-out call): it
// clears the session cookie. Signing out always succeeds, whatever the token.
func handleSessionEnd() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, sessionCookie(r, "", -1))
		w.WriteHeader(http.StatusNoContent)
	})
}
