package pricing

// This file holds owner A's stand-ins for the issue 37 pricing types until the lead's
// versions land on main; it is deleted then (the lead's versions win).

// Tier is one quantity break: from From packs, a unit price (pence ex VAT) or a percent off the base.
type Tier struct {
	From    int   `json:"from"`              // packs, >= 2
	Price   int64 `json:"price,omitempty"`   // unit price; 0 when Percent is used
	Percent int   `json:"percent,omitempty"` // 1..99 off the base price
}

// Ladder is a break table: From strictly rising; at most 6 tiers; each cheaper than the one before.
type Ladder []Tier

// Margin is the margin a unit cost leaves at an RRP: in tenths of a percent, may be negative.
type Margin struct {
	RRP    int64
	Tenths int
}

// MarginAt is the margin of a unit bought at unitExVAT and sold at rrpIncVAT (VAT at
// vatRate percent): (RRP ex VAT − cost) ÷ RRP ex VAT in tenths of a percent, rounded half
// up towards +∞, with RRP ex VAT kept exact as RRP × 100 / (100 + vatRate).
func MarginAt(rrpIncVAT, unitExVAT int64, vatRate int) Margin {
	if rrpIncVAT <= 0 {
		return Margin{RRP: rrpIncVAT}
	}
	num := 1000 * (rrpIncVAT*100 - unitExVAT*int64(100+vatRate))
	den := rrpIncVAT * 100
	return Margin{RRP: rrpIncVAT, Tenths: int(floorDiv(2*num+den, 2*den))}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
