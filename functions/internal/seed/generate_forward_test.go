package seed

import (
	"testing"
	"time"
)

func TestMarkForwardMarksThreeBoxedChristmasCardsOpenForPreOrder(t *testing.T) {
	c, err := Generate(2000)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	MarkForward(c, now)
	n := 0
	for _, p := range c.Products {
		if p.Forward == nil {
			continue
		}
		n++
		if p.CategoryID != forwardCategory || p.Stock != 0 || !p.PreOrderOpen(now) || p.Forward.Check() != nil {
			t.Errorf("%s: %+v stock %d", p.SKU, *p.Forward, p.Stock)
		}
		if p.Forward.OrderBy != "2027-05-31" || p.Forward.DeliveryFrom != "2027-07-01" {
			t.Errorf("%s: dates %+v", p.SKU, *p.Forward)
		}
	}
	if n != forwardProducts {
		t.Fatalf("%d forward products, want %d", n, forwardProducts)
	}
}
