package pages

import "github.com/tradeshop/functions/internal/pricing"

// A stand-in for owner A's wire types of issue 37 (same names and fields), until A's
// work reaches main: delete this file when it does.

// MarginAnswer is the margin a unit price leaves at the product's RRP: RRP in pence inc
// VAT a unit, Tenths the margin in tenths of a percent (524 is 52.4%).
type MarginAnswer struct {
	RRP    int64 `json:"rrp"`
	Tenths int   `json:"tenths"`
}

// BreakRowAnswer is one row of a break table: from FromPacks to ToPacks packs (nil: and
// up) a unit costs UnitPrice and a pack PackPrice, leaving Margin at the RRP.
type BreakRowAnswer struct {
	FromPacks int           `json:"from_packs"`
	ToPacks   *int          `json:"to_packs"`
	UnitPrice int64         `json:"unit_price"`
	PackPrice int64         `json:"pack_price"`
	Margin    *MarginAnswer `json:"margin"`
}

// MarginOf is m as the wire carries it; nil for nil.
func MarginOf(m *pricing.Margin) *MarginAnswer {
	if m == nil {
		return nil
	}
	return &MarginAnswer{RRP: m.RRP, Tenths: m.Tenths}
}
