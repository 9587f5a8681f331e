package demand

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/receiving"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// Store is what the demand view reads of the shop's store.
type Store interface {
	// Ranges reads every outlet range.
	Ranges(ctx context.Context) ([]catalogue.Range, error)
	// ForwardProducts reads every product marked forward.
	ForwardProducts(ctx context.Context) ([]catalogue.Product, error)
	// ProductsBySKU reads the products with these SKUs (absent: no such product).
	ProductsBySKU(ctx context.Context, skus []string) (map[string]catalogue.Product, error)
	// ForwardLines answers every ledger line of sku, oldest first.
	ForwardLines(ctx context.Context, sku string) ([]forward.Line, error)
	// Businesses answers the accounts' business names (absent for none).
	Businesses(ctx context.Context, uids []string) (map[string]string, error)
	// Receipts answers every delivery recorded (package receiving).
	Receipts(ctx context.Context) ([]receiving.Receipt, error)
}

var _ Store = (*store.Store)(nil)

// Units are the units of a product's forward lines in each bucket. Open is what is still
// on order (Backordered is the part of it a delivery came short of).
type Units struct {
	Ordered, Open, Allocated, Backordered, Cancelled int
}

func (u *Units) add(l forward.Line) {
	u.Ordered += l.Ordered
	u.Open += l.Open
	u.Allocated += l.Allocated
	u.Backordered += l.Backordered()
	u.Cancelled += l.Cancelled
}

// Packs is u in whole packs of packSize (a forward line is always whole packs).
func (u Units) Packs(packSize int) Units {
	if packSize <= 0 {
		return Units{}
	}
	return Units{Ordered: u.Ordered / packSize, Open: u.Open / packSize, Allocated: u.Allocated / packSize,
		Backordered: u.Backordered / packSize, Cancelled: u.Cancelled / packSize}
}

// Account is one account's forward lines of a product, summed.
type Account struct {
	UID     string
	Company string // the profile's business name; the email when it has none
	Email   string
	Orders  int // forward orders with a line of the product
	Units   Units
}

// Product is one forward product's demand. Received is the units of it the applied
// deliveries brought in (Received).
type Product struct {
	Product  catalogue.Product
	Range    catalogue.Range
	Units    Units
	Received int
	Accounts []Account // biggest order first, then by company
}

// Report is the demand of one product or of every forward product of a range.
type Report struct {
	SKU      string // the product asked for, or ""
	Range    catalogue.Range
	Products []Product
}

// Listed is a range and its forward products, for the back office's list.
type Listed struct {
	Range    catalogue.Range
	Products []catalogue.Product // by order-by date, then name
}

// Service answers staff's questions about forward demand.
type Service struct {
	Store Store
}

// Received is the units of sku the applied receipts hold (receiving.Receipt.Received): a
// delivery counts once it is applied, its allocation made and its leftover in stock; one
// still recorded or being applied is not yet.
func Received(receipts []receiving.Receipt, sku string) int {
	n := 0
	for _, r := range receipts {
		if r.State == receiving.StateApplied {
			n += r.Received(sku)
		}
	}
	return n
}

// Of sums lines (all of product p's) in all and by account; company names an account
// (nil, or "" for one: its email stands in).
func Of(p catalogue.Product, lines []forward.Line, company func(uid string) string) Product {
	out := Product{Product: p}
	byUID := map[string]*Account{}
	orders := map[string]map[string]bool{}
	for _, l := range lines {
		out.Units.add(l)
		a := byUID[l.UID]
		if a == nil {
			a = &Account{UID: l.UID, Email: l.Email}
			byUID[l.UID] = a
			orders[l.UID] = map[string]bool{}
		}
		a.Units.add(l)
		orders[l.UID][l.OrderID] = true
	}
	for uid, a := range byUID {
		a.Orders = len(orders[uid])
		if company != nil {
			a.Company = company(uid)
		}
		if a.Company == "" {
			a.Company = a.Email
		}
		out.Accounts = append(out.Accounts, *a)
	}
	slices.SortFunc(out.Accounts, func(a, b Account) int {
		return cmp.Or(cmp.Compare(b.Units.Ordered, a.Units.Ordered), cmp.Compare(a.Company, b.Company), cmp.Compare(a.UID, b.UID))
	})
	return out
}

// List answers the forward products (those marked forward now), grouped by range in the
// ranges' order.
func (s Service) List(ctx context.Context) ([]Listed, error) {
	ranges, products, err := s.forwardProducts(ctx)
	if err != nil {
		return nil, err
	}
	byRange := map[string][]catalogue.Product{}
	for _, p := range products {
		byRange[p.RangeURLText] = append(byRange[p.RangeURLText], p)
	}
	var out []Listed
	for _, r := range sortedRanges(ranges) {
		if ps := byRange[r.URLText]; len(ps) > 0 {
			slices.SortFunc(ps, byOrderBy)
			out = append(out, Listed{Range: r, Products: ps})
		}
	}
	return out, nil
}

// ForSKU answers the demand of product sku: a *shoperr.NotFoundError when there is no
// such product. A product whose marking has ended is still answered (its lines stay).
func (s Service) ForSKU(ctx context.Context, sku string) (Report, error) {
	missing := &shoperr.NotFoundError{Msg: fmt.Sprintf("There is no product %s.", sku)}
	if !catalogue.ValidSKU(sku) {
		return Report{}, missing
	}
	products, err := s.Store.ProductsBySKU(ctx, []string{sku})
	if err != nil {
		return Report{}, err
	}
	p, ok := products[sku]
	if !ok {
		return Report{}, missing
	}
	ranges, err := s.Store.Ranges(ctx)
	if err != nil {
		return Report{}, err
	}
	r := rangeOf(ranges, p.RangeURLText)
	return s.report(ctx, Report{SKU: sku, Range: r}, []catalogue.Product{p})
}

// ForRange answers the demand of every forward product of range urlText, by order-by
// date: a *shoperr.NotFoundError when there is no such range.
func (s Service) ForRange(ctx context.Context, urlText string) (Report, error) {
	ranges, products, err := s.forwardProducts(ctx)
	if err != nil {
		return Report{}, err
	}
	r := rangeOf(ranges, urlText)
	if r.URLText == "" {
		return Report{}, &shoperr.NotFoundError{Msg: fmt.Sprintf("There is no range %q.", urlText)}
	}
	var ps []catalogue.Product
	for _, p := range products {
		if p.RangeURLText == urlText {
			ps = append(ps, p)
		}
	}
	slices.SortFunc(ps, byOrderBy)
	return s.report(ctx, Report{Range: r}, ps)
}

// forwardProducts reads the ranges and the products marked forward: two Queries of the
// catalogue index, rather than the whole catalogue.
func (s Service) forwardProducts(ctx context.Context) ([]catalogue.Range, []catalogue.Product, error) {
	ranges, err := s.Store.Ranges(ctx)
	if err != nil {
		return nil, nil, err
	}
	products, err := s.Store.ForwardProducts(ctx)
	if err != nil {
		return nil, nil, err
	}
	return ranges, products, nil
}

// report fills out with the demand of products: each one's lines and received units,
// and the business names of every account among them, each read once.
func (s Service) report(ctx context.Context, out Report, products []catalogue.Product) (Report, error) {
	lines := make([][]forward.Line, len(products))
	var uids []string
	var err error
	for i, p := range products {
		if lines[i], err = s.Store.ForwardLines(ctx, p.SKU); err != nil {
			return Report{}, fmt.Errorf("forward lines of %s: %w", p.SKU, err)
		}
		for _, l := range lines[i] {
			uids = append(uids, l.UID)
		}
	}
	names := map[string]string{}
	if len(uids) > 0 {
		slices.Sort(uids)
		if names, err = s.Store.Businesses(ctx, slices.Compact(uids)); err != nil {
			return Report{}, err
		}
	}
	receipts, err := s.Store.Receipts(ctx)
	if err != nil {
		return Report{}, err
	}
	out.Products = make([]Product, len(products))
	for i, p := range products {
		d := Of(p, lines[i], func(uid string) string { return names[uid] })
		d.Range = out.Range
		d.Received = Received(receipts, p.SKU)
		out.Products[i] = d
	}
	return out, nil
}

func rangeOf(ranges []catalogue.Range, urlText string) catalogue.Range {
	for _, r := range ranges {
		if r.URLText == urlText {
			return r
		}
	}
	return catalogue.Range{}
}

func sortedRanges(ranges []catalogue.Range) []catalogue.Range {
	out := slices.Clone(ranges)
	slices.SortFunc(out, func(a, b catalogue.Range) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.URLText, b.URLText))
	})
	return out
}

func byOrderBy(a, b catalogue.Product) int {
	return cmp.Or(cmp.Compare(forwardOf(a).OrderBy, forwardOf(b).OrderBy), cmp.Compare(a.Name, b.Name), cmp.Compare(a.SKU, b.SKU))
}

func forwardOf(p catalogue.Product) catalogue.Forward {
	if p.Forward == nil {
		return catalogue.Forward{}
	}
	return *p.Forward
}
