package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// couponPrefix marks a coupon id in a profile's active_coupon_id; the coupon endpoints
// take and give ids without it (SPEC.md section 7).
const couponPrefix = store.CouponPrefix

// couponRequest is {token, active_coupon_id} with the id sent without its prefix.
type couponRequest struct {
	Token          string `json:"token"`
	ActiveCouponID string `json:"active_coupon_id"`
}

func (c couponRequest) idToken() string { return c.Token }

func (c couponRequest) Valid(context.Context) map[string]string {
	if c.ActiveCouponID != "" && !pricing.ValidCouponID(c.ActiveCouponID) {
		return map[string]string{"active_coupon_id": "must be a coupon code of 3 to 20 capital letters and digits, without the coupon- prefix"}
	}
	return nil
}

// couponAnswer describes a coupon to its holder.
type couponAnswer struct {
	ActiveCouponID string `json:"active_coupon_id"`
	Description    string `json:"description,omitempty"`
	Kind           string `json:"kind,omitempty"`
	Percent        int    `json:"percent,omitempty"`
	Amount         int64  `json:"amount,omitempty"`    // pence off, for kind "amount"
	MinSpend       int64  `json:"min_spend,omitempty"` // pence ex VAT the basket's goods must reach
	// ValidTo is when the coupon stops working (it works until, not at, that moment).
	ValidTo *unixMillis `json:"valid_to,omitempty"`
}

// usableCoupon reads coupon id for uid: unknown, or another account's, is the same 404
// (so nobody can probe other accounts' codes); expired, not started, used up, or used
// as often as this account may is a 409.
func usableCoupon(ctx context.Context, st BasketStore, uid, id string, now time.Time) (store.StoredCoupon, error) {
	_, found, err := st.ProductsAndCoupon(ctx, uid, nil, id)
	if err != nil {
		return store.StoredCoupon{}, err
	}
	if found == nil || (found.AccountUID != "" && found.AccountUID != uid) {
		return store.StoredCoupon{}, &shoperr.NotFoundError{Msg: "There is no coupon " + id + "."}
	}
	c := *found
	// The minimum spend is checked against the basket when it is priced, not here.
	if err := pricing.CheckCoupon(c.Coupon, c.MinSpendPence, now); err != nil {
		return c, &shoperr.ConflictError{Msg: err.Error()}
	}
	return c, nil
}

func describeCoupon(c store.StoredCoupon) couponAnswer {
	a := couponAnswer{ActiveCouponID: c.ID, Description: c.Description, Kind: c.Kind, Percent: c.Percent,
		Amount: c.AmountPence, MinSpend: c.MinSpendPence, ValidTo: msOrNull(c.ValidTo)}
	return a
}

// handleGetCoupon answers POST /api/getCoupon {token, active_coupon_id}: the coupon's
// terms if the caller may use it. Errors are logged and returned.
func handleGetCoupon(log *slog.Logger, verify auth.Verifier, st BasketStore, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req couponRequest) {
		if req.ActiveCouponID == "" {
			writeError(w, r, log, invalidField("active_coupon_id", "Enter a coupon code."))
			return
		}
		c, err := usableCoupon(r.Context(), st, who.UID, req.ActiveCouponID, now())
		if err != nil {
			log.InfoContext(r.Context(), "coupon refused", "err", err)
			writeError(w, r, log, err)
			return
		}
		encode(w, http.StatusOK, describeCoupon(c))
	})
}

// handleUpdateCoupon answers POST /api/updateCoupon {token, active_coupon_id}: makes it
// the account's one active coupon ("" clears it). Errors are logged and returned.
func handleUpdateCoupon(log *slog.Logger, verify auth.Verifier, st BasketStore, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req couponRequest) {
		if req.ActiveCouponID == "" {
			if err := st.SetActiveCoupon(r.Context(), who.UID, "", now()); err != nil {
				writeError(w, r, log, err)
				return
			}
			encode(w, http.StatusOK, couponAnswer{})
			return
		}
		c, err := usableCoupon(r.Context(), st, who.UID, req.ActiveCouponID, now())
		if err == nil {
			err = st.SetActiveCoupon(r.Context(), who.UID, couponPrefix+c.ID, now())
		}
		if err != nil {
			log.InfoContext(r.Context(), "coupon refused", "err", err)
			writeError(w, r, log, err)
			return
		}
		encode(w, http.StatusOK, describeCoupon(c))
	})
}
