package api

import (
	"context"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
	"github.com/tradeshop/functions/internal/store"
)

// BasketStore is everything the basket endpoints read and write.
type BasketStore interface {
	basket.Store
	ProfileStore
	ProductReader
	AccountAndProducts(ctx context.Context, uid string, skus []string) (account.Account, map[string]catalogue.Product, error)
	Coupon(ctx context.Context, id string) (store.StoredCoupon, error)
	SetActiveCoupon(ctx context.Context, uid, prefixed string, at time.Time) error
}

var _ BasketStore = (*store.Store)(nil)

// availabilityAnswer is a product's availability: packs_left is told only when the
// status is "low" or "out". "preorder": the product is forward and its pre-order is open
// (docs/forward-orders.md): it is ordered ahead of its delivery, whatever the stock.
type availabilityAnswer struct {
	Status    basket.Status `json:"status" ts:"'in_stock' | 'low' | 'out' | 'preorder'"`
	PacksLeft *int          `json:"packs_left,omitempty"`
}

func availabilityOf(a basket.Availability) availabilityAnswer {
	out := availabilityAnswer{Status: a.Status}
	if a.Status != basket.InStock && a.Status != basket.PreOrder {
		out.PacksLeft = &a.PacksLeft
	}
	return out
}

// basketLine is one priced line of the full basket. Money is pence.
type basketLine struct {
	ID        string `json:"id"`
	SKU       string `json:"sku"`
	Name      string `json:"name"`
	Path      string `json:"path"`
	SmallImg  string `json:"small_img"`
	PackSize  int    `json:"pack_size"`
	Quantity  int    `json:"quantity"`
	ListPrice int64  `json:"list_price"` // the catalogue's price of one unit
	// BasePrice is the line's price of one unit before any break or discount: its price
	// group's price for the product, else the list price; BreakFrom the quantity break
	// it reached (packs; null for none) and BreakPrice the unit price there (base_price
	// when none); PriceGroup the name of the price group when any of its rules priced
	// the line (null otherwise).
	BasePrice       int64              `json:"base_price"`
	BreakFrom       *int               `json:"break_from"`
	BreakPrice      int64              `json:"break_price"`
	PriceGroup      *string            `json:"price_group"`
	UnitPrice       int64              `json:"unit_price"`       // the buyer's price of one unit: break_price less discount_percent
	DiscountPercent int                `json:"discount_percent"` // the buyer's discount on this line
	LineAmount      int64              `json:"line_amount"`      // quantity × unit_price
	VATRate         int                `json:"vat_rate"`
	VAT             int64              `json:"vat"`
	InStock         bool               `json:"in_stock"`
	Availability    availabilityAnswer `json:"availability"`
	// Short: the line asks for more than is in stock; it must change before ordering.
	Short bool `json:"short"`
	// Nudge is the next quantity break when the line is just under it (null
	// otherwise); Margin the buyer's margin at the product's RRP at unit_price (null
	// without an RRP).
	Nudge  *nudgeAnswer        `json:"nudge"`
	Margin *pages.MarginAnswer `json:"margin"`
	// DeliveryFrom is a forward line's delivery date and OrderBy the last day to
	// pre-order it (ISO dates): the line goes on the checkout's forward order. "" for a
	// line of goods in stock.
	DeliveryFrom string `json:"delivery_from"`
	OrderBy      string `json:"order_by"`
}

// partAnswer is what the forward lines of a basket cost: they become the forward order,
// priced without the coupon (docs/forward-orders.md). Pence.
type partAnswer struct {
	GoodsExVAT  int64 `json:"goods_ex_vat"`
	VAT         int64 `json:"vat"`
	TotalIncVAT int64 `json:"total_inc_vat"`
}

// forwardTotalOf is the forward part's answer, nil when the basket has no forward line.
func forwardTotalOf(p basket.Priced) *partAnswer {
	if len(p.ForwardLines()) == 0 {
		return nil
	}
	return &partAnswer{GoodsExVAT: p.Forward.GoodsExVAT, VAT: p.Forward.VAT, TotalIncVAT: p.Forward.TotalIncVAT}
}

type basketCoupon struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Error       string `json:"error,omitempty"`
}

// basketAnswer is the full basket with its totals and the order nudges.
type basketAnswer struct {
	Lines                 []basketLine  `json:"lines"`
	GoodsExVAT            int64         `json:"goods_ex_vat"`
	CouponDiscount        int64         `json:"coupon_discount"`
	NetExVAT              int64         `json:"net_ex_vat"`
	VAT                   int64         `json:"vat"`
	TotalIncVAT           int64         `json:"total_inc_vat"`
	Coupon                *basketCoupon `json:"coupon"`
	MinimumOrder          int64         `json:"minimum_order"`
	BelowMinimumBy        int64         `json:"below_minimum_by"`
	FreeDeliveryThreshold int64         `json:"free_delivery_threshold"`
	FreeDeliveryIn        int64         `json:"free_delivery_in"`
	// PriceGroup is the buyer's price group (null for none).
	PriceGroup *priceGroupRef `json:"price_group"`
	// ForwardTotal is what the forward lines cost (null without any): the totals above
	// are the whole basket's, today's order is the rest.
	ForwardTotal *partAnswer `json:"forward_total"`
}

// basketAnswerOf maps a priced basket to the answer.
func basketAnswerOf(p basket.Priced) basketAnswer {
	a := basketAnswer{Lines: make([]basketLine, len(p.Lines)), GoodsExVAT: p.GoodsExVAT, CouponDiscount: p.CouponDiscount,
		NetExVAT: p.NetExVAT, VAT: p.VAT, TotalIncVAT: p.TotalIncVAT, MinimumOrder: p.MinimumOrder, BelowMinimumBy: p.BelowMinimumBy,
		FreeDeliveryThreshold: p.FreeDeliveryThreshold, FreeDeliveryIn: p.FreeDeliveryIn, PriceGroup: priceGroupRefOf(p.Terms),
		ForwardTotal: forwardTotalOf(p)}
	for i, l := range p.Lines {
		pr := l.Product
		a.Lines[i] = basketLine{ID: pr.SKU, SKU: pr.SKU, Name: pr.Name, Path: catalogue.ProductPath(pr), SmallImg: pr.SmallImg,
			PackSize: pr.PackSize, Quantity: l.Quantity, ListPrice: pr.UnitPrice, UnitPrice: l.NetUnitPrice, DiscountPercent: l.DiscountPercent,
			LineAmount: l.NetAmount, VATRate: pr.VATRate, VAT: l.VAT, InStock: l.Availability.Status != basket.OutOfStock,
			Availability: availabilityOf(l.Availability), Short: l.Short, BasePrice: l.BasePrice, BreakFrom: breakFromOf(l.PricedLine),
			BreakPrice: l.BreakPrice, PriceGroup: groupNameOf(l.PricedLine), Nudge: nudgeAnswerOf(l.Nudge), Margin: pages.MarginOf(l.Margin)}
		if l.Forward {
			a.Lines[i].DeliveryFrom, a.Lines[i].OrderBy = pr.Forward.DeliveryFrom, pr.Forward.OrderBy
		}
		if l.Short {
			// A short line says how many packs can be had, however many that is.
			a.Lines[i].Availability.PacksLeft = &l.Availability.PacksLeft
		}
	}
	if p.Coupon != nil {
		a.Coupon = &basketCoupon{ID: p.Coupon.ID, Description: p.Coupon.Description}
		if p.CouponError != nil {
			a.Coupon.Error = p.CouponError.Error()
		}
	}
	return a
}

// savedProfile answers the buyer's profile, or an empty one when none is saved yet.
func savedProfile(ctx context.Context, st ProfileStore, uid string) (store.Profile, error) {
	p, err := st.Profile(ctx, uid)
	if isNotFound(err) {
		return store.Profile{}, nil
	}
	return p, err
}
