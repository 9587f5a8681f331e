package api

import (
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
	"github.com/tradeshop/functions/internal/pricing"
)

// The pricing facts the buyer's answers carry (docs/pricing.md "The rule"): the price
// group that priced them, a product's own break table and margin, a line's break and
// nudge. The margin and break row types are the static pages' (package pages), so a
// product page and /api/prices speak of them alike.

// priceGroupRef is the buyer's price group as an answer names it: its id and name, and
// how old the shop's read of it is in whole seconds (groups are kept per function for
// up to a minute, so a change reaches the buyer within that).
type priceGroupRef struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	AgeSeconds int    `json:"age_seconds"`
}

// priceGroupRefOf is the price group of terms; nil for none.
func priceGroupRefOf(t pricing.Terms) *priceGroupRef {
	if t.Group == nil {
		return nil
	}
	return &priceGroupRef{ID: t.Group.ID, Name: t.Group.Name, AgeSeconds: int(t.GroupAge / time.Second)}
}

// nudgeAnswer is a basket line's next quantity break: add AddPacks packs to pay
// UnitPrice a unit, which saves the whole line Saving against its unit price now.
type nudgeAnswer struct {
	AddPacks  int   `json:"add_packs"`
	UnitPrice int64 `json:"unit_price"`
	Saving    int64 `json:"saving"`
}

// nudgeAnswerOf is n as the wire carries it; nil for nil.
func nudgeAnswerOf(n *pricing.Nudge) *nudgeAnswer {
	if n == nil {
		return nil
	}
	return &nudgeAnswer{AddPacks: n.AddPacks, UnitPrice: n.UnitPrice, Saving: n.Saving}
}

// breaksOf is the buyer's break table for product p at their own final prices
// (pricing.Table); [] when no break table applies to it.
func breaksOf(p catalogue.Product, terms pricing.Terms) []pages.BreakRowAnswer {
	return pages.BreakRowsOf(pricing.Table(basket.LineOf(p, p.PackSize), terms))
}

// breakFromOf is the break a line reached, in packs; nil for none.
func breakFromOf(l pricing.PricedLine) *int {
	if l.BreakFrom == 0 {
		return nil
	}
	from := l.BreakFrom
	return &from
}

// groupNameOf is the name of the price group that priced a line; nil when none did.
func groupNameOf(l pricing.PricedLine) *string {
	if l.Group == "" {
		return nil
	}
	name := l.GroupName
	return &name
}
