package auth

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/tradeshop/functions/internal/auth/authtest"
)

const testProject = "tradeshop-test"

var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func newTestVerifier(t *testing.T, url string) *KeySetVerifier {
	t.Helper()
	v, err := NewKeySetVerifier(context.Background(), testProject, url, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	v.now = func() time.Time { return testNow }
	return v
}

func TestKeySetVerifierRefusesForgedTokens(t *testing.T) {
	t.Parallel()
	good := authtest.NewKey(t, "key-1")
	srv, _ := authtest.KeyServer(t, good.Public)
	v := newTestVerifier(t, srv.URL)

	for name, tok := range authtest.Forged(t, testProject, "uid-alice", testNow, good) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if c, err := v.Verify(context.Background(), tok); !errors.Is(err, ErrInvalidToken) {
				t.Fatalf("want ErrInvalidToken, got claims %+v err %v", c, err)
			}
		})
	}

	t.Run("correctly signed token accepted", func(t *testing.T) {
		t.Parallel()
		c, err := v.Verify(context.Background(), authtest.Sign(t, authtest.Claims(testProject, "uid-alice", testNow, nil), jwa.RS256(), good.Private))
		if err != nil {
			t.Fatal(err)
		}
		if c.UID != "uid-alice" || c.Email != "uid-alice@shop.test" || c.Name != "Business of uid-alice" {
			t.Fatalf("claims %+v", c)
		}
	})
}

func TestKeysAreFetchedOnceAndOutageIsNot401(t *testing.T) {
	t.Parallel()
	good := authtest.NewKey(t, "key-1")
	srv, hits := authtest.KeyServer(t, good.Public)
	v := newTestVerifier(t, srv.URL)
	tok := authtest.Sign(t, authtest.Claims(testProject, "uid-alice", testNow, nil), jwa.RS256(), good.Private)
	for range 5 {
		if _, err := v.Verify(context.Background(), tok); err != nil {
			t.Fatal(err)
		}
	}
	if n := hits.Load(); n != 1 {
		t.Fatalf("key source fetched %d times, want 1", n)
	}

	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	v2 := newTestVerifier(t, down.URL)
	v2.fetchTimeout = 300 * time.Millisecond
	for range 2 { // the second call must not mistake the failed fetch for an empty key set
		if _, err := v2.Verify(context.Background(), tok); !errors.Is(err, ErrKeysUnavailable) {
			t.Fatalf("key source down: want ErrKeysUnavailable, got %v", err)
		}
	}
}

func TestEmulatorVerifier(t *testing.T) {
	t.Parallel()
	v := &emulatorVerifier{projectID: testProject, now: func() time.Time { return testNow }}
	claims := func(mod func(*jwt.Builder)) jwt.Token { return authtest.Claims(testProject, "uid-alice", testNow, mod) }
	ok := authtest.Unsigned(t, map[string]any{"alg": "none", "typ": "JWT"}, claims(nil))
	if c, err := v.Verify(context.Background(), ok); err != nil || c.UID != "uid-alice" {
		t.Fatalf("emulator token refused: %+v %v", c, err)
	}
	bad := map[string]string{
		"empty":          "",
		"wrong audience": authtest.Unsigned(t, map[string]any{"alg": "none"}, claims(func(b *jwt.Builder) { b.Audience([]string{"x"}) })),
		"expired":        authtest.Unsigned(t, map[string]any{"alg": "none"}, claims(func(b *jwt.Builder) { b.Expiration(testNow.Add(-time.Hour)) })),
		"empty subject":  authtest.Unsigned(t, map[string]any{"alg": "none"}, claims(func(b *jwt.Builder) { b.Subject("") })),
		"claims RS256":   authtest.Sign(t, claims(nil), jwa.RS256(), authtest.NewKey(t, "k").Private),
	}
	for name, tok := range bad {
		if _, err := v.Verify(context.Background(), tok); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("%s: want ErrInvalidToken, got %v", name, err)
		}
	}
}

func TestNewRefusesEmulatorInProduction(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		name    string
		env     map[string]string
		wantErr bool
		emu     bool
	}{
		{"local emulator", map[string]string{"FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"}, false, true},
		{"production emulator", map[string]string{"FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099", "STAGE": "production", "FIREBASE_PROJECT_ID": "shop-prod"}, true, false},
		{"production demo project", map[string]string{"STAGE": "production"}, true, false},
		{"production signed", map[string]string{"STAGE": "production", "FIREBASE_PROJECT_ID": "shop-prod"}, false, false},
		{"explicit local emulator", map[string]string{"FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099", "STAGE": "local"}, false, true},
		{"staging emulator", map[string]string{"FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099", "STAGE": "staging", "FIREBASE_PROJECT_ID": "shop-staging"}, true, false},
		{"staging signed", map[string]string{"STAGE": "staging", "FIREBASE_PROJECT_ID": "shop-staging"}, false, false},
	}
	// Stage names that are not exactly local, staging or production refuse to start,
	// emulator or not: "Production" used to pass as not-production and take unsigned tokens.
	for _, stage := range []string{"Production", "PRODUCTION", "prod", " production", "production ", "Local", "dev", "stage"} {
		cases = append(cases,
			struct {
				name    string
				env     map[string]string
				wantErr bool
				emu     bool
			}{"emulator with STAGE " + strconv.Quote(stage), map[string]string{"FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099", "STAGE": stage, "FIREBASE_PROJECT_ID": "shop-prod"}, true, false},
			struct {
				name    string
				env     map[string]string
				wantErr bool
				emu     bool
			}{"signed with STAGE " + strconv.Quote(stage), map[string]string{"STAGE": stage, "FIREBASE_PROJECT_ID": "shop-prod"}, true, false})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, err := New(context.Background(), ConfigFromEnv(env(tc.env)))
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if err == nil {
				_, isEmu := v.(*emulatorVerifier)
				if isEmu != tc.emu {
					t.Fatalf("emulator verifier = %v, want %v", isEmu, tc.emu)
				}
			}
		})
	}
}

// The verifier answers the sign-in facts the shop's rules use: email_verified and
// auth_time (docs/token-verification.md, "Sign-in facts").
func TestClaimsCarryTheSignInFacts(t *testing.T) {
	t.Parallel()
	v := &emulatorVerifier{projectID: testProject, now: func() time.Time { return testNow }}
	tok := func(mod func(*jwt.Builder)) Claims {
		t.Helper()
		c, err := v.Verify(context.Background(), authtest.Unsigned(t, map[string]any{"alg": "none"}, authtest.Claims(testProject, "uid-alice", testNow, mod)))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	verified := tok(func(b *jwt.Builder) {
		b.Claim("email_verified", true).Claim("auth_time", testNow.Add(-4*time.Minute).Unix())
	})
	if !verified.EmailVerified || !verified.AuthTime.Equal(testNow.Add(-4*time.Minute)) || !verified.SignedInWithin(RecentSignIn, testNow) {
		t.Fatalf("verified, signed in 4 minutes ago: %+v", verified)
	}
	old := tok(func(b *jwt.Builder) {
		b.Claim("email_verified", false).Claim("auth_time", testNow.Add(-6*time.Minute).Unix())
	})
	if old.EmailVerified || old.SignedInWithin(RecentSignIn, testNow) {
		t.Fatalf("unverified, signed in 6 minutes ago: %+v", old)
	}
	if none := (Claims{UID: "u"}); none.SignedInWithin(RecentSignIn, testNow) {
		t.Fatal("a token without auth_time counts as a recent sign-in")
	}
}

// Staff is the custom claim staff set to the JSON boolean true and nothing else, through
// both verifiers (docs/back-office.md, "Roles").
func TestClaimsStaffOnlyForBooleanTrue(t *testing.T) {
	t.Parallel()
	good := authtest.NewKey(t, "key-1")
	srv, _ := authtest.KeyServer(t, good.Public)
	signed := newTestVerifier(t, srv.URL)
	emulator := &emulatorVerifier{projectID: testProject, now: func() time.Time { return testNow }}
	verifiers := map[string]struct {
		v    Verifier
		make func(jwt.Token) string
	}{
		"key set": {signed, func(tok jwt.Token) string { return authtest.Sign(t, tok, jwa.RS256(), good.Private) }},
		"emulator": {emulator, func(tok jwt.Token) string {
			return authtest.Unsigned(t, map[string]any{"alg": "none", "typ": "JWT"}, tok)
		}},
	}
	const absent = "absent"
	cases := []struct {
		name  string
		value any
		want  bool
	}{
		{"true", true, true},
		{"no claim", absent, false},
		{"false", false, false},
		{`string "true"`, "true", false},
		{"number 1", 1, false},
		{"number 1.0", 1.0, false},
		{`string "1"`, "1", false},
		{"null", nil, false},
		{"array [true]", []any{true}, false},
		{"object", map[string]any{"staff": true}, false},
	}
	for vname, vc := range verifiers {
		for _, tc := range cases {
			t.Run(vname+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				tok := authtest.Claims(testProject, "uid-alice", testNow, func(b *jwt.Builder) {
					if s, ok := tc.value.(string); !ok || s != absent {
						b.Claim("staff", tc.value)
					}
				})
				c, err := vc.v.Verify(context.Background(), vc.make(tok))
				if err != nil {
					t.Fatal(err)
				}
				if c.Staff != tc.want || c.UID != "uid-alice" {
					t.Fatalf("staff claim %#v: Staff = %v, want %v (claims %+v)", tc.value, c.Staff, tc.want, c)
				}
			})
		}
	}
}

// A forged token that claims staff is refused like any other forgery: the claim is only
// read from a token that passed every check.
func TestForgedStaffTokenRefused(t *testing.T) {
	t.Parallel()
	good := authtest.NewKey(t, "key-1")
	srv, _ := authtest.KeyServer(t, good.Public)
	v := newTestVerifier(t, srv.URL)
	staff := authtest.Claims(testProject, "uid-mallory", testNow, func(b *jwt.Builder) { b.Claim("staff", true) })
	for name, tok := range map[string]string{
		"unsigned":             authtest.Unsigned(t, map[string]any{"alg": "none", "kid": "key-1"}, staff),
		"signed by a stranger": authtest.Sign(t, staff, jwa.RS256(), authtest.NewKey(t, "key-1").Private),
	} {
		if c, err := v.Verify(context.Background(), tok); !errors.Is(err, ErrInvalidToken) || c.Staff {
			t.Errorf("%s: want ErrInvalidToken and no staff, got %+v %v", name, c, err)
		}
	}
}
