package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
)

// adminCoupon is a coupon as staff see and send it (times Unix seconds, 0 for none;
// limits 0 for none).
type adminCoupon struct {
	ID              string `json:"id"`
	Description     string `json:"description"`
	Kind            string `json:"kind"`
	Percent         int    `json:"percent"`
	AmountPence     int64  `json:"amount_pence"`
	MinSpendPence   int64  `json:"min_spend_pence"`
	ValidFrom       int64  `json:"valid_from"`
	ValidTo         int64  `json:"valid_to"`
	UsageLimit      int    `json:"usage_limit"`
	PerAccountLimit int    `json:"per_account_limit"`
	Used            int    `json:"used"`
	AccountUID      string `json:"account_uid"`
	Version         int64  `json:"version"`
}

func unixSecondsOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func timeOfUnix(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}

func couponAnswerOf(c store.StaffCoupon) adminCoupon {
	return adminCoupon{ID: c.ID, Description: c.Description, Kind: c.Kind, Percent: c.Percent, AmountPence: c.AmountPence,
		MinSpendPence: c.MinSpendPence, ValidFrom: unixSecondsOrZero(c.ValidFrom), ValidTo: unixSecondsOrZero(c.ValidTo), UsageLimit: c.UsageLimit,
		PerAccountLimit: c.PerAccountLimit, Used: c.Used, AccountUID: c.AccountUID, Version: c.Version}
}

func (c adminCoupon) toStored() store.StoredCoupon {
	var s store.StoredCoupon
	s.Coupon = pricing.Coupon{ID: c.ID, Kind: c.Kind, Percent: c.Percent, AmountPence: c.AmountPence, MinSpendPence: c.MinSpendPence,
		ValidFrom: timeOfUnix(c.ValidFrom), ValidTo: timeOfUnix(c.ValidTo), UsageLimit: c.UsageLimit, PerAccountLimit: c.PerAccountLimit}
	s.Description, s.AccountUID = c.Description, c.AccountUID
	return s
}

// auditFields are the fields of a coupon staff set, for its audit trail.
func (c adminCoupon) auditFields() map[string]any {
	return map[string]any{"description": c.Description, "kind": c.Kind, "percent": c.Percent, "amount_pence": c.AmountPence,
		"min_spend_pence": c.MinSpendPence, "valid_from": c.ValidFrom, "valid_to": c.ValidTo, "usage_limit": c.UsageLimit,
		"per_account_limit": c.PerAccountLimit}
}

// handleAdminCoupons answers GET /api/admin/coupons: every coupon, by id.
func handleAdminCoupons(d Deps) http.Handler {
	return staffGet(d.Log, d, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		list, err := d.Store.Coupons(r.Context())
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		page := struct {
			Coupons []adminCoupon `json:"coupons"`
		}{Coupons: make([]adminCoupon, len(list))}
		for i, c := range list {
			page.Coupons[i] = couponAnswerOf(c)
		}
		encode(w, http.StatusOK, page)
	})
}

// CouponDescription is a coupon's description under the one text rule.
var CouponDescription = text.Field{Name: "coupon.description", Label: "Description", Min: 3, Max: 200}

// couponSaveRequest is POST /api/admin/coupons[/{id}].
type couponSaveRequest struct {
	Token  string      `json:"token"`
	Coupon adminCoupon `json:"coupon"`
}

func (c couponSaveRequest) idToken() string { return c.Token }

func (c *couponSaveRequest) clean() map[string]string {
	var cl text.Cleaner
	cl.Clean(CouponDescription, &c.Coupon.Description)
	return cl.Problems
}

// maxCouponPence bounds a coupon's amounts (pence): £100,000.
const maxCouponPence = 10_000_000

func (c couponSaveRequest) Valid(context.Context) map[string]string {
	p := map[string]string{}
	cp := c.Coupon
	if !pricing.ValidCouponID(cp.ID) {
		p["coupon.id"] = "The code must be 3 to 20 capital letters and digits, like TRADE10."
	}
	switch cp.Kind {
	case "percent":
		if cp.Percent < 1 || cp.Percent > 100 {
			p["coupon.percent"] = "The percentage must be a whole percentage from 1 to 100."
		}
		if cp.AmountPence != 0 {
			p["coupon.amount_pence"] = "The amount must be 0 for a percentage coupon."
		}
	case "fixed":
		if cp.AmountPence < 1 || cp.AmountPence > maxCouponPence {
			p["coupon.amount_pence"] = "The amount must be from 1p to £100,000."
		}
		if cp.Percent != 0 {
			p["coupon.percent"] = "The percentage must be 0 for a fixed amount coupon."
		}
	default:
		p["coupon.kind"] = `The kind must be "percent" or "fixed".`
	}
	if cp.MinSpendPence < 0 || cp.MinSpendPence > maxCouponPence {
		p["coupon.min_spend_pence"] = "The minimum spend must be from £0 to £100,000."
	}
	if cp.ValidFrom < 0 || cp.ValidTo < 0 {
		p["coupon.valid_to"] = "The end must be a time in Unix seconds, or 0 for none."
	} else if cp.ValidFrom != 0 && cp.ValidTo != 0 && cp.ValidTo <= cp.ValidFrom {
		p["coupon.valid_to"] = "The end must be after the start."
	}
	if cp.UsageLimit < 0 || cp.UsageLimit > 1_000_000 {
		p["coupon.usage_limit"] = "The usage limit must be from 0 (no limit) to 1,000,000."
	}
	if cp.PerAccountLimit < 0 || cp.PerAccountLimit > 1_000_000 {
		p["coupon.per_account_limit"] = "The limit per account must be from 0 (no limit) to 1,000,000."
	}
	if cp.AccountUID != "" && !validUID(cp.AccountUID) {
		p["coupon.account_uid"] = "The account must be an account's uid, or empty for every account."
	}
	if cp.Version < 0 {
		p["coupon.version"] = "The version must be the coupon's version as the page read it: reload the page."
	}
	return p
}

// handleAdminCouponSave answers POST /api/admin/coupons (create: 201, 409 if the id is
// taken) and POST /api/admin/coupons/{id} (edit on the version read: 200, 409 if it
// changed). Expiring is an edit that sets valid_to to now. Uses so far are the orders'.
func handleAdminCouponSave(d Deps, create bool) http.Handler {
	return staffPost(d.Log, d, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req couponSaveRequest) {
		cp := req.Coupon
		change := store.CouponChange{Coupon: cp.toStored(), Create: create, Seen: cp.Version,
			Audit: orders.AuditEntry{At: d.Now(), By: by, Action: "coupon", After: cp.auditFields()}}
		status := http.StatusCreated
		if create {
			change.Audit.Action = "coupon created"
		} else {
			status = http.StatusOK
			if r.PathValue("id") != cp.ID {
				writeError(w, r, d.Log, invalidField("coupon.id", "The code must be the coupon's code in the path (a code cannot be changed)."))
				return
			}
			old, err := d.Store.StaffCouponByID(r.Context(), cp.ID)
			if err != nil {
				writeError(w, r, d.Log, err)
				return
			}
			change.Audit.Before = couponAnswerOf(old).auditFields()
			change.Coupon.AccountUID = old.AccountUID
		}
		err := d.Store.ChangeCoupon(r.Context(), change)
		if errors.Is(err, store.ErrChanged) {
			if create {
				err = &shoperr.ConflictError{Msg: fmt.Sprintf("A coupon %s exists already: choose another code, or edit that one.", cp.ID)}
			} else {
				err = staleError("The coupon " + cp.ID)
			}
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		saved, err := d.Store.StaffCouponByID(r.Context(), cp.ID)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		audit, err := d.Store.Audit(r.Context(), store.AuditCoupon+cp.ID)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, status, struct {
			Coupon adminCoupon   `json:"coupon"`
			Audit  []auditAnswer `json:"audit"`
		}{couponAnswerOf(saved), auditAnswers(audit)})
	})
}

// adminProductAnswer is a product's stock as staff see it. Status is "active" or
// "discontinued": staff still read and change a discontinued product's stock, though
// the shop no longer shows or sells it.
type adminProductAnswer struct {
	SKU      string `json:"sku"`
	Name     string `json:"name"`
	PackSize int    `json:"pack_size"`
	Stock    int    `json:"stock"`
	Status   string `json:"status"`
}

// adminProductOf is p as staff see it; a product without a status (written before
// statuses) is active.
func adminProductOf(p catalogue.Product) adminProductAnswer {
	status := catalogue.StatusActive
	if p.Discontinued() {
		status = catalogue.StatusDiscontinued
	}
	return adminProductAnswer{SKU: p.SKU, Name: p.Name, PackSize: p.PackSize, Stock: p.Stock, Status: status}
}

type adminProductPage struct {
	Product adminProductAnswer `json:"product"`
	Audit   []auditAnswer      `json:"audit"`
}

func productPage(ctx context.Context, st *store.Store, sku string) (adminProductPage, error) {
	p, err := st.Product(ctx, sku)
	if errors.Is(err, store.ErrNotFound) {
		return adminProductPage{}, &shoperr.NotFoundError{Msg: fmt.Sprintf("There is no product %s.", sku)}
	}
	if err != nil {
		return adminProductPage{}, err
	}
	audit, err := st.Audit(ctx, store.AuditProduct+sku)
	if err != nil {
		return adminProductPage{}, err
	}
	return adminProductPage{Product: adminProductOf(p), Audit: auditAnswers(audit)}, nil
}

// handleAdminProduct answers GET /api/admin/products/{sku}: its stock and audit trail.
func handleAdminProduct(d Deps) http.Handler {
	return staffGet(d.Log, d, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		sku := r.PathValue("sku")
		if !catalogue.ValidSKU(sku) {
			writeError(w, r, d.Log, &shoperr.NotFoundError{Msg: fmt.Sprintf("There is no product %s.", sku)})
			return
		}
		page, err := productPage(r.Context(), d.Store, sku)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, page)
	})
}

// StockReason is why staff changed a product's stock, under the one text rule.
var StockReason = text.Field{Name: "reason", Label: "Reason", Min: 3, Max: 200}

// maxStock bounds a product's stock (units).
const maxStock = 10_000_000

// stockRequest is POST /api/admin/products/{sku}/stock.
type stockRequest struct {
	Token    string `json:"token"`
	Mode     string `json:"mode"`
	Quantity int    `json:"quantity"`
	Expected *int   `json:"expected"`
	Reason   string `json:"reason"`
}

func (s stockRequest) idToken() string { return s.Token }

func (s *stockRequest) clean() map[string]string {
	var c text.Cleaner
	c.Clean(StockReason, &s.Reason)
	return c.Problems
}

func (s stockRequest) Valid(context.Context) map[string]string {
	p := map[string]string{}
	switch s.Mode {
	case "set":
		if s.Quantity < 0 || s.Quantity > maxStock {
			p["quantity"] = "The quantity must be the new stock in units, from 0 to 10,000,000."
		}
		if s.Expected == nil {
			p["expected"] = "The expected stock is required to set the stock: the stock the page showed."
		}
	case "adjust":
		if s.Quantity == 0 || s.Quantity < -maxStock || s.Quantity > maxStock {
			p["quantity"] = "The quantity must be the units to add (negative to take away), not 0."
		}
	default:
		p["mode"] = `The mode must be "set" or "adjust".`
	}
	return p
}

// stockAttempts bounds the tries of an adjustment that races orders.
const stockAttempts = 5

// handleAdminStock answers POST /api/admin/products/{sku}/stock: sets the stock (on
// condition it is still what the page showed) or adjusts it by a number of units (read,
// then written on condition nothing moved it meanwhile, tried again if an order did),
// with the reason in the audit trail. Stock never goes below 0.
func handleAdminStock(d Deps) http.Handler {
	return staffPost(d.Log, d, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req stockRequest) {
		sku := r.PathValue("sku")
		if !catalogue.ValidSKU(sku) {
			writeError(w, r, d.Log, &shoperr.NotFoundError{Msg: fmt.Sprintf("There is no product %s.", sku)})
			return
		}
		var err error
		for attempt := 0; attempt < stockAttempts; attempt++ {
			var page adminProductPage
			if page, err = productPage(r.Context(), d.Store, sku); err != nil {
				break
			}
			from := page.Product.Stock
			to := req.Quantity
			if req.Mode == "set" && *req.Expected != from {
				err = &shoperr.ConflictError{Msg: fmt.Sprintf("The stock of %s is now %d, not %d (an order or someone else changed it): check it and set it again.", sku, from, *req.Expected)}
				break
			}
			if req.Mode == "adjust" {
				to = from + req.Quantity
			}
			if to < 0 || to > maxStock {
				err = &shoperr.ConflictError{Msg: fmt.Sprintf("The stock of %s is %d: taking away %d would leave less than none.", sku, from, -req.Quantity)}
				break
			}
			err = d.Store.ChangeStock(r.Context(), store.StockChange{SKU: sku, From: from, To: to, Audit: orders.AuditEntry{At: d.Now(), By: by,
				Action: "stock " + req.Mode + ": " + req.Reason, Before: map[string]any{"stock": from}, After: map[string]any{"stock": to}}})
			if !errors.Is(err, store.ErrChanged) || req.Mode == "set" {
				break
			}
		}
		if errors.Is(err, store.ErrChanged) {
			err = staleError("The stock of " + sku)
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		page, err := productPage(r.Context(), d.Store, sku)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, page)
	})
}
