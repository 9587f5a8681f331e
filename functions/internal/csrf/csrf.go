package csrf

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// HeaderName is the request header that carries the token (the site's
// NEXT_PUBLIC_CSRF_HEADER must match).
const HeaderName = "X-CSRF-Token"

// Cookie names: the __Host- prefix (Secure, Path=/, no Domain) where served over HTTPS;
// browsers refuse __Host- cookies on plain-HTTP local development.
const (
	cookieSecure = "__Host-csrf"
	cookiePlain  = "tradeshop_csrf"
)

// TTL is how long an issued token is accepted.
const TTL = 12 * time.Hour

// ErrInvalid means the token was missing, did not match its cookie, was badly signed or
// had expired. Callers answer 403.
var ErrInvalid = errors.New("missing or invalid CSRF token")

// ErrCrossSite is the ErrInvalid of a request from another site (refused whatever its
// token): fetching a fresh token cannot help it, so it answers another code.
var ErrCrossSite = fmt.Errorf("%w: cross-site request", ErrInvalid)

// Protector issues and checks tokens with one secret.
type Protector struct {
	secret  []byte
	now     func() time.Time
	trusted string // the site's own origin, when the API sees another Host (behind CloudFront)
}

// New makes a Protector; the secret must be at least 32 bytes.
func New(secret []byte) (*Protector, error) {
	if len(secret) < 32 {
		return nil, fmt.Errorf("csrf: secret must be at least 32 bytes, got %d", len(secret))
	}
	return &Protector{secret: secret, now: time.Now}, nil
}

// FromEnv reads CSRF_SECRET (base64 or raw, at least 32 bytes). Without it a random
// secret is made for this process, which is right for one local edge but refused in
// staging and production, where every function that checks or issues tokens must share
// the secret (the others get Disabled).
//
// SITE_ORIGIN (optional, "https://shop.example") is the origin the site is served from.
// Behind CloudFront the function sees the API's own Host, so a browser that sends no
// Sec-Fetch-Site would fail the Origin-versus-Host check without it.
func FromEnv(getenv func(string) string) (*Protector, error) {
	p, err := fromEnvSecret(getenv)
	if err != nil {
		return nil, err
	}
	if origin := getenv("SITE_ORIGIN"); origin != "" {
		if err := http.NewCrossOriginProtection().AddTrustedOrigin(origin); err != nil {
			return nil, fmt.Errorf("csrf: SITE_ORIGIN: %w", err)
		}
		p.trusted = origin
	}
	return p, nil
}

func fromEnvSecret(getenv func(string) string) (*Protector, error) {
	s := getenv("CSRF_SECRET")
	if s == "" {
		if stage := getenv("STAGE"); stage == "staging" || stage == "production" {
			return nil, fmt.Errorf("csrf: CSRF_SECRET must be set when STAGE is %s", stage)
		}
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		return New(b)
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && len(b) >= 32 {
		return New(b)
	}
	return New([]byte(s))
}

func (p *Protector) sign(payload string) string {
	if p.secret == nil {
		panic("csrf: this function has no CSRF secret (csrf.Disabled): give it the secret in endpoints.json")
	}
	m := hmac.New(sha256.New, p.secret)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Issue makes a fresh token: random.expiry.signature.
func (p *Protector) Issue() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	payload := base64.RawURLEncoding.EncodeToString(b) + "." + strconv.FormatInt(p.now().Add(TTL).Unix(), 10)
	return payload + "." + p.sign(payload)
}

// valid checks a token's signature and expiry.
func (p *Protector) valid(tok string) bool { return p.validFor(tok, 0) }

// validFor says whether a token is validly signed and still valid for at least d.
func (p *Protector) validFor(tok string, d time.Duration) bool {
	i := strings.LastIndexByte(tok, '.')
	if i < 0 {
		return false
	}
	payload, sig := tok[:i], tok[i+1:]
	if !hmac.Equal([]byte(sig), []byte(p.sign(payload))) {
		return false
	}
	_, exp, ok := strings.Cut(payload, ".")
	if !ok {
		return false
	}
	e, err := strconv.ParseInt(exp, 10, 64)
	return err == nil && p.now().Add(d).Unix() < e
}

// Secure says whether the request came over HTTPS, directly or through a proxy that says so.
func Secure(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

func cookieName(r *http.Request) string {
	if Secure(r) {
		return cookieSecure
	}
	return cookiePlain
}

// Token answers the token for a page that is loading: the browser's own, when its cookie
// holds one that is validly signed with at least half its lifetime left, else a fresh one
// with its cookie (SetCookie). Every tab of a browser shares the cookie, so issuing a
// fresh token on every page load would leave the tabs already open holding a token that
// no longer matches it.
func (p *Protector) Token(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(cookieName(r)); err == nil && p.validFor(c.Value, TTL/2) {
		return c.Value
	}
	return p.SetCookie(w, r)
}

// SetCookie issues a token, sets its cookie and answers the token for the page.
func (p *Protector) SetCookie(w http.ResponseWriter, r *http.Request) string {
	tok := p.Issue()
	c := &http.Cookie{Name: cookiePlain, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: int(TTL.Seconds())}
	if Secure(r) {
		c.Name, c.Secure = cookieSecure, true
	}
	http.SetCookie(w, c)
	return tok
}

// Check verifies a request: the header token must equal the cookie token, and be validly
// signed and unexpired.
func (p *Protector) Check(r *http.Request) error {
	header := r.Header.Get(HeaderName)
	c, err := r.Cookie(cookieName(r))
	if header == "" || err != nil || subtle.ConstantTimeCompare([]byte(header), []byte(c.Value)) != 1 || !p.valid(header) {
		return ErrInvalid
	}
	return nil
}

// Protect wraps a state-changing handler: cross-site requests are refused (Go's
// CrossOriginProtection, 403), then the double-submit token is checked. onFail writes
// the refusal so every endpoint answers errors the same way.
func (p *Protector) Protect(h http.Handler, onFail func(http.ResponseWriter, *http.Request, error)) http.Handler {
	cop := http.NewCrossOriginProtection()
	if p.trusted != "" {
		_ = cop.AddTrustedOrigin(p.trusted) // checked by FromEnv
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		onFail(w, r, ErrCrossSite)
	}))
	return cop.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := p.Check(r); err != nil {
			onFail(w, r, err)
			return
		}
		h.ServeHTTP(w, r)
	}))
}

// Seal signs value for one purpose (label) until now+ttl: value.expiry.signature. The
// session cookie uses it; a sealed value for one label never opens under another.
func (p *Protector) Seal(label, value string, ttl time.Duration) string {
	payload := base64.RawURLEncoding.EncodeToString([]byte(value)) + "." + strconv.FormatInt(p.now().Add(ttl).Unix(), 10)
	return payload + "." + p.sign(label+"|"+payload)
}

// Open answers the value Seal signed under label, if the signature and expiry hold.
func (p *Protector) Open(label, sealed string) (string, bool) {
	i := strings.LastIndexByte(sealed, '.')
	if i < 0 || !hmac.Equal([]byte(sealed[i+1:]), []byte(p.sign(label+"|"+sealed[:i]))) {
		return "", false
	}
	enc, exp, ok := strings.Cut(sealed[:i], ".")
	e, err := strconv.ParseInt(exp, 10, 64)
	if !ok || err != nil || p.now().Unix() >= e {
		return "", false
	}
	v, err := base64.RawURLEncoding.DecodeString(enc)
	return string(v), err == nil
}
