package coupons

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
)

// Store is what the back office's coupon work needs of the shop's store.
type Store interface {
	// Coupons reads every coupon, by id.
	Coupons(ctx context.Context) ([]store.StaffCoupon, error)
	// StaffCouponByID reads one coupon with its version; store.ErrNotFound when there is none.
	StaffCouponByID(ctx context.Context, id string) (store.StaffCoupon, error)
	// ChangeCoupon writes a change and its audit entry in one transaction;
	// store.ErrChanged when the coupon changed since it was read, or (Create) its id is taken.
	ChangeCoupon(ctx context.Context, c store.CouponChange) error
	// Audit reads the newest entries of a thing's audit trail (store.AuditCoupon+id).
	Audit(ctx context.Context, thing string) ([]orders.AuditEntry, error)
}

var _ Store = (*store.Store)(nil)

// Description is a coupon's description under the one text rule.
var Description = text.Field{Name: "coupon.description", Label: "Description", Min: 3, Max: 200}

// The kinds of coupon.
const (
	KindPercent = "percent"
	KindFixed   = "fixed"
)

// MaxPence bounds a coupon's amounts (pence): £100,000.
const MaxPence = 10_000_000

// MaxLimit bounds a coupon's usage limits.
const MaxLimit = 1_000_000

// Service carries out staff's work on coupons.
type Service struct {
	Store Store
	Now   func() time.Time
}

// Saved is a coupon as it is after a save, with its audit trail (newest first).
type Saved struct {
	Coupon store.StaffCoupon
	Audit  []orders.AuditEntry
}

// List answers every coupon, by id.
func (s Service) List(ctx context.Context) ([]store.StaffCoupon, error) {
	return s.Store.Coupons(ctx)
}

// Problems answers what is wrong with coupon c as staff would save it, by field name
// (empty when nothing is): the id's shape, an amount or a percentage that fits its kind,
// the bounds of the minimum spend and the limits, a validity that ends after it starts,
// and an account uid that could be one. The description's text rule is Description's.
func Problems(c store.StoredCoupon) map[string]string {
	p := map[string]string{}
	if !pricing.ValidCouponID(c.ID) {
		p["id"] = "The code must be 3 to 20 capital letters and digits, like TRADE10."
	}
	switch c.Kind {
	case KindPercent:
		if c.Percent < 1 || c.Percent > 100 {
			p["percent"] = "The percentage must be a whole percentage from 1 to 100."
		}
		if c.AmountPence != 0 {
			p["amount"] = "The amount must be 0 for a percentage coupon."
		}
	case KindFixed:
		if c.AmountPence < 1 || c.AmountPence > MaxPence {
			p["amount"] = "The amount must be from 1p to £100,000."
		}
		if c.Percent != 0 {
			p["percent"] = "The percentage must be 0 for a fixed amount coupon."
		}
	default:
		p["kind"] = `The kind must be "percent" or "fixed".`
	}
	if c.MinSpendPence < 0 || c.MinSpendPence > MaxPence {
		p["min_spend"] = "The minimum spend must be from £0 to £100,000."
	}
	if !c.ValidFrom.IsZero() && !c.ValidTo.IsZero() && !c.ValidTo.After(c.ValidFrom) {
		p["valid_to"] = "The end must be after the start."
	}
	if c.UsageLimit < 0 || c.UsageLimit > MaxLimit {
		p["usage_limit"] = "The usage limit must be from 0 (no limit) to 1,000,000."
	}
	if c.PerAccountLimit < 0 || c.PerAccountLimit > MaxLimit {
		p["per_account_limit"] = "The limit per account must be from 0 (no limit) to 1,000,000."
	}
	if c.AccountUID != "" && !account.ValidUID(c.AccountUID) {
		p["account_uid"] = "The account must be an account's uid, or empty for every account."
	}
	return p
}

// Create saves a new coupon c, audited as created by staff member by: the coupon and its
// trail, or a *shoperr.ConflictError when its id is taken.
func (s Service) Create(ctx context.Context, c store.StoredCoupon, by orders.Staff) (Saved, error) {
	change := store.CouponChange{Coupon: c, Create: true,
		Audit: orders.AuditEntry{At: s.Now(), By: by, Action: "coupon created", After: auditFields(c)}}
	err := s.Store.ChangeCoupon(ctx, change)
	if errors.Is(err, store.ErrChanged) {
		return Saved{}, &shoperr.ConflictError{Msg: fmt.Sprintf("A coupon %s exists already: choose another code, or edit that one.", c.ID)}
	}
	if err != nil {
		return Saved{}, err
	}
	return s.read(ctx, c.ID)
}

// Edit saves coupon c over coupon id on the version the page read, audited with the
// fields before and after: the coupon and its trail. The id cannot be changed (a
// *shoperr.FieldError on coupon.id), nor the account a coupon was made for (kept as it
// is); uses so far are the orders' to count. Someone else's save since the page read it
// is a *shoperr.ConflictError. Expiring is an edit that sets ValidTo to now.
func (s Service) Edit(ctx context.Context, id string, c store.StoredCoupon, version int64, by orders.Staff) (Saved, error) {
	if c.ID != id {
		return Saved{}, &shoperr.FieldError{Field: "coupon.id", Problem: "The code must be the coupon's code in the path (a code cannot be changed)."}
	}
	old, err := s.Store.StaffCouponByID(ctx, id)
	if err != nil {
		return Saved{}, err
	}
	c.AccountUID = old.AccountUID
	change := store.CouponChange{Coupon: c, Seen: version,
		Audit: orders.AuditEntry{At: s.Now(), By: by, Action: "coupon", Before: auditFields(old.StoredCoupon), After: auditFields(c)}}
	err = s.Store.ChangeCoupon(ctx, change)
	if errors.Is(err, store.ErrChanged) {
		return Saved{}, orders.ChangedMeanwhile("The coupon " + id)
	}
	if err != nil {
		return Saved{}, err
	}
	return s.read(ctx, id)
}

// read answers coupon id as it is now, with its trail.
func (s Service) read(ctx context.Context, id string) (Saved, error) {
	saved, err := s.Store.StaffCouponByID(ctx, id)
	if err != nil {
		return Saved{}, err
	}
	audit, err := s.Store.Audit(ctx, store.AuditCoupon+id)
	if err != nil {
		return Saved{}, err
	}
	trail := make([]orders.AuditEntry, len(audit))
	for i, e := range audit {
		e.Before, e.After = onTheWire(e.Before), onTheWire(e.After)
		trail[i] = e
	}
	return Saved{Coupon: saved, Audit: trail}, nil
}

// auditFields are the fields of a coupon staff set, as its audit trail keeps them: times
// in Unix seconds (0 for none) and the amounts under keys ending _pence, as the trail has
// kept them from the start, so that old and new entries agree; Saved's trail answers them
// in the wire's terms (onTheWire). Limits are 0 for none.
func auditFields(c store.StoredCoupon) map[string]any {
	return map[string]any{"description": c.Description, "kind": c.Kind, "percent": c.Percent, "amount_pence": c.AmountPence,
		"min_spend_pence": c.MinSpendPence, "valid_from": unixOrZero(c.ValidFrom), "valid_to": unixOrZero(c.ValidTo),
		"usage_limit": c.UsageLimit, "per_account_limit": c.PerAccountLimit}
}

func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

// trailTimes are the fields of a coupon's audit entries kept in Unix seconds.
var trailTimes = []string{"valid_from", "valid_to"}

// trailMoney are the trail's keys of amounts, by the key the wire names them with
// (docs/api.md "The wire contract": money is pence, so a key never says _pence).
var trailMoney = map[string]string{"amount_pence": "amount", "min_spend_pence": "min_spend"}

// onTheWire is a trail entry's fields as every answer carries them: trailTimes in Unix
// ms and trailMoney under the wire's keys. The entries stored are left as written.
func onTheWire(fields map[string]any) map[string]any {
	if fields == nil {
		return nil
	}
	out := make(map[string]any, len(fields))
	for k, v := range fields {
		if wire, ok := trailMoney[k]; ok {
			k = wire
		}
		out[k] = v
	}
	for _, k := range trailTimes {
		switch v := fields[k].(type) {
		case int64:
			out[k] = v * 1000
		case int:
			out[k] = int64(v) * 1000
		case float64:
			out[k] = int64(v) * 1000
		}
	}
	return out
}
