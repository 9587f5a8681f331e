package basket

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
)

// Add is one line to add: Quantity units of SKU, refused if the line would then hold
// more than Limit units.
type Add struct {
	SKU      string
	Quantity int
	Limit    int
}

// Reader is what pricing a basket reads: two calls, whatever the basket's size (up to
// the store's batch size per call), and for an account in a price group the groups
// (one more call when the process's cache of them is cold).
type Reader interface {
	// AccountAndBasket reads the buyer's account (empty when none is saved) and basket
	// (empty when there is none).
	AccountAndBasket(ctx context.Context, uid string) (account.Account, Basket, error)
	// ProductsAndCoupon reads the products of skus (unknown SKUs are absent) and, when
	// couponID is not "", that coupon with uid's uses of it (nil when there is none).
	ProductsAndCoupon(ctx context.Context, uid string, skus []string, couponID string) (map[string]catalogue.Product, *Coupon, error)
	// GroupReader reads the price groups, for an account in one (LoadTerms): no call
	// while the process's cache of them is warm.
	GroupReader
}

// Found is what a basket write (or a quick order's check) reads first, in one call: the
// products it checks, the basket as the write will find it, and the account when asked
// for (empty when none is saved).
type Found struct {
	Products map[string]catalogue.Product
	Basket   Basket
	Account  account.Account
}

// Store is what the basket rules read and write. A write is given the basket as a read
// (or an earlier write) of the store answered it, and answers the basket after it: one
// call each, a read and a write, where the basket has not changed in between (the
// store's conditions find it if it has, and the write works from the basket as it is).
type Store interface {
	Reader
	// BasketAndProducts reads, in one call (one more per 100 keys), uid's basket, the
	// products of skus (unknown SKUs are absent) and, withAccount, uid's account.
	BasketAndProducts(ctx context.Context, uid string, skus []string, withAccount bool) (Found, error)
	// AddLinesTo adds every line in one atomic write to uid's basket b (nil: the store
	// reads it): all or nothing. A line that would pass its limit is a *LineFullError; a
	// new line past MaxLines ErrBasketFull; a basket an order is being placed from is
	// ErrLocked.
	AddLinesTo(ctx context.Context, uid string, adds []Add, at time.Time, b *Basket) (Basket, error)
	// SetLineIn sets a line to exactly quantity units (creating it); ErrLocked and
	// ErrBasketFull as AddLinesTo.
	SetLineIn(ctx context.Context, uid, sku string, quantity int, at time.Time, b *Basket) (Basket, error)
	// RemoveLineFrom removes a line (no error if it is not there); ErrLocked as AddLinesTo.
	RemoveLineFrom(ctx context.Context, uid, sku string, at time.Time, b *Basket) (Basket, error)
}

// LineFullError says an add would take lines past their limits; nothing was written.
// InBasket holds each such line's units in the basket as it was found.
type LineFullError struct{ InBasket map[string]int }

func (e *LineFullError) Error() string {
	return fmt.Sprintf("%s of the basket would exceed its limit", Plural(len(e.InBasket), "line"))
}

// ErrLocked means an order is being placed from the basket: it takes no writes until
// that order is placed or undone (a few seconds).
var ErrLocked = &shoperr.ConflictError{Msg: "An order is being placed from this basket: try again in a few seconds."}

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

// PriceFor reads and prices uid's basket through r: two calls (one more per 100 lines).
func PriceFor(ctx context.Context, r Reader, shop config.Shop, uid string, now time.Time) (Priced, account.Account, error) {
	acct, b, err := r.AccountAndBasket(ctx, uid)
	if err != nil {
		return Priced{}, account.Account{}, err
	}
	p, err := priceWith(ctx, r, shop, uid, acct, b, nil, now)
	return p, acct, err
}

// priceWith prices uid's basket b for its account acct, reading what it lacks in one
// call (one more per 100 keys): the products of b's lines that known does not hold, and
// acct's coupon. No call at all when known holds every line's product and acct has no
// coupon.
func priceWith(ctx context.Context, r Reader, shop config.Shop, uid string, acct account.Account, b Basket, known map[string]catalogue.Product, now time.Time) (Priced, error) {
	var lacking []string
	for _, l := range b.Lines {
		if _, ok := known[l.SKU]; !ok {
			lacking = append(lacking, l.SKU)
		}
	}
	products, coupon, err := r.ProductsAndCoupon(ctx, uid, lacking, acct.ActiveCouponID)
	if err != nil {
		return Priced{}, err
	}
	if len(known) > 0 {
		all := maps.Clone(products)
		if all == nil {
			all = map[string]catalogue.Product{}
		}
		for _, l := range b.Lines {
			if p, ok := known[l.SKU]; ok {
				all[l.SKU] = p
			}
		}
		products = all
	}
	terms, err := LoadTerms(ctx, r, shop, acct)
	if err != nil {
		return Priced{}, err
	}
	if coupon != nil && coupon.AccountUID != "" && coupon.AccountUID != uid {
		coupon = nil // another account's code is no code at all
	}
	return Price(b, products, terms, coupon, shop, now), nil
}

// Change is what an add did: the basket after it (not priced), and the lines it added
// to, each as the basket now holds it, in the order asked.
type Change struct {
	Basket Basket
	Lines  []Line
}

// changeOf answers the change of adds to the basket after them.
func changeOf(after Basket, adds []Add) Change {
	held := make(map[string]Line, len(after.Lines))
	for _, l := range after.Lines {
		held[l.SKU] = l
	}
	c := Change{Basket: after, Lines: make([]Line, len(adds))}
	for i, a := range adds {
		c.Lines[i] = held[a.SKU]
		c.Lines[i].SKU = a.SKU
	}
	return c
}

// Add adds whole packs of one product in one atomic write (two tabs adding at once both
// count) and answers what changed: two calls, the product read with the basket, then the
// write.
func (s Service) Add(ctx context.Context, uid, sku string, quantity int) (Change, error) {
	return s.AddMany(ctx, uid, []Add{{SKU: sku, Quantity: quantity}})
}

// MaxLines is the most lines a basket holds: 500, the quick-order plan's largest order.
// A basket of 500 lines is about 75 KB of its item (SKUs of 64 characters) and its order
// about 200 KB, both well inside DynamoDB's 400 KB item (store's TestMaxBasketFitsAnItem);
// an order of over 93 lines is placed in chunks (docs/orders.md).
const MaxLines = 500

// ErrBasketFull refuses a new line in a basket that holds MaxLines lines; nothing was
// written.
var ErrBasketFull = &shoperr.ConflictError{Msg: fmt.Sprintf("Your basket holds the most lines it can (%d): remove a line, or place an order, before adding another product.", MaxLines)}

// MaxAddLines is the most lines one add writes: a basket's most, so a quick order of a
// whole basket is one add, all or nothing (the store writes up to 80 lines as one
// UpdateItem, more as one conditional put of the basket item).
const MaxAddLines = MaxLines

// checkAdds checks every add against the products (as lines on their own: the store's
// write checks what the basket holds), answering the adds with their limits set and the
// lines refused.
func checkAdds(adds []Add, products map[string]catalogue.Product, now time.Time) ([]Add, []shoperr.LineRefusal) {
	var ok []Add
	var refused []shoperr.LineRefusal
	for i, a := range adds {
		p, found := products[a.SKU]
		problem := CheckLine(p, found, a.SKU, a.Quantity, 0, now)
		if problem == nil && a.Quantity <= 0 { // CheckLine's quantity 0 is a look-up; an add adds
			problem = &shoperr.LineProblem{Code: shoperr.ProblemPacks, Nearest: []int{p.PackSize},
				Msg: fmt.Sprintf("Add at least one pack of %s (%s).", p.Name, Plural(p.PackSize, "unit"))}
		}
		if problem != nil {
			refused = append(refused, shoperr.LineRefusal{Index: i, SKU: a.SKU, LineProblem: problem})
			continue
		}
		ok = append(ok, Add{SKU: a.SKU, Quantity: a.Quantity, Limit: LineLimit(p, now)})
	}
	return ok, refused
}

// fullRefusals are the refusals of the adds a *LineFullError names.
func fullRefusals(adds []Add, full *LineFullError, products map[string]catalogue.Product, now time.Time) []shoperr.LineRefusal {
	var out []shoperr.LineRefusal
	for i, a := range adds {
		if held, ok := full.InBasket[a.SKU]; ok {
			problem := CheckLine(products[a.SKU], true, a.SKU, a.Quantity, held, now)
			if problem == nil { // the line moved on since: refused all the same
				problem = &shoperr.LineProblem{Code: shoperr.ProblemOverLimit, Msg: "That would take " + products[a.SKU].Name + " past the most you can order."}
			}
			out = append(out, shoperr.LineRefusal{Index: i, SKU: a.SKU, LineProblem: problem})
		}
	}
	return out
}

// read reads, in one call (one more per 100 lines), the products of adds, uid's basket
// and, withAccount, uid's account.
func (s Service) read(ctx context.Context, uid string, adds []Add, withAccount bool) (Found, error) {
	skus := make([]string, len(adds))
	for i, a := range adds {
		skus[i] = a.SKU
	}
	return s.Store.BasketAndProducts(ctx, uid, skus, withAccount)
}

// AddMany checks every line, then adds them all in one atomic write: a bad line adds
// nothing, and every bad line is told (*shoperr.LinesError; one line alone is refused as the
// product page's add always was). Limits are worked out here from the products; the
// caller's are ignored. It answers what changed, not the priced basket: two calls (one
// more per 100 lines), the products read with the basket, then the write.
func (s Service) AddMany(ctx context.Context, uid string, adds []Add) (Change, error) {
	if len(adds) == 0 || len(adds) > MaxAddLines {
		return Change{}, &shoperr.FieldError{Field: "lines", Problem: fmt.Sprintf("Add 1 to %d lines at once.", MaxAddLines)}
	}
	found, err := s.read(ctx, uid, adds, false)
	if err != nil {
		return Change{}, err
	}
	products := found.Products
	checked, refused := checkAdds(adds, products, s.Now())
	if len(refused) > 0 {
		if len(adds) == 1 {
			p, found := products[adds[0].SKU]
			return Change{}, CheckBuyable(p, found, adds[0].SKU, adds[0].Quantity, s.Now())
		}
		return Change{}, &shoperr.LinesError{Lines: refused}
	}
	after, err := s.Store.AddLinesTo(ctx, uid, checked, s.Now(), &found.Basket)
	if err != nil {
		var full *LineFullError
		if !errors.As(err, &full) {
			return Change{}, err
		}
		if len(adds) == 1 {
			p := products[adds[0].SKU]
			return Change{}, &shoperr.ConflictError{Msg: fmt.Sprintf("That would take %s past the most you can order (%s), so nothing was added.",
				p.Name, Plural(LineLimit(p, s.Now())/max(p.PackSize, 1), "pack"))}
		}
		return Change{}, &shoperr.LinesError{Lines: fullRefusals(checked, full, products, s.Now())}
	}
	return changeOf(after, checked), nil
}

// maxAddGoodAttempts bounds AddGood's writes: each retry drops lines the write found full.
const maxAddGoodAttempts = 4

// Outcome is what AddGood did: the basket after it (not priced), the lines added and
// those refused (in the order asked), and the products read (a refused line's name).
type Outcome struct {
	Basket   Basket
	Added    []Add
	Refused  []shoperr.LineRefusal
	Products map[string]catalogue.Product
}

// AddGood adds every line that can be bought, in one atomic write, and answers what it
// did (a saved list's "Add all to basket", an order's "Order again"): a line is refused
// that cannot be bought, that would pass its limit with what the basket holds, or that is
// new to a basket holding MaxLines lines (shoperr.ProblemBasketFull).
func (s Service) AddGood(ctx context.Context, uid string, adds []Add) (Outcome, error) {
	if len(adds) > MaxAddLines {
		return Outcome{}, &shoperr.FieldError{Field: "lines", Problem: fmt.Sprintf("Check at most %d lines at once.", MaxAddLines)}
	}
	found, err := s.read(ctx, uid, adds, false)
	if err != nil {
		return Outcome{}, err
	}
	products := found.Products
	checked, refused := checkAdds(adds, products, s.Now())
	index := map[string]int{}
	for i, a := range adds {
		index[a.SKU] = i
	}
	seen := &found.Basket // the first write works from the basket read with the products
	for range maxAddGoodAttempts {
		if len(checked) == 0 {
			break
		}
		after, err := s.Store.AddLinesTo(ctx, uid, checked, s.Now(), seen)
		seen = nil // a later attempt reads the basket as it is then
		var full *LineFullError
		switch {
		case err == nil:
			return Outcome{Basket: after, Added: checked, Refused: sortRefusals(refused), Products: products}, nil
		case errors.As(err, &full):
			for _, r := range fullRefusals(checked, full, products, s.Now()) {
				refused = append(refused, shoperr.LineRefusal{Index: index[r.SKU], SKU: r.SKU, LineProblem: r.LineProblem})
			}
			checked = slices.DeleteFunc(checked, func(a Add) bool { _, ok := full.InBasket[a.SKU]; return ok })
		case errors.Is(err, ErrBasketFull):
			_, b, err := s.Store.AccountAndBasket(ctx, uid)
			if err != nil {
				return Outcome{}, err
			}
			have := map[string]bool{}
			for _, l := range b.Lines {
				have[l.SKU] = true
			}
			room := MaxLines - len(b.Lines)
			checked = slices.DeleteFunc(checked, func(a Add) bool {
				if have[a.SKU] {
					return false
				}
				if room > 0 {
					room--
					return false
				}
				refused = append(refused, shoperr.LineRefusal{Index: index[a.SKU], SKU: a.SKU, LineProblem: &shoperr.LineProblem{Code: shoperr.ProblemBasketFull, Msg: ErrBasketFull.Msg}})
				return true
			})
		default:
			return Outcome{}, err
		}
	}
	b := found.Basket // nothing was written
	if seen == nil {
		if _, b, err = s.Store.AccountAndBasket(ctx, uid); err != nil {
			return Outcome{}, err
		}
	}
	for _, a := range checked { // still refused on the last attempt: the basket kept moving
		refused = append(refused, shoperr.LineRefusal{Index: index[a.SKU], SKU: a.SKU, LineProblem: &shoperr.LineProblem{Code: shoperr.ProblemOverLimit, Msg: "Your basket changed while this was added: try again."}})
	}
	return Outcome{Basket: b, Refused: sortRefusals(refused), Products: products}, nil
}

func sortRefusals(r []shoperr.LineRefusal) []shoperr.LineRefusal {
	slices.SortFunc(r, func(a, b shoperr.LineRefusal) int { return a.Index - b.Index })
	return r
}

// LineCheck is one line checked for a quick order: the product (nil: no such SKU), the
// units of it the basket holds, and the problem (nil: it can be added as asked).
type LineCheck struct {
	SKU      string
	Quantity int
	Product  *catalogue.Product
	InBasket int
	Problem  *shoperr.LineProblem
}

// Check checks lines as AddMany would, counting what uid's basket holds, and answers the
// buyer's terms to price them: one read of the account and basket, then the products.
func (s Service) Check(ctx context.Context, uid string, adds []Add) ([]LineCheck, pricing.Terms, error) {
	found, err := s.read(ctx, uid, adds, true)
	if err != nil {
		return nil, pricing.Terms{}, err
	}
	acct, b, products := found.Account, found.Basket, found.Products
	terms, err := LoadTerms(ctx, s.Store, s.Shop, acct)
	if err != nil {
		return nil, pricing.Terms{}, err
	}
	held := make(map[string]int, len(b.Lines))
	for _, l := range b.Lines {
		held[l.SKU] = l.Quantity
	}
	room := MaxLines - len(b.Lines)
	out := make([]LineCheck, len(adds))
	for i, a := range adds {
		c := LineCheck{SKU: a.SKU, Quantity: a.Quantity, InBasket: held[a.SKU]}
		p, found := products[a.SKU]
		if found {
			c.Product = &p
		}
		c.Problem = CheckLine(p, found, a.SKU, a.Quantity, c.InBasket, s.Now())
		if _, there := held[a.SKU]; c.Problem == nil && a.Quantity > 0 && !there {
			if room <= 0 {
				c.Problem = &shoperr.LineProblem{Code: shoperr.ProblemBasketFull, Msg: ErrBasketFull.Msg}
			}
			room--
		}
		out[i] = c
	}
	return out, terms, nil
}

// Set sets a line to exactly quantity units (0 removes it) and answers the basket priced
// (the basket page shows it): three calls, the product read with the basket and the
// account, the write (which answers the basket after it), and the other lines' products
// with the coupon.
func (s Service) Set(ctx context.Context, uid, sku string, quantity int) (Priced, error) {
	if quantity == 0 {
		return s.Remove(ctx, uid, sku)
	}
	found, err := s.read(ctx, uid, []Add{{SKU: sku}}, true)
	if err != nil {
		return Priced{}, err
	}
	p, ok := found.Products[sku]
	if err := CheckBuyable(p, ok, sku, quantity, s.Now()); err != nil {
		return Priced{}, err
	}
	after, err := s.Store.SetLineIn(ctx, uid, sku, quantity, s.Now(), &found.Basket)
	if err != nil {
		return Priced{}, err
	}
	return priceWith(ctx, s.Store, s.Shop, uid, found.Account, after, found.Products, s.Now())
}

// Remove removes a line and answers the basket priced: three calls, the account with the
// basket, the write, and the remaining lines' products with the coupon.
func (s Service) Remove(ctx context.Context, uid, sku string) (Priced, error) {
	acct, b, err := s.Store.AccountAndBasket(ctx, uid)
	if err != nil {
		return Priced{}, err
	}
	after, err := s.Store.RemoveLineFrom(ctx, uid, sku, s.Now(), &b)
	if err != nil {
		return Priced{}, err
	}
	return priceWith(ctx, s.Store, s.Shop, uid, acct, after, nil, s.Now())
}
