package pages

import (
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

// publicBreakRowsStubA is the product's public break table at list prices, rows from 1
// pack up, until pricing.Table (with empty Terms) lands on main and replaces it: a
// price break is min(list, price), a percent break the list price less that percent
// rounded half up.
func publicBreakRowsStubA(p catalogue.Product) []BreakRowAnswer {
	if len(p.Breaks) == 0 {
		return []BreakRowAnswer{}
	}
	row := func(from int, unit int64) BreakRowAnswer {
		r := BreakRowAnswer{FromPacks: from, UnitPrice: unit, PackPrice: unit * int64(p.PackSize)}
		if p.RRP > 0 {
			m := pricing.MarginAt(p.RRP, unit, p.VATRate)
			r.Margin = MarginOf(&m)
		}
		return r
	}
	rows := []BreakRowAnswer{row(1, p.UnitPrice)}
	for _, t := range p.Breaks {
		unit := min(p.UnitPrice, t.Price)
		if t.Percent > 0 {
			unit = p.UnitPrice - pricing.RoundPercent(p.UnitPrice, t.Percent)
		}
		to := t.From - 1
		rows[len(rows)-1].ToPacks = &to
		rows = append(rows, row(t.From, unit))
	}
	return rows
}
