package pricing

import "time"

// This file stands in for the lead's price group types (issue 37, contract §1) until
// they are on main; it is deleted when they are merged.

// Tier is one quantity break: from From packs, a unit price (pence ex VAT) or a percent off the base.
type Tier struct {
	From    int   `json:"from"`              // packs, >= 2
	Price   int64 `json:"price,omitempty"`   // unit price; 0 when Percent is used
	Percent int   `json:"percent,omitempty"` // 1..99 off the base price
}

// Ladder is a break table: From strictly rising; at most 6 tiers; each cheaper than the one before.
type Ladder []Tier

// Rules is one layer of price rules, keyed "product:{SKU}", "category:{id}", "range:{urlText}".
type Rules struct {
	Prices    map[string]int64  `json:"prices,omitempty"`    // fixed unit price by SKU (product key only); groups only
	Discounts map[string]int    `json:"discounts,omitempty"` // percent off, 0..100
	Breaks    map[string]Ladder `json:"breaks,omitempty"`
}

// Group is a price group staff maintain.
type Group struct {
	ID        string // a slug: [a-z0-9-], 1..40, e.g. "independents"
	Name      string // 1..60 characters, one line: "Independents"
	Rules     Rules
	Version   int64
	UpdatedAt time.Time
}
