package orders

import "testing"

func TestPriceText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		line Line
		want string
	}{
		{"at the list price", Line{ListPrice: 95, BasePrice: 95, BreakPrice: 95, UnitPrice: 95}, "£0.95"},
		{"a discount", Line{ListPrice: 300, BasePrice: 300, BreakPrice: 300, DiscountPercent: 5, UnitPrice: 285}, "£2.85 (list £3.00, 5% off)"},
		{"a break", Line{ListPrice: 95, BasePrice: 95, BreakFrom: 12, BreakPrice: 85, UnitPrice: 85}, "£0.85 (list £0.95, 12+ packs £0.85)"},
		{"a break and a discount", Line{ListPrice: 95, BasePrice: 95, BreakFrom: 12, BreakPrice: 90, DiscountPercent: 5, UnitPrice: 86},
			"£0.86 (list £0.95, 12+ packs £0.90, 5% off)"},
		{"a group's price", Line{ListPrice: 95, BasePrice: 80, BreakPrice: 80, UnitPrice: 80, Group: "independents", GroupName: "Independents"},
			"£0.80 (list £0.95, group price £0.80)"},
		{"a 100% discount", Line{ListPrice: 95, BasePrice: 95, BreakPrice: 95, DiscountPercent: 100}, "£0.00 (list £0.95, 100% off)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.line.PriceText(); got != tc.want {
				t.Errorf("PriceText() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPriceGroupName(t *testing.T) {
	t.Parallel()
	plain := Line{SKU: "A"}
	for _, tc := range []struct {
		name  string
		lines []Line
		want  string
	}{
		{"no group", []Line{plain}, ""},
		{"a group priced one line", []Line{plain, {SKU: "B", Group: "independents", GroupName: "Independents"}}, "Independents"},
		{"a group without its name", []Line{{Group: "independents"}}, "independents"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := (Order{Lines: tc.lines}).PriceGroupName(); got != tc.want {
				t.Errorf("PriceGroupName() = %q, want %q", got, tc.want)
			}
		})
	}
}
