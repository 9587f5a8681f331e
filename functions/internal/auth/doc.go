// Package auth verifies Firebase ID tokens.
//
// In production a token must be an RS256 JWS signed by one of the keys published at
// the key source (Google's securetoken JWK set by default, configurable so that tests
// can serve their own key), with the claims Firebase documents: aud = project id,
// iss = https://securetoken.google.com/<project>, exp in the future, iat and
// auth_time in the past, and a non-empty sub. The Auth emulator issues unsigned
// tokens; they are accepted only when FIREBASE_AUTH_EMULATOR_HOST is set, and the
// verifier refuses to be built that way when the stage is production.
// docs/token-verification.md records why this is lestrrat-go/jwx and not the
// Firebase Admin SDK.
package auth
