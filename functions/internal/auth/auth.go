package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lestrrat-go/httprc/v3"
	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
	"github.com/lestrrat-go/jwx/v3/jwt"
)

// ErrInvalidToken means the ID token was missing, malformed, badly signed or had a
// claim that failed its check. Callers answer 401 and must not say which.
var ErrInvalidToken = errors.New("invalid ID token")

// ErrKeysUnavailable means the signing keys could not be fetched; the token may be
// fine, so callers answer 503 rather than 401.
var ErrKeysUnavailable = errors.New("token signing keys unavailable")

// GoogleKeysURL is where Google publishes the keys that sign Firebase ID tokens.
const GoogleKeysURL = "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"

// DefaultProjectID is the Firebase project used locally: the emulator's demo project.
const DefaultProjectID = "demo-tradeshop"

// maxSkew allows for small clock differences between Google and the function.
const maxSkew = 30 * time.Second

// Claims is what the shop uses from a verified token. UID always comes from here,
// never from a request body.
type Claims struct {
	UID   string
	Email string
	Name  string
	// EmailVerified is the token's email_verified: the buyer proved they hold Email. An
	// order paid on account needs it (docs/token-verification.md, "Sign-in facts").
	EmailVerified bool
	// AuthTime is the token's auth_time: when the buyer last signed in with their
	// password (a refreshed token keeps it). Zero when the token has none.
	AuthTime time.Time
	// Staff is the custom claim staff set to the JSON boolean true, as scripts/staff
	// grant sets it: a member of the shop's staff (docs/back-office.md, "Roles"). Any
	// other value ("true", 1, false) or none is not staff.
	Staff bool
}

// RecentSignIn is how recent a password sign-in a change of sign-in facts needs (the
// shop's record of the buyer's email): docs/token-verification.md, "Sign-in facts".
const RecentSignIn = 5 * time.Minute

// SignedInWithin says the buyer signed in with their password at most d before now.
func (c Claims) SignedInWithin(d time.Duration, now time.Time) bool {
	return !c.AuthTime.IsZero() && !c.AuthTime.Before(now.Add(-d))
}

// Verifier checks an ID token and answers its claims.
type Verifier interface {
	Verify(ctx context.Context, idToken string) (Claims, error)
}

// Config selects and configures a verifier.
type Config struct {
	ProjectID    string // FIREBASE_PROJECT_ID
	EmulatorHost string // FIREBASE_AUTH_EMULATOR_HOST: set only locally
	Stage        string // STAGE: local, staging or production
	KeysURL      string // FIREBASE_KEYS_URL: the JWK set that signs tokens
}

// ConfigFromEnv reads the verifier's settings through getenv, with local defaults.
func ConfigFromEnv(getenv func(string) string) Config {
	c := Config{
		ProjectID:    getenv("FIREBASE_PROJECT_ID"),
		EmulatorHost: getenv("FIREBASE_AUTH_EMULATOR_HOST"),
		Stage:        getenv("STAGE"),
		KeysURL:      getenv("FIREBASE_KEYS_URL"),
	}
	if c.ProjectID == "" {
		c.ProjectID = DefaultProjectID
	}
	if c.Stage == "" {
		c.Stage = "local"
	}
	if c.KeysURL == "" {
		c.KeysURL = GoogleKeysURL
	}
	return c
}

// Stages are the STAGE names, exactly as written: anything else refuses to start, so a
// "Production" or "prod" cannot pass for a stage that allows the emulator.
var Stages = []string{"local", "staging", "production"}

// New builds the verifier the configuration asks for. It refuses a stage that is not
// one of Stages, emulator mode outside the local stage (the emulator's tokens are
// unsigned), and a demo project in production.
func New(ctx context.Context, c Config) (Verifier, error) {
	if c.ProjectID == "" {
		return nil, errors.New("auth: no Firebase project id")
	}
	if !slices.Contains(Stages, c.Stage) {
		return nil, fmt.Errorf("auth: STAGE %q is not one of %s (exactly, in lower case)", c.Stage, strings.Join(Stages, ", "))
	}
	if c.EmulatorHost != "" {
		if c.Stage != "local" {
			return nil, fmt.Errorf("auth: FIREBASE_AUTH_EMULATOR_HOST is set but STAGE is %s; the emulator's unsigned tokens are accepted only with STAGE=local", c.Stage)
		}
		return &emulatorVerifier{projectID: c.ProjectID, now: time.Now}, nil
	}
	if c.Stage == "production" && strings.HasPrefix(c.ProjectID, "demo-") {
		return nil, fmt.Errorf("auth: project %q is a demo project and cannot be used in production", c.ProjectID)
	}
	return NewKeySetVerifier(ctx, c.ProjectID, c.KeysURL, http.DefaultClient)
}

// KeySetVerifier verifies signed tokens against the JWK set at a URL, refreshed in the
// background as the source's cache headers allow.
type KeySetVerifier struct {
	projectID string
	url       string
	cache     *jwk.Cache
	now       func() time.Time
	// fetchTimeout bounds how long a request waits for the first key fetch.
	fetchTimeout time.Duration

	mu sync.Mutex // serialises the first registration of the key source
}

// NewKeySetVerifier makes a verifier for projectID whose keys come from keysURL.
// Keys are fetched on the first Verify, so a cold start does not wait for them.
func NewKeySetVerifier(ctx context.Context, projectID, keysURL string, client *http.Client) (*KeySetVerifier, error) {
	cache, err := jwk.NewCache(ctx, httprc.NewClient(httprc.WithHTTPClient(client)))
	if err != nil {
		return nil, fmt.Errorf("auth: key cache: %w", err)
	}
	return &KeySetVerifier{projectID: projectID, url: keysURL, cache: cache, now: time.Now, fetchTimeout: 5 * time.Second}, nil
}

func (v *KeySetVerifier) keys(ctx context.Context) (jwk.Set, error) {
	ctx, cancel := context.WithTimeout(ctx, v.fetchTimeout)
	defer cancel()
	v.mu.Lock()
	if !v.cache.IsRegistered(ctx, v.url) {
		// The first fetch happens here, bounded by ctx; later ones in the background.
		if err := v.cache.Register(ctx, v.url, jwk.WithWaitReady(true), jwk.WithMinInterval(5*time.Minute)); err != nil {
			v.mu.Unlock()
			return nil, fmt.Errorf("%w: %v", ErrKeysUnavailable, err)
		}
	}
	v.mu.Unlock()
	set, err := v.cache.Lookup(ctx, v.url)
	if err != nil || set.Len() == 0 {
		// Not fetched yet (cold start) or the last fetch failed: fetch now, bounded by ctx.
		if set, err = v.cache.Refresh(ctx, v.url); err != nil || set.Len() == 0 {
			return nil, fmt.Errorf("%w: %v", ErrKeysUnavailable, err)
		}
	}
	return set, nil
}

// Verify checks the token's signature and claims.
func (v *KeySetVerifier) Verify(ctx context.Context, idToken string) (Claims, error) {
	if idToken == "" {
		return Claims{}, ErrInvalidToken
	}
	// The header is checked before any key is used: only RS256 with a key id.
	msg, err := jws.ParseString(idToken)
	if err != nil || len(msg.Signatures()) != 1 {
		return Claims{}, ErrInvalidToken
	}
	hdr := msg.Signatures()[0].ProtectedHeaders()
	alg, ok := hdr.Algorithm()
	kid, hasKid := hdr.KeyID()
	if !ok || alg != jwa.RS256() || !hasKid || kid == "" {
		return Claims{}, ErrInvalidToken
	}
	set, err := v.keys(ctx)
	if err != nil {
		return Claims{}, err
	}
	opts := append(validationOptions(v.projectID, v.now),
		jwt.WithKeySet(set, jws.WithRequireKid(true), jws.WithInferAlgorithmFromKey(true)))
	tok, err := jwt.ParseString(idToken, opts...)
	if err != nil {
		return Claims{}, ErrInvalidToken
	}
	return claimsOf(tok, v.now)
}

func validationOptions(projectID string, now func() time.Time) []jwt.ParseOption {
	return []jwt.ParseOption{
		jwt.WithValidate(true),
		jwt.WithIssuer("https://securetoken.google.com/" + projectID),
		jwt.WithAudience(projectID),
		jwt.WithRequiredClaim("exp"),
		jwt.WithRequiredClaim("iat"),
		jwt.WithRequiredClaim("sub"),
		jwt.WithAcceptableSkew(maxSkew),
		jwt.WithClock(jwt.ClockFunc(now)),
	}
}

// claimsOf applies the checks jwx does not make itself (sub shape, auth_time) and
// picks out the claims the shop uses.
func claimsOf(tok jwt.Token, now func() time.Time) (Claims, error) {
	sub, ok := tok.Subject()
	if !ok || sub == "" || len(sub) > 128 {
		return Claims{}, ErrInvalidToken
	}
	c := Claims{UID: sub}
	var authTime float64
	if err := tok.Get("auth_time", &authTime); err == nil {
		c.AuthTime = time.Unix(int64(authTime), 0).UTC()
		if c.AuthTime.After(now().Add(maxSkew)) {
			return Claims{}, ErrInvalidToken
		}
	}
	_ = tok.Get("email", &c.Email)
	_ = tok.Get("name", &c.Name)
	_ = tok.Get("email_verified", &c.EmailVerified)
	// Read as any and compared with the boolean: only JSON true counts, not a string or
	// number a conversion might take for true.
	var staff any
	if err := tok.Get("staff", &staff); err == nil {
		c.Staff = staff == true
	}
	return c, nil
}

// emulatorVerifier accepts the Auth emulator's unsigned tokens, still checking every
// claim. New only builds it when FIREBASE_AUTH_EMULATOR_HOST is set.
type emulatorVerifier struct {
	projectID string
	now       func() time.Time
}

func (v *emulatorVerifier) Verify(_ context.Context, idToken string) (Claims, error) {
	// The emulator only issues unsigned tokens; one claiming a signature was not
	// issued by it, and cannot be checked here, so it is refused.
	header, _, _ := strings.Cut(idToken, ".")
	raw, err := base64.RawURLEncoding.DecodeString(header)
	var h struct {
		Alg string `json:"alg"`
	}
	if idToken == "" || err != nil || json.Unmarshal(raw, &h) != nil || h.Alg != "none" {
		return Claims{}, ErrInvalidToken
	}
	tok, err := jwt.ParseString(idToken, append(validationOptions(v.projectID, v.now), jwt.WithVerify(false))...)
	if err != nil {
		return Claims{}, ErrInvalidToken
	}
	return claimsOf(tok, v.now)
}
