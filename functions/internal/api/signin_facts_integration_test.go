package api

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// An order paid on account needs a verified email (docs/token-verification.md, "Sign-in
// facts"): an approved account whose sign-in's email is not verified is refused with a
// 409 saying what to do, and the same checkout places it once the email is verified.
func TestOrderOnAccountNeedsAVerifiedEmail(t *testing.T) {
	t.Parallel()
	s := newPagingShop(t)
	ctx := context.Background()
	u := testenv.NewUser(t)
	if err := s.st.SaveBilling(ctx, u.UID, store.Billing{Company: "Credit Cards Ltd", Contact: "Pat", PaymentMethod: "account",
		Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.st.SetApprovedForCredit(ctx, u.UID, true); err != nil {
		t.Fatal(err)
	}
	if err := s.st.SetLine(ctx, u.UID, s.p.SKU, 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	place := func(u testenv.User) (int, map[string]any) {
		return s.c.post("/api/orders", fmt.Sprintf(`{"token":%q,"idempotency_key":"verified-%s","delivery_option":"standard","same_as_billing":true}`, u.IDToken, u.UID), nil)
	}
	code, body := place(u)
	if code != http.StatusConflict || body["error"] != orders.ErrEmailNotVerified.Msg {
		t.Fatalf("unverified: %d %v", code, body)
	}
	if b, _ := s.st.Basket(ctx, u.UID); len(b.Lines) != 1 {
		t.Fatal("a refused order emptied the basket")
	}
	code, body = place(testenv.VerifyEmail(t, u))
	if code != http.StatusCreated {
		t.Fatalf("verified: %d %v", code, body)
	}
}

// claimsVerifier answers fixed claims per token: the emulator cannot issue a token whose
// auth_time is older than its sign-in, which is what this test needs.
type claimsVerifier map[string]auth.Claims

func (v claimsVerifier) Verify(_ context.Context, tok string) (auth.Claims, error) {
	if c, ok := v[tok]; ok {
		return c, nil
	}
	return auth.Claims{}, auth.ErrInvalidToken
}

// Changing the profile's email needs a password sign-in of the last 5 minutes; other
// profile changes, and a first email, do not.
func TestEmailChangeNeedsARecentSignIn(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	now := time.Now()
	v := claimsVerifier{
		"first":   {UID: "facts-1", Email: "old@shop.test", EmailVerified: true, AuthTime: now.Add(-time.Hour)},
		"stale":   {UID: "facts-1", Email: "new@shop.test", EmailVerified: true, AuthTime: now.Add(-6 * time.Minute)},
		"recent":  {UID: "facts-1", Email: "new@shop.test", EmailVerified: true, AuthTime: now.Add(-time.Minute)},
		"newUser": {UID: "facts-2", Email: "first@shop.test", AuthTime: now.Add(-time.Hour)},
	}
	if _, err := st.CreateProfile(ctx, store.Profile{UID: "facts-1", Business: "Facts Ltd", Email: "old@shop.test"}, now); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, NewHandler(testDeps(t, st, v)))
	save := func(tok, email string) (int, map[string]any) {
		return c.post("/api/profile", profileBody(tok, "Facts Ltd", "", email, 0), nil)
	}
	if code, body := save("first", "old@shop.test"); code != http.StatusOK {
		t.Fatalf("same email, old sign-in: %d %v", code, body)
	}
	if code, body := save("stale", "new@shop.test"); code != http.StatusForbidden || body["code"] != "recent_sign_in" {
		t.Fatalf("new email, sign-in 6 minutes ago: %d %v", code, body)
	}
	if p, _ := st.Profile(ctx, "facts-1"); p.Email != "old@shop.test" {
		t.Fatalf("a refused change wrote %q", p.Email)
	}
	if code, body := save("recent", "new@shop.test"); code != http.StatusOK || body["email"] != "new@shop.test" {
		t.Fatalf("new email, sign-in a minute ago: %d %v", code, body)
	}
	if code, body := save("newUser", "first@shop.test"); code != http.StatusOK {
		t.Fatalf("a first email, old sign-in: %d %v", code, body)
	}
}
