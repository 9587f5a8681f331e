package auth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jwt"
)

const testProject = "tradeshop-test"

var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

type keyPair struct {
	private jwk.Key
	public  jwk.Key
	raw     *rsa.PrivateKey
}

func newKeyPair(t *testing.T, kid string) keyPair {
	t.Helper()
	raw, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	priv, err := jwk.Import(raw)
	if err != nil {
		t.Fatal(err)
	}
	_ = priv.Set(jwk.KeyIDKey, kid)
	_ = priv.Set(jwk.AlgorithmKey, jwa.RS256())
	pub, err := priv.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	return keyPair{private: priv, public: pub, raw: raw}
}

// keyServer serves a JWK set the way Google's securetoken endpoint does.
func keyServer(t *testing.T, keys ...jwk.Key) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	set := jwk.NewSet()
	for _, k := range keys {
		_ = set.AddKey(k)
	}
	body, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func claims(mod func(b *jwt.Builder)) jwt.Token {
	b := jwt.NewBuilder().
		Issuer("https://securetoken.google.com/"+testProject).
		Audience([]string{testProject}).
		Subject("uid-alice").
		IssuedAt(testNow.Add(-time.Minute)).
		Expiration(testNow.Add(time.Hour)).
		Claim("auth_time", testNow.Add(-time.Minute).Unix()).
		Claim("email", "alice@example.com")
	if mod != nil {
		mod(b)
	}
	tok, err := b.Build()
	if err != nil {
		panic(err)
	}
	return tok
}

func sign(t *testing.T, tok jwt.Token, alg jwa.SignatureAlgorithm, key any) string {
	t.Helper()
	out, err := jwt.Sign(tok, jwt.WithKey(alg, key))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func unsigned(t *testing.T, header map[string]any, tok jwt.Token) string {
	t.Helper()
	h, _ := json.Marshal(header)
	p, _ := json.Marshal(tok)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(h) + "." + enc.EncodeToString(p) + "."
}

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
	good := newKeyPair(t, "key-1")
	stranger := newKeyPair(t, "key-1") // same kid, different key
	unknown := newKeyPair(t, "key-9")
	srv, _ := keyServer(t, good.public)
	v := newTestVerifier(t, srv.URL)

	pubDER, _ := x509.MarshalPKIXPublicKey(&good.raw.PublicKey)
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})
	hmacKey, _ := jwk.Import(pubPEM)
	_ = hmacKey.Set(jwk.KeyIDKey, "key-1")

	cases := map[string]string{
		"empty":                "",
		"garbage":              "not.a.token",
		"unsigned alg none":    unsigned(t, map[string]any{"alg": "none", "kid": "key-1", "typ": "JWT"}, claims(nil)),
		"signed by a stranger": sign(t, claims(nil), jwa.RS256(), stranger.private),
		"unknown kid":          sign(t, claims(nil), jwa.RS256(), unknown.private),
		"alg switched to HS256 with the public key": sign(t, claims(nil), jwa.HS256(), hmacKey),
		"alg RS512":        sign(t, claims(nil), jwa.RS512(), good.private),
		"wrong audience":   sign(t, claims(func(b *jwt.Builder) { b.Audience([]string{"other-project"}) }), jwa.RS256(), good.private),
		"wrong issuer":     sign(t, claims(func(b *jwt.Builder) { b.Issuer("https://securetoken.google.com/other-project") }), jwa.RS256(), good.private),
		"expired":          sign(t, claims(func(b *jwt.Builder) { b.Expiration(testNow.Add(-time.Hour)) }), jwa.RS256(), good.private),
		"issued in future": sign(t, claims(func(b *jwt.Builder) { b.IssuedAt(testNow.Add(time.Hour)) }), jwa.RS256(), good.private),
		"auth_time future": sign(t, claims(func(b *jwt.Builder) { b.Claim("auth_time", testNow.Add(time.Hour).Unix()) }), jwa.RS256(), good.private),
		"empty subject":    sign(t, claims(func(b *jwt.Builder) { b.Subject("") }), jwa.RS256(), good.private),
	}
	for name, tok := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if c, err := v.Verify(context.Background(), tok); !errors.Is(err, ErrInvalidToken) {
				t.Fatalf("want ErrInvalidToken, got claims %+v err %v", c, err)
			}
		})
	}

	t.Run("correctly signed token accepted", func(t *testing.T) {
		t.Parallel()
		c, err := v.Verify(context.Background(), sign(t, claims(nil), jwa.RS256(), good.private))
		if err != nil {
			t.Fatal(err)
		}
		if c.UID != "uid-alice" || c.Email != "alice@example.com" {
			t.Fatalf("claims %+v", c)
		}
	})
}

func TestKeysAreFetchedOnceAndOutageIsNot401(t *testing.T) {
	t.Parallel()
	good := newKeyPair(t, "key-1")
	srv, hits := keyServer(t, good.public)
	v := newTestVerifier(t, srv.URL)
	tok := sign(t, claims(nil), jwa.RS256(), good.private)
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
	ok := unsigned(t, map[string]any{"alg": "none", "typ": "JWT"}, claims(nil))
	if c, err := v.Verify(context.Background(), ok); err != nil || c.UID != "uid-alice" {
		t.Fatalf("emulator token refused: %+v %v", c, err)
	}
	bad := map[string]string{
		"empty":          "",
		"wrong audience": unsigned(t, map[string]any{"alg": "none"}, claims(func(b *jwt.Builder) { b.Audience([]string{"x"}) })),
		"expired":        unsigned(t, map[string]any{"alg": "none"}, claims(func(b *jwt.Builder) { b.Expiration(testNow.Add(-time.Hour)) })),
		"empty subject":  unsigned(t, map[string]any{"alg": "none"}, claims(func(b *jwt.Builder) { b.Subject("") })),
		"claims RS256":   sign(t, claims(nil), jwa.RS256(), newKeyPair(t, "k").private),
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
