package basket

import (
	"context"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

// LineOf is quantity units of product p as the pricing rules take a line: the one place
// a product becomes a pricing.Line, so every path prices it from the same facts.
func LineOf(p catalogue.Product, quantity int) pricing.Line {
	return pricing.Line{SKU: p.SKU, Quantity: quantity, UnitPrice: p.UnitPrice, VATRate: p.VATRate,
		RangeURLText: p.RangeURLText, CategoryID: p.CategoryID, PackSize: p.PackSize, Breaks: p.Breaks, RRP: p.RRP}
}

// GroupReader reads the price groups: every group by id, and how old that read is (the
// store keeps them per process for up to a minute, so a warm read makes no call).
type GroupReader interface {
	PriceGroups(ctx context.Context) (map[string]pricing.Group, time.Duration, error)
}

// LoadTerms is the buyer's pricing terms for account acct: the one way every path that
// prices for a buyer (the basket, /api/prices, quick order, saved lists, placing an
// order) makes them. The groups are read only when the account has one, so an account
// without a group costs no call. A group the account names that no longer exists prices
// as none.
func LoadTerms(ctx context.Context, groups GroupReader, shop config.Shop, acct account.Account) (pricing.Terms, error) {
	var group *pricing.Group
	var age time.Duration
	if acct.PriceGroup != "" {
		all, read, err := groups.PriceGroups(ctx)
		if err != nil {
			return pricing.Terms{}, err
		}
		if g, ok := all[acct.PriceGroup]; ok {
			group, age = &g, read
		}
	}
	return TermsFor(shop, acct, group, age)
}

// TermsFor is a buyer's pricing terms: the shop's public rules, the account's price
// group (nil for none; groupAge how old its read is) and the account's own discounts.
func TermsFor(shop config.Shop, acct account.Account, group *pricing.Group, groupAge time.Duration) (pricing.Terms, error) {
	t, err := pricing.NewTerms(pricing.ShopRules(shop.DefaultDiscounts, shop.Breaks()), group, acct.DSC)
	if err != nil {
		return pricing.Terms{}, err
	}
	if group != nil {
		t.GroupAge = groupAge
	}
	return t, nil
}
