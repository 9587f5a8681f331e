package pricing

import "testing"

func TestMarginAt(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		rrp, cost int64
		vat, want int
	}{
		// RRP £1.99 inc 20% VAT is £1.658333 ex VAT; at 79p the margin is 52.36…%.
		{"a card at 20% VAT", 199, 79, 20, 524},
		{"zero-rated", 200, 100, 0, 500},
		{"5% VAT", 105, 50, 5, 500},
		// 1000·(100·100 − 50·120)/(100·100) = 400 exactly.
		{"exact", 100, 50, 20, 400},
		// RRP £1.20 inc VAT is £1.00 ex VAT: cost 99.95p would be 0.05%; 1p steps: 99p is 1.0%.
		{"one percent", 120, 99, 20, 10},
		// Half a tenth rounds up: 1000·(200·100 − 199·100)/(200·100) = 5 exactly; 0.5 tenths → 1.
		{"half rounds up", 2000, 1999, 0, 1},
		// Negative margins round half towards +∞: −0.5 tenths → 0.
		{"negative half rounds up", 2000, 2001, 0, 0},
		{"negative", 100, 150, 0, -500},
		{"cost above RRP at VAT", 120, 120, 20, -200},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := MarginAt(c.rrp, c.cost, c.vat)
			if got.Tenths != c.want || got.RRP != c.rrp {
				t.Errorf("MarginAt(%d, %d, %d) = %+v, want tenths %d", c.rrp, c.cost, c.vat, got, c.want)
			}
		})
	}
}
