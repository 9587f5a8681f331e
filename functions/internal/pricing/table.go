package pricing

// BreakRow is one row of a product's quantity price table as a buyer sees it: from
// FromPacks to ToPacks packs (0: and up), the final unit price (after their discount),
// the pack price and the margin at RRP (nil without an RRP).
type BreakRow struct {
	FromPacks int
	ToPacks   int
	UnitPrice int64
	PackPrice int64
	Margin    *Margin
}

// Table is a buyer's quantity price table for product line l (its Quantity is not
// used): a row from 1 pack, then one per break, priced through the same steps as a
// basket line. nil when no break table applies to the product.
func Table(l Line, terms Terms) []BreakRow {
	ld, _ := terms.ladder(l)
	if len(ld) == 0 {
		return nil
	}
	froms := []int{1}
	for _, tr := range ld {
		froms = append(froms, tr.From)
	}
	rows := make([]BreakRow, len(froms))
	for i, from := range froms {
		pl := priceAt(l, terms, from)
		rows[i] = BreakRow{FromPacks: from, UnitPrice: pl.NetUnitPrice, PackPrice: int64(l.packSize()) * pl.NetUnitPrice, Margin: pl.Margin}
		if i+1 < len(froms) {
			rows[i].ToPacks = froms[i+1] - 1
		}
	}
	return rows
}
