package api

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
)

// BasketStore is everything the basket endpoints read and write.
type BasketStore interface {
	BasketReader
	ProductReader
	ProfileStore
	Coupon(ctx context.Context, id string) (store.StoredCoupon, error)
	AddToBasketUpTo(ctx context.Context, uid, sku string, quantity, limit int, at time.Time) error
	SetBasketQuantity(ctx context.Context, uid, sku string, quantity int, at time.Time) error
	RemoveFromBasket(ctx context.Context, uid, sku string) error
	SetActiveCoupon(ctx context.Context, uid, prefixed string, at time.Time) error
}

var _ BasketStore = (*store.Store)(nil)

// basketLine is one priced line of the full basket. Money is pence.
type basketLine struct {
	ID              string `json:"id"`
	SKU             string `json:"sku"`
	Name            string `json:"name"`
	Path            string `json:"path"`
	SmallImg        string `json:"small_img"`
	PackSize        int    `json:"pack_size"`
	Quantity        int    `json:"quantity"`
	ListPrice       int64  `json:"list_price"`       // the catalogue's price of one unit
	UnitPrice       int64  `json:"unit_price"`       // the buyer's price of one unit: list less discount_percent
	DiscountPercent int    `json:"discount_percent"` // the buyer's discount on this line
	LineAmount      int64  `json:"line_amount"`      // quantity × unit_price
	VATRate         int    `json:"vat_rate"`
	VAT             int64  `json:"vat"`
	InStock         bool   `json:"in_stock"`
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
}

// priceBasket reads uid's lines, products, discounts and coupon and prices them; lines
// come most recently added first, and keep their place when their quantity changes.
// Lines whose product left the catalogue are dropped.
func priceBasket(ctx context.Context, st BasketStore, shop config.Shop, uid string, now time.Time) (basketAnswer, error) {
	profile, err := savedProfile(ctx, st, uid)
	if err != nil {
		return basketAnswer{}, err
	}
	return priceBasketFor(ctx, st, shop, uid, profile, now)
}

// savedProfile answers the buyer's profile, or an empty one when none is saved yet.
func savedProfile(ctx context.Context, st ProfileStore, uid string) (store.Profile, error) {
	p, err := st.Profile(ctx, uid)
	if isNotFound(err) {
		return store.Profile{}, nil
	}
	return p, err
}

// priceBasketFor is priceBasket with the buyer's profile (discounts, active coupon) already read.
func priceBasketFor(ctx context.Context, st BasketStore, shop config.Shop, uid string, profile store.Profile, now time.Time) (basketAnswer, error) {
	lines, err := st.BasketLines(ctx, uid)
	if err != nil {
		return basketAnswer{}, err
	}
	sortNewestAddedFirst(lines)
	skus := make([]string, len(lines))
	for i, l := range lines {
		skus[i] = l.SKU
	}
	products, err := st.ProductsBySKU(ctx, skus)
	if err != nil {
		return basketAnswer{}, err
	}
	discounts, err := pricing.MergeDiscounts(shop.DefaultDiscounts, profile.DSC)
	if err != nil {
		return basketAnswer{}, err
	}
	var coupon *store.StoredCoupon
	if id := strings.TrimPrefix(profile.ActiveCouponID, couponPrefix); id != "" {
		c, err := st.Coupon(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return basketAnswer{}, err
		}
		if err == nil {
			coupon = &c
		}
	}
	var toPrice []pricing.Line
	for _, l := range lines {
		p, ok := products[l.SKU]
		if !ok {
			continue
		}
		toPrice = append(toPrice, pricing.Line{SKU: p.SKU, Quantity: l.Quantity, UnitPrice: p.UnitPrice,
			VATRate: p.VATRate, RangeURLText: p.RangeURLText, CategoryID: p.CategoryID})
	}
	var pc *pricing.Coupon
	if coupon != nil {
		pc = &coupon.Coupon
	}
	t := pricing.Price(toPrice, discounts, pc, now)
	a := basketAnswer{Lines: make([]basketLine, len(t.Lines)), GoodsExVAT: t.GoodsExVAT, CouponDiscount: t.CouponDiscount,
		NetExVAT: t.NetExVAT, VAT: t.VAT, TotalIncVAT: t.TotalIncVAT, MinimumOrder: shop.MinimumOrderPence,
		BelowMinimumBy: max(0, shop.MinimumOrderPence-t.NetExVAT), FreeDeliveryThreshold: shop.FreeDeliveryThresholdPence,
		FreeDeliveryIn: max(0, shop.FreeDeliveryThresholdPence-t.NetExVAT)}
	for i, l := range t.Lines {
		p := products[l.SKU]
		a.Lines[i] = basketLine{ID: p.SKU, SKU: p.SKU, Name: p.Name, Path: catalogue.ProductPath(p), SmallImg: p.SmallImg,
			PackSize: p.PackSize, Quantity: l.Quantity, ListPrice: p.UnitPrice, UnitPrice: l.NetUnitPrice, DiscountPercent: l.DiscountPercent,
			LineAmount: l.NetAmount, VATRate: p.VATRate, VAT: l.VAT, InStock: p.Stock > 0}
	}
	if coupon != nil {
		a.Coupon = &basketCoupon{ID: coupon.ID, Description: coupon.Description}
		if t.CouponError != nil {
			a.Coupon.Error = t.CouponError.Error()
		}
	}
	return a, nil
}

// sortNewestAddedFirst orders basket lines by when each was first added, newest first
// (SKU breaks a tie), so changing a quantity never moves a line.
func sortNewestAddedFirst(lines []store.BasketLine) {
	slices.SortStableFunc(lines, func(a, b store.BasketLine) int {
		if c := b.AddedAt.Compare(a.AddedAt); c != 0 {
			return c
		}
		return strings.Compare(a.SKU, b.SKU)
	})
}
