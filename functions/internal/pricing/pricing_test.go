package pricing

import (
	"errors"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// shopTerms are terms with only public discounts d.
func shopTerms(d map[string]int) Terms { return Terms{Shop: Rules{Discounts: d}} }

func card(sku string, qty int, unit int64) Line {
	return Line{SKU: sku, Quantity: qty, UnitPrice: unit, VATRate: 20, RangeURLText: "wholesale_greeting_cards", CategoryID: 101}
}

func TestCheckQuantity(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		qty, pack int
		want      error
	}{
		{6, 6, nil}, {12, 6, nil}, {MaxLineUnits, 10, nil},
		{0, 6, ErrQuantityTooSmall}, {-6, 6, ErrQuantityTooSmall}, {3, 6, ErrQuantityTooSmall},
		{7, 6, ErrQuantityNotPacks}, {MaxLineUnits + 10, 10, ErrQuantityTooLarge},
	} {
		if err := CheckQuantity(tc.qty, tc.pack); !errors.Is(err, tc.want) {
			t.Errorf("CheckQuantity(%d, %d) = %v, want %v", tc.qty, tc.pack, err, tc.want)
		}
	}
}

func TestDiscountMostSpecificKeyWins(t *testing.T) {
	t.Parallel()
	d := map[string]int{"range:wholesale_greeting_cards": 5, "category:101": 10, "product:GC101-00001": 15}
	for _, tc := range []struct {
		l    Line
		want int
	}{
		{card("GC101-00001", 6, 100), 15},
		{card("GC101-00002", 6, 100), 10},
		{Line{SKU: "GC106-00001", CategoryID: 106, RangeURLText: "wholesale_greeting_cards"}, 5},
		{Line{SKU: "BL601-00001", CategoryID: 601, RangeURLText: "wholesale_balloons"}, 0},
	} {
		if got, _ := shopTerms(d).discount(tc.l); got != tc.want {
			t.Errorf("%s: %d%%, want %d%%", tc.l.SKU, got, tc.want)
		}
	}
}

func TestPrice(t *testing.T) {
	t.Parallel()
	pct := func(p int, min int64) *Coupon {
		return &Coupon{ID: "P", Kind: "percent", Percent: p, MinSpendPence: min}
	}
	fixed := func(a int64) *Coupon { return &Coupon{ID: "F", Kind: "fixed", AmountPence: a} }
	for _, tc := range []struct {
		name                         string
		lines                        []Line
		disc                         map[string]int
		coupon                       *Coupon
		goods, couponOff, vat, total int64
		couponErr                    error
	}{
		{"empty basket", nil, nil, nil, 0, 0, 0, 0, nil},
		{"one line, no discounts", []Line{card("A", 12, 65)}, nil, nil, 780, 0, 156, 936, nil},
		{"value cards at 19p", []Line{card("V", 24, 19)}, nil, nil, 456, 0, 91, 547, nil},                                        // 91.2 -> 91
		{"unit discount rounds half up", []Line{card("A", 6, 75)}, map[string]int{"category:101": 5}, nil, 426, 0, 85, 511, nil}, // 3.75 -> 4 off a unit: 6 × 71
		{"percent coupon", []Line{card("A", 12, 100), card("B", 6, 50)}, nil, pct(10, 0), 1500, 150, 270, 1620, nil},
		{"coupon below minimum spend takes nothing", []Line{card("A", 6, 100)}, nil, pct(10, 10000), 600, 0, 120, 720, ErrCouponMinimum},
		{"fixed coupon larger than the goods is capped", []Line{card("A", 6, 100)}, nil, fixed(5000), 600, 600, 0, 0, nil},
		{"expired coupon", []Line{card("A", 6, 100)}, nil, &Coupon{Kind: "percent", Percent: 10, ValidTo: now.Add(-time.Hour)}, 600, 0, 120, 720, ErrCouponExpired},
		{"coupon not started", []Line{card("A", 6, 100)}, nil, &Coupon{Kind: "percent", Percent: 10, ValidFrom: now.Add(time.Hour)}, 600, 0, 120, 720, ErrCouponNotStarted},
		{"coupon used up", []Line{card("A", 6, 100)}, nil, &Coupon{Kind: "percent", Percent: 10, UsageLimit: 3, Used: 3}, 600, 0, 120, 720, ErrCouponUsedUp},
		{"largest quantity", []Line{{SKU: "X", Quantity: MaxLineUnits, UnitPrice: 900, VATRate: 20}}, nil, nil, 9_000_000, 0, 1_800_000, 10_800_000, nil},
		{"zero-rated line", []Line{{SKU: "Z", Quantity: 10, UnitPrice: 199, VATRate: 0}}, nil, nil, 1990, 0, 0, 1990, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Price(tc.lines, shopTerms(tc.disc), tc.coupon, now)
			if got.GoodsExVAT != tc.goods || got.CouponDiscount != tc.couponOff || got.VAT != tc.vat || got.TotalIncVAT != tc.total || !errors.Is(got.CouponError, tc.couponErr) {
				t.Fatalf("goods %d coupon %d vat %d total %d err %v; want %d %d %d %d %v",
					got.GoodsExVAT, got.CouponDiscount, got.VAT, got.TotalIncVAT, got.CouponError, tc.goods, tc.couponOff, tc.vat, tc.total, tc.couponErr)
			}
			var shares, vat int64
			for _, l := range got.Lines {
				shares += l.CouponShare
				vat += l.VAT
			}
			if shares != got.CouponDiscount || vat != got.VAT || got.TotalIncVAT != got.NetExVAT+got.VAT {
				t.Fatalf("parts do not add up: shares %d vat %d", shares, vat)
			}
		})
	}
}

func TestCouponSharesAddUpExactly(t *testing.T) {
	t.Parallel()
	lines := []Line{card("A", 6, 33), card("B", 6, 33), card("C", 6, 34)}
	got := Price(lines, Terms{}, &Coupon{Kind: "fixed", AmountPence: 100}, now)
	var sum int64
	for _, l := range got.Lines {
		sum += l.CouponShare
	}
	if sum != 100 {
		t.Fatalf("shares add to %d", sum)
	}
}

// TestLineIsUnitPriceTimesQuantity: the unit price a buyer is shown, times the units, is
// the line amount, for every price and discount (rounding is per unit, never per line).
func TestLineIsUnitPriceTimesQuantity(t *testing.T) {
	t.Parallel()
	for unit := int64(1); unit <= 1000; unit += 7 {
		for _, pct := range []int{0, 3, 5, 12, 33, 50, 100} {
			l := card("A", 6*int(unit%9+1), unit)
			got := Price([]Line{l}, shopTerms(map[string]int{"product:A": pct}), nil, now).Lines[0]
			want := unit - RoundPercent(unit, pct)
			if got.NetUnitPrice != want || got.NetAmount != int64(l.Quantity)*got.NetUnitPrice {
				t.Fatalf("%dp at %d%% × %d: unit %d (own price %d), line %d", unit, pct, l.Quantity, got.NetUnitPrice, want, got.NetAmount)
			}
		}
	}
}
