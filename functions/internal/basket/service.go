package basket

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

// Add is one line to add: Quantity units of SKU, refused if the line would then hold
// more than Limit units.
type Add struct {
	SKU      string
	Quantity int
	Limit    int
}

// Reader is what pricing a basket reads: two calls, whatever the basket's size (up to
// the store's batch size per call).
type Reader interface {
	// AccountAndBasket reads the buyer's account (empty when none is saved) and basket
	// (empty when there is none).
	AccountAndBasket(ctx context.Context, uid string) (account.Account, Basket, error)
	// ProductsAndCoupon reads the products of skus (unknown SKUs are absent) and, when
	// couponID is not "", that coupon with uid's uses of it (nil when there is none).
	ProductsAndCoupon(ctx context.Context, uid string, skus []string, couponID string) (map[string]catalogue.Product, *Coupon, error)
}

// Store is what the basket rules read and write.
type Store interface {
	Reader
	// AddLines adds every line in one atomic write: all or nothing. A line that would
	// pass its limit is a *LineFullError; a basket an order is being placed from is
	// ErrLocked.
	AddLines(ctx context.Context, uid string, adds []Add, at time.Time) error
	// SetLine sets a line to exactly quantity units (creating it); ErrLocked as AddLines.
	SetLine(ctx context.Context, uid, sku string, quantity int, at time.Time) error
	// RemoveLine removes a line (no error if it is not there); ErrLocked as AddLines.
	RemoveLine(ctx context.Context, uid, sku string, at time.Time) error
}

// LineFullError says an add would take a line past its limit; nothing was written.
type LineFullError struct{ SKU string }

func (e *LineFullError) Error() string { return "basket line " + e.SKU + " would exceed its limit" }

// ErrLocked means an order is being placed from the basket: it takes no writes until
// that order is placed or undone (a few seconds).
var ErrLocked = &ConflictError{Msg: "An order is being placed from this basket: try again in a few seconds."}

// Service applies the basket rules over a store.
type Service struct {
	Store Store
	Shop  config.Shop
	Now   func() time.Time
}

// Priced reads and prices uid's basket, answering the account it was priced for.
func (s Service) Priced(ctx context.Context, uid string) (Priced, account.Account, error) {
	return PriceFor(ctx, s.Store, s.Shop, uid, s.Now())
}

// PriceFor reads and prices uid's basket through r.
func PriceFor(ctx context.Context, r Reader, shop config.Shop, uid string, now time.Time) (Priced, account.Account, error) {
	acct, b, err := r.AccountAndBasket(ctx, uid)
	if err != nil {
		return Priced{}, account.Account{}, err
	}
	products, coupon, err := r.ProductsAndCoupon(ctx, uid, b.SKUs(), acct.ActiveCouponID)
	if err != nil {
		return Priced{}, acct, err
	}
	discounts, err := pricing.MergeDiscounts(shop.DefaultDiscounts, acct.DSC)
	if err != nil {
		return Priced{}, acct, err
	}
	if coupon != nil && coupon.AccountUID != "" && coupon.AccountUID != uid {
		coupon = nil // another account's code is no code at all
	}
	return Price(b, products, discounts, coupon, shop, now), acct, nil
}

// Add adds whole packs of one product in one atomic write (two tabs adding at once both
// count) and answers the basket.
func (s Service) Add(ctx context.Context, uid, sku string, quantity int) (Priced, error) {
	return s.AddMany(ctx, uid, []Add{{SKU: sku, Quantity: quantity}})
}

// MaxLines is the most lines a basket holds: 500, the quick-order plan's largest order.
// A basket of 500 lines is about 75 KB of its item (SKUs of 64 characters) and its order
// about 200 KB, both well inside DynamoDB's 400 KB item (store's TestMaxBasketFitsAnItem);
// an order of over 93 lines is placed in chunks (docs/orders.md).
const MaxLines = 500

// ErrBasketFull refuses a new line in a basket that holds MaxLines lines; nothing was
// written.
var ErrBasketFull = &ConflictError{Msg: fmt.Sprintf("Your basket holds the most lines it can (%d): remove a line, or place an order, before adding another product.", MaxLines)}

// MaxAddLines is the most lines one add writes: one UpdateItem of the basket holds them
// all (its update expression is at most 4 KB), so the add is all or nothing.
const MaxAddLines = 80

// AddMany checks every line, then adds them all in one atomic write: a bad line adds
// nothing. Limits are worked out here from the products; the caller's are ignored.
func (s Service) AddMany(ctx context.Context, uid string, adds []Add) (Priced, error) {
	if len(adds) == 0 || len(adds) > MaxAddLines {
		return Priced{}, &FieldError{Field: "lines", Problem: fmt.Sprintf("must hold 1 to %d lines", MaxAddLines)}
	}
	skus := make([]string, len(adds))
	for i, a := range adds {
		skus[i] = a.SKU
	}
	products, _, err := s.Store.ProductsAndCoupon(ctx, uid, skus, "")
	if err != nil {
		return Priced{}, err
	}
	checked := make([]Add, len(adds))
	for i, a := range adds {
		p, ok := products[a.SKU]
		if err := CheckBuyable(p, ok, a.SKU, a.Quantity); err != nil {
			if len(adds) > 1 {
				return Priced{}, fmt.Errorf("line %d (%s): %w", i+1, a.SKU, err)
			}
			return Priced{}, err
		}
		checked[i] = Add{SKU: a.SKU, Quantity: a.Quantity, Limit: LineLimit(p)}
	}
	if err := s.Store.AddLines(ctx, uid, checked, s.Now()); err != nil {
		var full *LineFullError
		if errors.As(err, &full) {
			p := products[full.SKU]
			return Priced{}, &ConflictError{Msg: fmt.Sprintf("that would take %s past the most you can order (%s); nothing was added",
				p.Name, Plural(LineLimit(p)/max(p.PackSize, 1), "pack"))}
		}
		return Priced{}, err
	}
	p, _, err := s.Priced(ctx, uid)
	return p, err
}

// Set sets a line to exactly quantity units; 0 removes it.
func (s Service) Set(ctx context.Context, uid, sku string, quantity int) (Priced, error) {
	if quantity == 0 {
		return s.Remove(ctx, uid, sku)
	}
	products, _, err := s.Store.ProductsAndCoupon(ctx, uid, []string{sku}, "")
	if err != nil {
		return Priced{}, err
	}
	p, ok := products[sku]
	if err := CheckBuyable(p, ok, sku, quantity); err != nil {
		return Priced{}, err
	}
	if err := s.Store.SetLine(ctx, uid, sku, quantity, s.Now()); err != nil {
		return Priced{}, err
	}
	priced, _, err := s.Priced(ctx, uid)
	return priced, err
}

// Remove removes a line.
func (s Service) Remove(ctx context.Context, uid, sku string) (Priced, error) {
	if err := s.Store.RemoveLine(ctx, uid, sku, s.Now()); err != nil {
		return Priced{}, err
	}
	p, _, err := s.Priced(ctx, uid)
	return p, err
}
