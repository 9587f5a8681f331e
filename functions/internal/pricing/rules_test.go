package pricing

import (
	"testing"
)

// balloon is a line of a product with its own breaks: 6 packs at 90p, 12 at 85p (list 95p).
func balloon(qty int) Line {
	return Line{SKU: "BA603-00001", Quantity: qty, UnitPrice: 95, VATRate: 20, RangeURLText: "wholesale_balloons", CategoryID: 603,
		PackSize: 6, Breaks: Ladder{{From: 6, Price: 90}, {From: 12, Price: 85}}, RRP: 199}
}

func group(r Rules) *Group { return &Group{ID: "independents", Name: "Independents", Rules: r} }

// TestPriceOneSteps runs each step of docs/pricing.md "The rule" and what it reports.
func TestPriceOneSteps(t *testing.T) {
	t.Parallel()
	plain := balloon(6)
	plain.Breaks = nil
	for _, tc := range []struct {
		name                   string
		l                      Line
		terms                  Terms
		base, breakPrice, unit int64
		breakFrom, pct         int
		group                  string
		nudge                  *Nudge
	}{
		{"list price, below the first break", balloon(6), Terms{}, 95, 95, 95, 0, 0, "", nil},
		{"4 packs: nudged to the 6-pack break", balloon(24), Terms{}, 95, 95, 95, 0, 0, "", &Nudge{AddPacks: 2, UnitPrice: 90, Saving: 36 * 5}},
		{"6 packs: the break, nudged to 12", balloon(36), Terms{}, 95, 90, 90, 6, 0, "", &Nudge{AddPacks: 6, UnitPrice: 85, Saving: 72 * 5}},
		{"2 packs: not just under the 6-pack break, no nudge", balloon(12), Terms{}, 95, 95, 95, 0, 0, "", nil},
		{"12 packs: the last break", balloon(72), Terms{}, 95, 85, 85, 12, 0, "", nil},
		{"a public discount on the break price, half up", balloon(36), shopTerms(map[string]int{"range:wholesale_balloons": 10}), 95, 90, 81, 6, 10, "", &Nudge{AddPacks: 6, UnitPrice: 76, Saving: 72 * 5}},
		{"a public discount on the list price rounds half up", balloon(6), shopTerms(map[string]int{"range:wholesale_balloons": 10}), 95, 95, 85, 0, 10, "", nil},
		{"group price is the base; a dearer break does not raise it", balloon(36), Terms{Group: group(Rules{Prices: map[string]int64{"product:BA603-00001": 80}})}, 80, 80, 80, 6, 0, "independents", nil},
		{"group table over the product's own at one key", balloon(60), Terms{Group: group(Rules{Breaks: map[string]Ladder{"product:BA603-00001": {{From: 10, Percent: 20}}}})}, 95, 76, 76, 10, 0, "independents", nil},
		{"the product's own table over a group category table", balloon(72), Terms{Group: group(Rules{Breaks: map[string]Ladder{"category:603": {{From: 3, Percent: 50}}}})}, 95, 85, 85, 12, 0, "", nil},
		{"group category table for a product without its own", withQty(plain, 18), Terms{Group: group(Rules{Breaks: map[string]Ladder{"category:603": {{From: 3, Percent: 50}}}})}, 95, 47, 47, 3, 0, "independents", nil},
		{"shop category table", withQty(plain, 18), Terms{Shop: Rules{Breaks: map[string]Ladder{"category:603": {{From: 3, Percent: 10}}}}}, 95, 85, 85, 3, 0, "", nil},
		{"percent break off the group's price", balloon(72), Terms{Group: group(Rules{Prices: map[string]int64{"product:BA603-00001": 80}, Breaks: map[string]Ladder{"product:BA603-00001": {{From: 12, Percent: 10}}}})}, 80, 72, 72, 12, 0, "independents", nil},
		{"group discount over the shop's at one key", balloon(6), Terms{Shop: Rules{Discounts: map[string]int{"category:603": 5}}, Group: group(Rules{Discounts: map[string]int{"category:603": 20}})}, 95, 95, 76, 0, 20, "independents", nil},
		{"a more specific shop discount over the group's range one", balloon(6), Terms{Shop: Rules{Discounts: map[string]int{"category:603": 5}}, Group: group(Rules{Discounts: map[string]int{"range:wholesale_balloons": 20}})}, 95, 95, 90, 0, 5, "", nil},
		{"the account over the group at one key", balloon(6), Terms{Group: group(Rules{Discounts: map[string]int{"category:603": 20}}), Own: map[string]int{"category:603": 10}}, 95, 95, 85, 0, 10, "", nil},
		{"the group's product discount over the account's range one", balloon(6), Terms{Group: group(Rules{Discounts: map[string]int{"product:BA603-00001": 20}}), Own: map[string]int{"range:wholesale_balloons": 30}}, 95, 95, 76, 0, 20, "independents", nil},
		{"an account's 0% at the product key wins", balloon(6), Terms{Shop: Rules{Discounts: map[string]int{"range:wholesale_balloons": 10}}, Own: map[string]int{"product:BA603-00001": 0}}, 95, 95, 95, 0, 0, "", nil},
		{"no nudge past the line maximum", Line{SKU: "B", Quantity: 9000, UnitPrice: 10, PackSize: 1000, Breaks: Ladder{{From: 11, Price: 9}}}, Terms{}, 10, 10, 10, 0, 0, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := PriceOne(tc.l, tc.terms)
			if got.BasePrice != tc.base || got.BreakPrice != tc.breakPrice || got.NetUnitPrice != tc.unit || got.BreakFrom != tc.breakFrom ||
				got.DiscountPercent != tc.pct || got.Group != tc.group {
				t.Fatalf("base %d break %d (from %d) unit %d at %d%% group %q; want %d %d (%d) %d %d%% %q",
					got.BasePrice, got.BreakPrice, got.BreakFrom, got.NetUnitPrice, got.DiscountPercent, got.Group,
					tc.base, tc.breakPrice, tc.breakFrom, tc.unit, tc.pct, tc.group)
			}
			if got.NetAmount != int64(tc.l.Quantity)*got.NetUnitPrice {
				t.Fatalf("line %d is not %d × %d", got.NetAmount, tc.l.Quantity, got.NetUnitPrice)
			}
			if (got.Nudge == nil) != (tc.nudge == nil) || got.Nudge != nil && *got.Nudge != *tc.nudge {
				t.Fatalf("nudge %+v, want %+v", got.Nudge, tc.nudge)
			}
		})
	}
}

func withQty(l Line, q int) Line { l.Quantity = q; return l }

func TestMarginAt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rrp, cost int64
		vat, want int
	}{
		{199, 95, 20, 427},   // RRP ex VAT 165.83p: 42.71%
		{100, 50, 0, 500},    // no VAT
		{100, 100, 20, -200}, // cost above RRP ex VAT: −20.0%
		{2000, 1999, 0, 1},   // 0.05% is half a tenth: rounds up
		{2000, 2001, 0, 0},   // −0.05%: half up is towards +∞
		{2000, 2003, 0, -1},  // −0.15% → −0.1%
		{299, 0, 20, 1000},   // free to the buyer
		{499, 120, 5, 747},   // 5% VAT: ex VAT 475.24p, (475.24 − 120) / 475.24 = 74.75% → 74.7 (exactly 74.74..)
	} {
		if got := MarginAt(tc.rrp, tc.cost, tc.vat); got.Tenths != tc.want || got.RRP != tc.rrp {
			t.Errorf("MarginAt(%d, %d, %d%%) = %+v, want %d tenths", tc.rrp, tc.cost, tc.vat, got, tc.want)
		}
	}
	if got := PriceOne(balloon(36), Terms{}).Margin; got == nil || got.Tenths != MarginAt(199, 90, 20).Tenths {
		t.Errorf("a priced line's margin is %+v, want the margin of its unit price", got)
	}
	l := balloon(6)
	l.RRP = 0
	if got := PriceOne(l, Terms{}).Margin; got != nil {
		t.Errorf("a product without an RRP has margin %+v", got)
	}
}

func TestTable(t *testing.T) {
	t.Parallel()
	rows := Table(balloon(0), shopTerms(map[string]int{"range:wholesale_balloons": 10}))
	want := []BreakRow{{1, 5, 85, 510, nil}, {6, 11, 81, 486, nil}, {12, 0, 76, 456, nil}}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v", rows)
	}
	for i, r := range rows {
		if r.Margin == nil || r.Margin.Tenths != MarginAt(199, want[i].UnitPrice, 20).Tenths {
			t.Errorf("row %d margin %+v", i, r.Margin)
		}
		r.Margin = nil
		if r != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, r, want[i])
		}
	}
	plain := balloon(0)
	plain.Breaks = nil
	if got := Table(plain, Terms{}); got != nil {
		t.Errorf("a product without breaks has a table: %+v", got)
	}
}

func TestLadderCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ld     Ladder
		list   int64
		prices bool
		bad    bool
	}{
		{Ladder{{From: 6, Price: 90}, {From: 12, Price: 85}}, 95, true, false},
		{Ladder{{From: 6, Percent: 5}, {From: 12, Percent: 10}}, 0, false, false},
		{Ladder{{From: 1, Price: 90}}, 95, true, true},                        // from 1 is the base
		{Ladder{{From: 12, Price: 90}, {From: 6, Price: 85}}, 95, true, true}, // not rising
		{Ladder{{From: 6, Price: 90}, {From: 6, Price: 85}}, 95, true, true},  // twice
		{Ladder{{From: 6, Price: 95}}, 95, true, true},                        // not below list
		{Ladder{{From: 6, Price: 90}, {From: 12, Price: 90}}, 95, true, true}, // not cheaper
		{Ladder{{From: 6, Percent: 10}, {From: 12, Percent: 5}}, 0, false, true},
		{Ladder{{From: 6, Price: 90}}, 0, false, true},                          // a price for a category
		{Ladder{{From: 6, Percent: 100}}, 0, false, true},                       // at most 99
		{Ladder{{From: 6, Price: 90, Percent: 5}}, 95, true, true},              // both
		{Ladder{{From: 6, Price: 90}, {From: 12, Percent: 10}}, 95, true, true}, // mixed
		{Ladder{{From: 2, Percent: 1}, {From: 3, Percent: 2}, {From: 4, Percent: 3}, {From: 5, Percent: 4}, {From: 6, Percent: 5}, {From: 7, Percent: 6}, {From: 8, Percent: 7}}, 0, false, true},
	} {
		if got := tc.ld.Check(tc.list, tc.prices); (got != "") != tc.bad {
			t.Errorf("%+v: %q, want bad=%v", tc.ld, got, tc.bad)
		}
	}
}
