package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
)

// ProfileStore reads and writes trade account profiles.
type ProfileStore interface {
	Profile(ctx context.Context, uid string) (store.Profile, error)
	CreateProfile(ctx context.Context, p store.Profile, at time.Time) (store.Profile, error)
	UpdateProfile(ctx context.Context, uid string, u store.ProfileUpdate, at time.Time) (store.Profile, error)
}

// emailPattern is SPEC.md's email check (local part, @, a domain or bracketed IP, a
// top-level domain of at least 2 letters), applied to the lowercased text. The site's
// lib/validation.ts holds the same pattern.
var emailPattern = regexp.MustCompile(`^(([^<>()\[\]\\.,;:\s@"]+(\.[^<>()\[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$`)

// telephonePattern allows UK and international numbers as people type them.
var telephonePattern = regexp.MustCompile(`^\+?[0-9 ()-]{7,24}$`)

// ValidEmail reports whether s is an email address by SPEC.md's rule.
func ValidEmail(s string) bool { return emailPattern.MatchString(strings.ToLower(s)) }

// profileAnswer is what getProfile and profile answer.
type profileAnswer struct {
	Business       string `json:"business"`
	Email          string `json:"email"`
	Telephone      string `json:"telephone"`
	OptInMarketing int    `json:"optInMarketing"`
	ActiveCouponID string `json:"active_coupon_id"`
	DSC            string `json:"dsc"`
}

func answerProfile(p store.Profile, defaults map[string]int) (profileAnswer, error) {
	merged, err := pricing.MergeDiscounts(defaults, p.DSC)
	if err != nil {
		return profileAnswer{}, err
	}
	dsc, err := json.Marshal(merged)
	if err != nil {
		return profileAnswer{}, err
	}
	return profileAnswer{Business: p.Business, Email: p.Email, Telephone: p.Telephone, OptInMarketing: p.OptInMarketing,
		ActiveCouponID: p.ActiveCouponID, DSC: string(dsc)}, nil
}

// writeProfile answers a profile with its discounts merged over the defaults.
func writeProfile(w http.ResponseWriter, r *http.Request, log *slog.Logger, p store.Profile, defaults map[string]int) {
	a, err := answerProfile(p, defaults)
	if err != nil {
		writeError(w, r, log, err)
		return
	}
	encode(w, http.StatusOK, a)
}

// handleGetProfile answers POST /api/getProfile {token}. A missing profile, or one with
// neither business nor email, is created from the sign-in's display name and email.
func handleGetProfile(log *slog.Logger, verify auth.Verifier, profiles ProfileStore, shop config.Shop, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		p, err := profiles.Profile(r.Context(), who.UID)
		if err != nil && !isNotFound(err) {
			writeError(w, r, log, err)
			return
		}
		if err != nil || (p.Business == "" && p.Email == "") {
			// The sign-in's display name becomes the business name only if the business
			// name's rule accepts it (cleaned); any other name is not stored, and the buyer
			// gives the business name on Update Your Details (docs/accounts.md).
			business, bad := account.BusinessName.Clean(who.Name)
			if bad != nil {
				business = ""
			}
			p, err = profiles.CreateProfile(r.Context(), store.Profile{UID: who.UID, Business: business, Email: strings.ToLower(who.Email)}, now())
			if err != nil {
				writeError(w, r, log, err)
				return
			}
		}
		writeProfile(w, r, log, p, shop.DefaultDiscounts)
	})
}

// profileRequest is POST /api/profile's body: {payLoad: {...}}.
type profileRequest struct {
	PayLoad profilePayload `json:"payLoad"`
}

type profilePayload struct {
	Business       string `json:"business"`
	Telephone      string `json:"telephone"`
	Email          string `json:"email"`
	OptInMarketing *int   `json:"optInMarketing"`
	Token          string `json:"token"`
}

func (p profileRequest) idToken() string { return p.PayLoad.Token }

// clean puts the business name in the text rule's form.
func (p *profileRequest) clean() map[string]string {
	var c text.Cleaner
	c.Clean(account.BusinessName, &p.PayLoad.Business)
	return c.Problems
}

// Valid names every field that is wrong; the business name is the text rule's (clean).
func (p profileRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if t := strings.TrimSpace(p.PayLoad.Telephone); t != "" && (!telephonePattern.MatchString(t) || countDigits(t) < 7) {
		problems["telephone"] = "Enter a telephone number of at least 7 digits, such as 01632 960 123."
	}
	if e := strings.TrimSpace(p.PayLoad.Email); !ValidEmail(e) || len(e) > 254 {
		problems["email"] = "Enter an email address such as buyer@yourshop.co.uk."
	}
	if o := p.PayLoad.OptInMarketing; o == nil || (*o != 0 && *o != 1) {
		problems["optInMarketing"] = "Marketing must be 0 (no marketing emails) or 1 (send them)."
	}
	return problems
}

func countDigits(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}

// handleUpdateProfile answers POST /api/profile (CSRF-protected). The email must be the
// one the buyer signs in with: changing it is done with the password first (the
// Update Your Details page), so the profile cannot drift from the sign-in.
func handleUpdateProfile(log *slog.Logger, verify auth.Verifier, profiles ProfileStore, shop config.Shop, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req profileRequest) {
		email := strings.ToLower(strings.TrimSpace(req.PayLoad.Email))
		if !strings.EqualFold(email, who.Email) {
			writeError(w, r, log, invalidField("email", "The email must be the one you sign in with: change your sign-in email first."))
			return
		}
		if err := recentForEmailChange(r.Context(), profiles, who, email, now()); err != nil {
			writeError(w, r, log, err)
			return
		}
		p, err := profiles.UpdateProfile(r.Context(), who.UID, store.ProfileUpdate{
			Business: req.PayLoad.Business, Telephone: strings.TrimSpace(req.PayLoad.Telephone),
			Email: email, OptInMarketing: *req.PayLoad.OptInMarketing,
		}, now())
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		writeProfile(w, r, log, p, shop.DefaultDiscounts)
	})
}

// recentForEmailChange refuses a change of the profile's email (the shop's record of the
// sign-in email) from a sign-in older than auth.RecentSignIn: the Update Your Details page
// signs in again with the password just before it. Setting an email on a profile without
// one is no change.
func recentForEmailChange(ctx context.Context, profiles ProfileStore, who auth.Claims, email string, now time.Time) error {
	old, err := profiles.Profile(ctx, who.UID)
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if old.Email == "" || strings.EqualFold(old.Email, email) || who.SignedInWithin(auth.RecentSignIn, now) {
		return nil
	}
	return errNeedsRecentSignIn
}
