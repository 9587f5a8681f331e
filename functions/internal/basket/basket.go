// Package basket holds the rules of a trade buyer's basket: what may be added (whole
// packs, in stock, within a line's maximum), how availability is told, and how a basket
// is priced for the buyer. It declares the store it needs (Store) and imports no HTTP or
// AWS code, so every rule is tested without a store.
package basket

import (
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
)

// Line is one line of a basket: a quantity in units of one SKU.
type Line struct {
	SKU      string
	Quantity int
	AddedAt  time.Time // when the line was first added; later changes keep it
}

// Basket is a buyer's basket. Every write moves Version on, so an order placed from the
// basket as priced at one version can claim exactly that basket and no other.
type Basket struct {
	Lines   []Line
	Version int64
	// LastOrderID is the order last placed from this basket, at LastOrderAt.
	LastOrderID string
	LastOrderAt time.Time
	// PendingOrderID is a large order being placed from the basket (its lines are being
	// reserved in several steps); the basket takes no writes until it is placed or undone.
	PendingOrderID string
	PendingSince   time.Time
	// Item is the store's own record of the basket as it read or wrote it: given back to
	// the store's next write of the basket, that write need not read it again (see
	// Store). Nil for a basket that did not come from the store.
	Item any
}

// JustOrderedWithin is how long after an order an empty basket answers a second Place
// Order with that order rather than "your basket is empty".
const JustOrderedWithin = 30 * time.Minute

// JustOrdered answers the order this basket was emptied by, if it is empty because an
// order was placed from it within JustOrderedWithin of now.
func (b Basket) JustOrdered(now time.Time) (string, bool) {
	if len(b.Lines) > 0 || b.LastOrderID == "" || now.Sub(b.LastOrderAt) > JustOrderedWithin {
		return "", false
	}
	return b.LastOrderID, true
}

// SKUs lists the basket's SKUs.
func (b Basket) SKUs() []string {
	out := make([]string, len(b.Lines))
	for i, l := range b.Lines {
		out[i] = l.SKU
	}
	return out
}

// Coupon is a coupon with its description and who may use it (AccountUID "" for anyone).
type Coupon struct {
	pricing.Coupon
	Description string
	AccountUID  string
}

// Status is how much of a product is in stock, as a buyer is told it.
type Status string

// The availability a buyer sees.
const (
	InStock    Status = "in_stock"
	LowStock   Status = "low"
	OutOfStock Status = "out"
	// PreOrder: the product is forward and its pre-order is open (catalogue.Forward): it
	// is bought ahead of its delivery, whatever the stock on hand.
	PreOrder Status = "preorder"
)

// LowStockPacks is the most packs left for which a buyer is told "only N packs left".
const LowStockPacks = 10

// Availability is a product's stock as shown to buyers: in stock, only N packs left,
// or out of stock (less than one pack).
type Availability struct {
	Status    Status
	PacksLeft int // whole packs in stock; told only when Status is not InStock
}

// AvailabilityOf tells the availability of stock units sold in packs of packSize.
func AvailabilityOf(stock, packSize int) Availability {
	packs := 0
	if packSize > 0 && stock > 0 {
		packs = stock / packSize
	}
	switch {
	case packs == 0:
		return Availability{Status: OutOfStock}
	case packs <= LowStockPacks:
		return Availability{Status: LowStock, PacksLeft: packs}
	}
	return Availability{Status: InStock, PacksLeft: packs}
}

// AvailabilityAt tells product p's availability at now: PreOrder while its pre-order is
// open, else its stock's.
func AvailabilityAt(p catalogue.Product, now time.Time) Availability {
	if p.PreOrderOpen(now) {
		return Availability{Status: PreOrder}
	}
	return AvailabilityOf(p.Stock, p.PackSize)
}

// InStockNow reports whether p can be had from stock at now: its availability is in
// stock or low, not out of stock nor on pre-order. It is what a listing's "in stock now"
// filter keeps (POST /api/listing-stock, the search's stock=in).
func InStockNow(p catalogue.Product, now time.Time) bool {
	switch AvailabilityAt(p, now).Status {
	case InStock, LowStock:
		return true
	}
	return false
}

// LineLimit is the most units one basket line of p may hold at now: the line maximum, or
// the whole packs in stock when there are fewer (a forward line has no stock limit).
func LineLimit(p catalogue.Product, now time.Time) int {
	if p.PreOrderOpen(now) {
		return pricing.MaxLineUnits
	}
	inStock := 0
	if p.PackSize > 0 && p.Stock > 0 {
		inStock = p.Stock / p.PackSize * p.PackSize
	}
	return min(pricing.MaxLineUnits, inStock)
}

// CheckBuyable says whether quantity units of the product (found false: no such SKU) may
// go on a basket line: CheckLine's rules for a line on its own, with a quantity that is
// not whole packs, or over the line maximum, a *shoperr.FieldError.
func CheckBuyable(p catalogue.Product, found bool, sku string, quantity int, now time.Time) error {
	if problem := CheckLine(p, found, sku, 0, 0, now); problem != nil {
		return lineError(problem)
	}
	if err := pricing.CheckQuantity(quantity, p.PackSize); err != nil {
		return &shoperr.FieldError{Field: "quantity", Problem: err.Error()}
	}
	if problem := CheckLine(p, found, sku, quantity, 0, now); problem != nil {
		return lineError(problem)
	}
	return nil
}

// shortMessage says how much of a product is left, in packs.
func shortMessage(name string, packs, packSize int) string {
	if packs == 0 {
		return name + " is out of stock"
	}
	return "Only " + Plural(packs, "pack") + " of " + name + " (" + Plural(packs*packSize, "unit") + ") are in stock"
}

// SortNewestAddedFirst orders lines by when each was first added, newest first (SKU
// breaks a tie), so changing a quantity never moves a line.
func SortNewestAddedFirst(lines []Line) {
	slices.SortStableFunc(lines, func(a, b Line) int {
		if c := b.AddedAt.Compare(a.AddedAt); c != 0 {
			return c
		}
		return strings.Compare(a.SKU, b.SKU)
	})
}

// PricedLine is a basket line priced for the buyer, with its product and availability.
type PricedLine struct {
	pricing.PricedLine
	Product      catalogue.Product
	Availability Availability
	// Short means the line asks for more units than are in stock now: it must be
	// reduced or removed before an order can be placed. A forward line is never short.
	Short bool
	// Forward says the line is a pre-order (its product's pre-order is open): it goes on
	// the checkout's forward order, not today's, and takes no stock.
	Forward bool
}

// Part is what one part of a basket costs: the forward lines' own totals (pence).
type Part struct {
	GoodsExVAT  int64
	VAT         int64
	TotalIncVAT int64
}

// Priced is a basket priced for its buyer: lines newest first, totals and nudges.
type Priced struct {
	Basket Basket
	// Terms are the buyer's terms it was priced with (their price group, if any, and
	// how old its read was).
	Terms          pricing.Terms
	Lines          []PricedLine
	GoodsExVAT     int64
	CouponDiscount int64
	NetExVAT       int64
	VAT            int64
	TotalIncVAT    int64
	// Coupon is the coupon the buyer holds, if it exists; CouponError says why it takes
	// nothing off, if it does not apply.
	Coupon      *Coupon
	CouponError error
	// Forward is what the forward lines cost (zero without any): they become the
	// checkout's forward order, priced without the coupon, which is taken off today's
	// lines only. The totals above are the whole basket's.
	Forward Part
	// MinimumOrder and FreeDeliveryThreshold are the shop's (pence ex VAT); the "By"
	// and "In" figures are how far this basket is below each, 0 at or over.
	MinimumOrder          int64
	BelowMinimumBy        int64
	FreeDeliveryThreshold int64
	FreeDeliveryIn        int64
}

// Price prices basket b for a buyer with the given terms and coupon (nil for none).
// Lines whose product left the catalogue, or is discontinued, are dropped: they are not
// shown, priced or ordered.
func Price(b Basket, products map[string]catalogue.Product, terms pricing.Terms, coupon *Coupon, shop config.Shop, now time.Time) Priced {
	lines := slices.Clone(b.Lines)
	SortNewestAddedFirst(lines)
	// Today's lines and the forward lines are priced apart: the coupon is taken off
	// today's lines only, so each order's lines share its own coupon discount exactly.
	var today, forward []pricing.Line
	var isForward []bool
	for _, l := range lines {
		p, ok := products[l.SKU]
		if !ok || p.Discontinued() {
			continue
		}
		fwd := p.PreOrderOpen(now)
		isForward = append(isForward, fwd)
		if fwd {
			forward = append(forward, LineOf(p, l.Quantity))
		} else {
			today = append(today, LineOf(p, l.Quantity))
		}
	}
	var pc *pricing.Coupon
	if coupon != nil {
		pc = &coupon.Coupon
	}
	t := pricing.Price(today, terms, pc, now)
	f := pricing.Price(forward, terms, nil, now)
	net := t.NetExVAT + f.NetExVAT
	out := Priced{Basket: b, Terms: terms, Lines: make([]PricedLine, len(isForward)), GoodsExVAT: t.GoodsExVAT + f.GoodsExVAT,
		CouponDiscount: t.CouponDiscount, NetExVAT: net, VAT: t.VAT + f.VAT, TotalIncVAT: t.TotalIncVAT + f.TotalIncVAT,
		Coupon: coupon, CouponError: t.CouponError, Forward: Part{GoodsExVAT: f.GoodsExVAT, VAT: f.VAT, TotalIncVAT: f.TotalIncVAT},
		MinimumOrder: shop.MinimumOrderPence, BelowMinimumBy: max(0, shop.MinimumOrderPence-net),
		FreeDeliveryThreshold: shop.FreeDeliveryThresholdPence, FreeDeliveryIn: max(0, shop.FreeDeliveryThresholdPence-net)}
	ti, fi := 0, 0
	for i, fwd := range isForward {
		var l pricing.PricedLine
		if fwd {
			l, fi = f.Lines[fi], fi+1
		} else {
			l, ti = t.Lines[ti], ti+1
		}
		p := products[l.SKU]
		out.Lines[i] = PricedLine{PricedLine: l, Product: p, Availability: AvailabilityAt(p, now), Short: !fwd && l.Quantity > p.Stock, Forward: fwd}
	}
	return out
}

// Today is the lines that become today's order (all but the forward lines).
func (p Priced) Today() []PricedLine {
	return slices.DeleteFunc(slices.Clone(p.Lines), func(l PricedLine) bool { return l.Forward })
}

// ForwardLines is the lines that become the forward order.
func (p Priced) ForwardLines() []PricedLine {
	return slices.DeleteFunc(slices.Clone(p.Lines), func(l PricedLine) bool { return !l.Forward })
}

// ShortLines are the lines that ask for more than is in stock.
func (p Priced) ShortLines() []PricedLine {
	var out []PricedLine
	for _, l := range p.Lines {
		if l.Short {
			out = append(out, l)
		}
	}
	return out
}
