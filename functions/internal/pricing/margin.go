package pricing

// Margin is a retailer's margin at the recommended retail price: RRP is pence inc VAT
// per unit, Tenths the margin in tenths of a percent (524 is 52.4%), negative when the
// unit costs more than the RRP's price ex VAT.
type Margin struct {
	RRP    int64
	Tenths int
}

// MarginAt is the margin a retailer makes selling at rrpIncVAT a unit bought at
// unitExVAT: (RRP ex VAT − unit cost) ÷ RRP ex VAT, with RRP ex VAT = RRP × 100 ÷
// (100 + VAT rate) kept exact (no penny rounding), in tenths of a percent rounded half
// up (towards +∞), worked out in whole numbers:
//
//	tenths = ⌊(1000·(RRP·100 − cost·(100+vat)) ÷ (RRP·100)) + ½⌋
func MarginAt(rrpIncVAT, unitExVAT int64, vatRate int) Margin {
	if rrpIncVAT <= 0 {
		return Margin{}
	}
	den := rrpIncVAT * 100
	num := 1000 * (den - unitExVAT*int64(100+vatRate))
	return Margin{RRP: rrpIncVAT, Tenths: int(floorDiv(2*num+den, 2*den))}
}

// floorDiv is a ÷ b rounded down (towards −∞), b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
