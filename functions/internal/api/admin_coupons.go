package api

import (
	"context"
	"net/http"

	"github.com/tradeshop/functions/internal/coupons"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
)

// handleAdminCoupons answers GET /api/admin/coupons: every coupon, by id.
func handleAdminCoupons(g staffGate, offers coupons.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		list, err := offers.List(r.Context())
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		page := adminCouponsPage{Coupons: make([]adminCouponAnswer, len(list))}
		for i, c := range list {
			page.Coupons[i] = couponAnswerOf(c)
		}
		encode(w, http.StatusOK, page)
	})
}

// couponFields is a coupon as staff send it: times Unix ms (0 for none), limits 0 for
// none. account_uid is kept on an edit as the coupon was made; used, taken so that a
// coupon can be sent back as it was read, is ignored: orders count uses.
type couponFields struct {
	ID              string `json:"id"`
	Description     string `json:"description"`
	Kind            string `json:"kind"`
	Percent         int    `json:"percent"`
	Amount          int64  `json:"amount"`
	MinSpend        int64  `json:"min_spend"`
	ValidFrom       int64  `json:"valid_from"`
	ValidTo         int64  `json:"valid_to"`
	UsageLimit      int    `json:"usage_limit"`
	PerAccountLimit int    `json:"per_account_limit"`
	Used            int    `json:"used"`
	AccountUID      string `json:"account_uid"`
	Version         int    `json:"version"`
}

func (c couponFields) coupon() store.StoredCoupon {
	var s store.StoredCoupon
	s.Coupon = pricing.Coupon{ID: c.ID, Kind: c.Kind, Percent: c.Percent, AmountPence: c.Amount, MinSpendPence: c.MinSpend,
		ValidFrom: timeOfUnixMilli(c.ValidFrom), ValidTo: timeOfUnixMilli(c.ValidTo), UsageLimit: c.UsageLimit, PerAccountLimit: c.PerAccountLimit}
	s.Description, s.AccountUID = c.Description, c.AccountUID
	return s
}

// couponSaveRequest is POST /api/admin/coupons[/{id}].
type couponSaveRequest struct {
	Token  string       `json:"token"`
	Coupon couponFields `json:"coupon"`
}

func (c couponSaveRequest) idToken() string { return c.Token }

func (c *couponSaveRequest) clean() map[string]string {
	var cl text.Cleaner
	cl.Clean(coupons.Description, &c.Coupon.Description)
	return cl.Problems
}

// Valid holds the wire's own rules (times are Unix ms, a version as read) and names the
// coupon's problems (coupons.Problems) under "coupon.", as the request nests them.
func (c couponSaveRequest) Valid(context.Context) map[string]string {
	p := map[string]string{}
	for field, problem := range coupons.Problems(c.Coupon.coupon()) {
		p["coupon."+field] = problem
	}
	if c.Coupon.ValidFrom < 0 || c.Coupon.ValidTo < 0 {
		p["coupon.valid_to"] = "The end must be a time in Unix milliseconds, or 0 for none."
	}
	if c.Coupon.Version < 0 {
		p["coupon.version"] = "The version must be the coupon's version as the page read it: reload the page."
	}
	return p
}

// handleAdminCouponSave answers POST /api/admin/coupons (create: 201, 409 if the id is
// taken) and POST /api/admin/coupons/{id} (edit on the version read: 200, 409 if it
// changed), with the coupon saved and its trail. Expiring is an edit that sets valid_to
// to now. The rules and the audit entry are coupons.Service's.
func handleAdminCouponSave(g staffGate, offers coupons.Service, create bool) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req couponSaveRequest) {
		var saved coupons.Saved
		var err error
		status := http.StatusOK
		if create {
			saved, err = offers.Create(r.Context(), req.Coupon.coupon(), by)
			status = http.StatusCreated
		} else {
			saved, err = offers.Edit(r.Context(), r.PathValue("id"), req.Coupon.coupon(), int64(req.Coupon.Version), by)
		}
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, status, adminCouponPage{Coupon: couponAnswerOf(saved.Coupon), Audit: auditAnswers(saved.Audit)})
	})
}
