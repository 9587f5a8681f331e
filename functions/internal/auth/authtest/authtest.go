// Package authtest makes Firebase-shaped ID tokens signed with local test keys, and
// serves those keys as a JWK set, so tests exercise the production verification path
// offline.
package authtest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jwt"
)

// Key is an RSA signing key with its public half as a JWK.
type Key struct {
	Private jwk.Key
	Public  jwk.Key
	Raw     *rsa.PrivateKey
}

// NewKey makes a 2048-bit RS256 key with the given key id.
func NewKey(t testing.TB, kid string) Key {
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
	return Key{Private: priv, Public: pub, Raw: raw}
}

// HMACKeyFromPublic is the classic alg-confusion forgery: the public key's PEM used as
// an HS256 secret, under the same key id.
func (k Key) HMACKeyFromPublic(t testing.TB, kid string) jwk.Key {
	t.Helper()
	der, _ := x509.MarshalPKIXPublicKey(&k.Raw.PublicKey)
	h, err := jwk.Import(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	if err != nil {
		t.Fatal(err)
	}
	_ = h.Set(jwk.KeyIDKey, kid)
	return h
}

// KeyServer serves public keys as a JWK set, as Google's securetoken endpoint does, and
// counts its hits.
func KeyServer(t testing.TB, keys ...jwk.Key) (*httptest.Server, *atomic.Int32) {
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

// Claims builds a token for project and uid valid at now; mod changes it.
func Claims(project, uid string, now time.Time, mod func(*jwt.Builder)) jwt.Token {
	b := jwt.NewBuilder().
		Issuer("https://securetoken.google.com/"+project).
		Audience([]string{project}).
		Subject(uid).
		IssuedAt(now.Add(-time.Minute)).
		Expiration(now.Add(time.Hour)).
		Claim("auth_time", now.Add(-time.Minute).Unix()).
		Claim("email", uid+"@shop.test").
		Claim("name", "Business of "+uid)
	if mod != nil {
		mod(b)
	}
	tok, err := b.Build()
	if err != nil {
		panic(err)
	}
	return tok
}

// Sign signs a token with alg and key.
func Sign(t testing.TB, tok jwt.Token, alg jwa.SignatureAlgorithm, key any) string {
	t.Helper()
	out, err := jwt.Sign(tok, jwt.WithKey(alg, key))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// Unsigned makes an alg-none token with the given header.
func Unsigned(t testing.TB, header map[string]any, tok jwt.Token) string {
	t.Helper()
	h, _ := json.Marshal(header)
	p, _ := json.Marshal(tok)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(h) + "." + enc.EncodeToString(p) + "."
}

// Forged answers, by name, every kind of bad token the verifier must refuse, made for
// uid in project at now; good is the key the verifier trusts.
func Forged(t testing.TB, project, uid string, now time.Time, good Key) map[string]string {
	t.Helper()
	stranger := NewKey(t, "key-1")
	unknown := NewKey(t, "key-9")
	c := func(mod func(*jwt.Builder)) jwt.Token { return Claims(project, uid, now, mod) }
	rs := func(tok jwt.Token, k jwk.Key) string { return Sign(t, tok, jwa.RS256(), k) }
	return map[string]string{
		"empty":                "",
		"garbage":              "not.a.token",
		"unsigned alg none":    Unsigned(t, map[string]any{"alg": "none", "kid": "key-1", "typ": "JWT"}, c(nil)),
		"signed by a stranger": rs(c(nil), stranger.Private),
		"unknown kid":          rs(c(nil), unknown.Private),
		"alg switched to HS256 with the public key": Sign(t, c(nil), jwa.HS256(), good.HMACKeyFromPublic(t, "key-1")),
		"alg RS512":        Sign(t, c(nil), jwa.RS512(), good.Private),
		"wrong audience":   rs(c(func(b *jwt.Builder) { b.Audience([]string{"other-project"}) }), good.Private),
		"wrong issuer":     rs(c(func(b *jwt.Builder) { b.Issuer("https://securetoken.google.com/other-project") }), good.Private),
		"expired":          rs(c(func(b *jwt.Builder) { b.Expiration(now.Add(-time.Hour)) }), good.Private),
		"issued in future": rs(c(func(b *jwt.Builder) { b.IssuedAt(now.Add(time.Hour)) }), good.Private),
		"auth_time future": rs(c(func(b *jwt.Builder) { b.Claim("auth_time", now.Add(time.Hour).Unix()) }), good.Private),
		"empty subject":    rs(c(func(b *jwt.Builder) { b.Subject("") }), good.Private),
	}
}
