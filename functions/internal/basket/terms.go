package basket

import (
	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

// LineOf is quantity units of product p as the pricing rules take a line: the one place
// a product becomes a pricing.Line, so every path prices it from the same facts.
func LineOf(p catalogue.Product, quantity int) pricing.Line {
	return pricing.Line{SKU: p.SKU, Quantity: quantity, UnitPrice: p.UnitPrice, VATRate: p.VATRate,
		RangeURLText: p.RangeURLText, CategoryID: p.CategoryID, PackSize: p.PackSize}
}

// TermsFor is a buyer's pricing terms: the shop's public rules and the account's own
// discounts.
func TermsFor(shop config.Shop, acct account.Account) (pricing.Terms, error) {
	return pricing.NewTerms(pricing.ShopRules(shop.DefaultDiscounts, nil), nil, acct.DSC)
}
