package tradeaccounts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// Store is what the back office's work on trade accounts needs of the shop's store.
type Store interface {
	// StaffAccounts reads at most n accounts by business name matching q, after from.
	StaffAccounts(ctx context.Context, q string, from *store.ListCursor, n int) ([]store.Profile, *store.ListCursor, error)
	// Profile reads one account; store.ErrNotFound when there is none.
	Profile(ctx context.Context, uid string) (store.Profile, error)
	// ChangeAccount writes a change and its audit entry in one transaction;
	// store.ErrChanged when the account changed since it was read.
	ChangeAccount(ctx context.Context, c store.AccountChange) error
	// Audit reads the newest entries of a thing's audit trail (store.AuditAccount+uid).
	Audit(ctx context.Context, thing string) ([]orders.AuditEntry, error)
	// PriceGroup reads one price group as it is now; store.ErrNotFound when there is none.
	PriceGroup(ctx context.Context, id string) (pricing.Group, error)
}

var _ Store = (*store.Store)(nil)

// PerPage is the size of a page of the accounts list.
const PerPage = 25

// MaxCreditLimit bounds a credit limit (pence): £1,000,000.
const MaxCreditLimit = 100_000_000

// maxDSC bounds an account's own discounts as JSON (characters).
const maxDSC = 4000

// Change is a member of staff's change of an account, on the version (its updated_at
// in Unix ms) the page read.
type Change struct {
	Version           int64
	ApprovedForCredit bool
	CreditLimit       *int64 // pence; nil: no limit set
	DSC               string // the account's own discounts as a JSON object; "" for none
	PriceGroup        string // the id of the account's price group; "" for none
	By                orders.Staff
}

// Problems answers what is wrong with change c, by field name (empty when nothing is):
// a version the page read, a limit to approve for credit within its bounds, own
// discounts the pricing rules take (pricing.MergeDiscounts) and a price group id of the
// right shape (Change finds out whether the group exists).
func Problems(c Change) map[string]string {
	p := map[string]string{}
	if c.Version <= 0 {
		p["version"] = "The version must be the account's version as the page read it: reload the page."
	}
	switch {
	case c.ApprovedForCredit && c.CreditLimit == nil:
		p["credit_limit"] = "A credit limit is required to approve the account for credit."
	case c.CreditLimit != nil && (*c.CreditLimit < 0 || *c.CreditLimit > MaxCreditLimit):
		p["credit_limit"] = "The credit limit must be between £0 and £1,000,000."
	}
	if c.DSC != "" {
		if len(c.DSC) > maxDSC {
			p["dsc"] = "The discounts must be at most 4000 characters."
		} else if _, err := pricing.MergeDiscounts(nil, c.DSC); err != nil {
			p["dsc"] = "The discounts must be a JSON object of \"range:url-text\", \"category:id\" or \"product:SKU\" to a whole percentage from 0 to 100 (" + err.Error() + ")."
		}
	}
	if c.PriceGroup != "" && !pricing.ValidGroupID(c.PriceGroup) {
		p["price_group"] = "The price group must be the id of one of the shop's price groups, or empty for none."
	}
	return p
}

// CanonicalDSC is dsc as the shop stores it: keys sorted, no spaces ("" for none).
func CanonicalDSC(dsc string) string {
	if dsc == "" {
		return ""
	}
	var m map[string]int
	if json.Unmarshal([]byte(dsc), &m) != nil || len(m) == 0 {
		return ""
	}
	b, _ := json.Marshal(m) // encoding/json writes map keys sorted
	return string(b)
}

// Service carries out staff's work on trade accounts.
type Service struct {
	Store Store
	Now   func() time.Time
}

// Record is an account as staff see it, with its audit trail (newest first).
type Record struct {
	Account store.Profile
	Audit   []orders.AuditEntry
}

// List answers a page of accounts by business name matching q (business or email),
// after from, and where the next page starts (nil: this is the last).
func (s Service) List(ctx context.Context, q string, from *store.ListCursor) ([]store.Profile, *store.ListCursor, error) {
	return s.Store.StaffAccounts(ctx, q, from, PerPage)
}

// Read answers account uid with its trail; store.ErrNotFound when there is none (a uid
// of the wrong shape is never looked up).
func (s Service) Read(ctx context.Context, uid string) (Record, error) {
	if !account.ValidUID(uid) {
		return Record{}, store.ErrNotFound
	}
	p, err := s.Store.Profile(ctx, uid)
	if err != nil {
		return Record{}, err
	}
	audit, err := s.Store.Audit(ctx, store.AuditAccount+uid)
	if err != nil {
		return Record{}, err
	}
	return Record{Account: p, Audit: audit}, nil
}

// Change makes change c to account uid and answers it after, with its trail: approval
// for credit with its limit, the own discounts (stored canonical) and the price group
// (which must exist: a *shoperr.FieldError otherwise), audited with both before and after. A change on a version that is no longer the account's, or that
// loses to another write, is refused as changed meanwhile (a *shoperr.ConflictError).
func (s Service) Change(ctx context.Context, uid string, c Change) (Record, error) {
	if !account.ValidUID(uid) {
		return Record{}, store.ErrNotFound
	}
	p, err := s.Store.Profile(ctx, uid)
	if err != nil {
		return Record{}, err
	}
	stale := orders.ChangedMeanwhile("The account of " + p.Business)
	if p.UpdatedAt.UnixMilli() != c.Version {
		return Record{}, stale
	}
	if c.PriceGroup != "" && c.PriceGroup != p.PriceGroup {
		if _, err := s.Store.PriceGroup(ctx, c.PriceGroup); errors.Is(err, store.ErrNotFound) {
			return Record{}, &shoperr.FieldError{Field: "price_group", Problem: fmt.Sprintf("There is no price group %q: choose one of the list.", c.PriceGroup)}
		} else if err != nil {
			return Record{}, err
		}
	}
	dsc := CanonicalDSC(c.DSC)
	now := s.Now()
	if !now.After(p.UpdatedAt) {
		now = p.UpdatedAt.Add(time.Millisecond) // the version must move on
	}
	err = s.Store.ChangeAccount(ctx, store.AccountChange{UID: uid, Seen: p.UpdatedAt, ApprovedForCredit: c.ApprovedForCredit,
		CreditLimit: c.CreditLimit, DSC: dsc, PriceGroup: c.PriceGroup, Audit: orders.AuditEntry{At: now, By: c.By, Action: "account",
			Before: map[string]any{"approved_for_credit": p.ApprovedForCredit, "credit_limit": p.CreditLimit, "dsc": p.DSC, "price_group": p.PriceGroup},
			After:  map[string]any{"approved_for_credit": c.ApprovedForCredit, "credit_limit": c.CreditLimit, "dsc": dsc, "price_group": c.PriceGroup}}})
	if errors.Is(err, store.ErrChanged) {
		return Record{}, stale
	}
	if err != nil {
		return Record{}, err
	}
	return s.Read(ctx, uid)
}
