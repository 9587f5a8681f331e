package stock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
)

// Store is what the back office's stock work needs of the shop's store.
type Store interface {
	// Product reads one product as it is now; store.ErrNotFound when there is none.
	Product(ctx context.Context, sku string) (catalogue.Product, error)
	// ChangeStock writes a change and its audit entry in one transaction;
	// store.ErrChanged when the stock is no longer the change's From.
	ChangeStock(ctx context.Context, c store.StockChange) error
	// MarkForward writes a product's forward marking and its audit entry in one
	// transaction; store.ErrChanged when there is no such product.
	MarkForward(ctx context.Context, m store.ForwardMark) error
	// Audit reads the newest entries of a thing's audit trail (store.AuditProduct+sku).
	Audit(ctx context.Context, thing string) ([]orders.AuditEntry, error)
}

var _ Store = (*store.Store)(nil)

// The ways staff change a product's stock.
const (
	ModeSet    = "set"    // to a number of units, on condition it is still Expected
	ModeAdjust = "adjust" // by a number of units (negative takes away)
)

// Max bounds a product's stock (units).
const Max = 10_000_000

// Reason is why staff changed a product's stock, under the one text rule.
var Reason = text.Field{Name: "reason", Label: "Reason", Min: 3, Max: 200}

// attempts bounds the tries of an adjustment that races orders.
const attempts = 5

// Change is one change of a product's stock by a member of staff.
type Change struct {
	Mode     string
	Quantity int  // set: the new stock; adjust: the units to add
	Expected *int // set: the stock the page showed
	Reason   string
	By       orders.Staff
}

// Problems answers what is wrong with change c, by field name (empty when nothing is).
// The reason's text rule is Reason's.
func Problems(c Change) map[string]string {
	p := map[string]string{}
	switch c.Mode {
	case ModeSet:
		if c.Quantity < 0 || c.Quantity > Max {
			p["quantity"] = "The quantity must be the new stock in units, from 0 to 10,000,000."
		}
		if c.Expected == nil {
			p["expected"] = "The expected stock is required to set the stock: the stock the page showed."
		}
	case ModeAdjust:
		if c.Quantity == 0 || c.Quantity < -Max || c.Quantity > Max {
			p["quantity"] = "The quantity must be the units to add (negative to take away), not 0."
		}
	default:
		p["mode"] = `The mode must be "set" or "adjust".`
	}
	return p
}

// Service carries out staff's work on stock.
type Service struct {
	Store Store
	Now   func() time.Time
	// Restock hears of a change that left the product with stock (package alerts: the
	// back-in-stock emails); nil: no one.
	Restock orders.Restocker
}

// Record is a product as staff see its stock, with its audit trail (newest first).
type Record struct {
	Product catalogue.Product
	Audit   []orders.AuditEntry
}

// Read answers product sku with its trail: a *shoperr.NotFoundError naming it when there
// is none (a SKU of the wrong shape is never looked up). A discontinued product is read
// as any other: staff still change its stock.
func (s Service) Read(ctx context.Context, sku string) (Record, error) {
	if !catalogue.ValidSKU(sku) {
		return Record{}, noProduct(sku)
	}
	p, err := s.Store.Product(ctx, sku)
	if errors.Is(err, store.ErrNotFound) {
		return Record{}, noProduct(sku)
	}
	if err != nil {
		return Record{}, err
	}
	audit, err := s.Store.Audit(ctx, store.AuditProduct+sku)
	if err != nil {
		return Record{}, err
	}
	return Record{Product: p, Audit: audit}, nil
}

// Change changes product sku's stock as c says and answers it after, with its trail.
// A set whose Expected is no longer the stock, or a change that would leave less than
// none (or more than Max), is a *shoperr.ConflictError saying so; an adjustment that loses
// to an order is read and tried again, up to 5 times in all, then refused as changed
// meanwhile.
func (s Service) Change(ctx context.Context, sku string, c Change) (Record, error) {
	var err error
	for try := 0; try < attempts; try++ {
		var now Record
		if now, err = s.Read(ctx, sku); err != nil {
			return Record{}, err
		}
		from := now.Product.Stock
		to := c.Quantity
		if c.Mode == ModeSet && (c.Expected == nil || *c.Expected != from) {
			expected := "none shown"
			if c.Expected != nil {
				expected = fmt.Sprint(*c.Expected)
			}
			return Record{}, &shoperr.ConflictError{Msg: fmt.Sprintf("The stock of %s is now %d, not %s (an order or someone else changed it): check it and set it again.", sku, from, expected)}
		}
		if c.Mode == ModeAdjust {
			to = from + c.Quantity
		}
		if to < 0 || to > Max {
			return Record{}, &shoperr.ConflictError{Msg: fmt.Sprintf("The stock of %s is %d: taking away %d would leave less than none.", sku, from, -c.Quantity)}
		}
		err = s.Store.ChangeStock(ctx, store.StockChange{SKU: sku, From: from, To: to, Audit: orders.AuditEntry{At: s.Now(), By: c.By,
			Action: "stock " + c.Mode + ": " + c.Reason, Before: map[string]any{"stock": from}, After: map[string]any{"stock": to}}})
		if !errors.Is(err, store.ErrChanged) || c.Mode == ModeSet {
			break
		}
	}
	if errors.Is(err, store.ErrChanged) {
		return Record{}, orders.ChangedMeanwhile("The stock of " + sku)
	}
	if err != nil {
		return Record{}, err
	}
	after, err := s.Read(ctx, sku)
	if err == nil && s.Restock != nil && after.Product.Stock > 0 {
		s.Restock.Restocked(ctx, []string{sku})
	}
	return after, err
}

func noProduct(sku string) error {
	return &shoperr.NotFoundError{Msg: fmt.Sprintf("There is no product %s.", sku)}
}
