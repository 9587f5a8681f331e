package pages

import (
	"testing"

	"github.com/tradeshop/functions/internal/catalogue"

	"github.com/tradeshop/functions/internal/seed"
)

func TestBuildCoversEveryPage(t *testing.T) {
	t.Parallel()
	c, err := seed.Generate(seed.DefaultProducts)
	if err != nil {
		t.Fatal(err)
	}
	s := Build(c.Ranges, c.Categories, c.Products, seed.Groups)

	if len(s.Ranges) != 7 || len(s.Menu.Ranges) != 7 {
		t.Fatalf("ranges: %d pages, %d menu links", len(s.Ranges), len(s.Menu.Ranges))
	}
	if len(s.Categories) != len(c.Categories) {
		t.Fatalf("category pages %d, categories %d", len(s.Categories), len(c.Categories))
	}
	if len(s.Menu.Groups) != len(seed.Groups) || s.Menu.Groups[0].Name != seed.Groups[0] {
		t.Fatalf("menu groups out of order: %+v", s.Menu.Groups[0].Name)
	}
	total := 0
	for path, p := range s.Categories {
		if path != p.Category.Path || p.Range.URLText != p.Category.RangeURLText {
			t.Fatalf("category page %s inconsistent", path)
		}
		for i := 1; i < len(p.Products); i++ {
			if p.Products[i-1].Name > p.Products[i].Name {
				t.Fatalf("category %s not sorted by name", path)
			}
		}
		total += len(p.Products)
	}
	if total != len(c.Products) {
		t.Fatalf("category pages list %d products, catalogue has %d", total, len(c.Products))
	}
	for path, r := range s.Ranges {
		if len(r.Featured) != featuredPerRange || len(r.Categories) == 0 {
			t.Fatalf("range %s: %d featured, %d categories", path, len(r.Featured), len(r.Categories))
		}
		for _, f := range r.Featured {
			if !f.InStock {
				t.Fatalf("range %s features out-of-stock %s", path, f.SKU)
			}
		}
	}
	if len(s.Products) != len(c.Products) {
		t.Fatalf("product pages %d, products %d", len(s.Products), len(c.Products))
	}
	for path, p := range s.Products {
		if path != p.Product.Path || p.Category.ID != 0 && p.Category.Path == "" || len(p.Related) == 0 {
			t.Fatalf("product page %s: %+v", path, p)
		}
		for _, r := range p.Related {
			if r.SKU == p.Product.SKU || !r.InStock {
				t.Fatalf("product %s relates to itself or to out-of-stock %s", p.Product.SKU, r.SKU)
			}
		}
	}
	if s.Home.Products != len(c.Products) {
		t.Fatalf("home counts %d products", s.Home.Products)
	}
}

func TestStockState(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		stock, pack int
		want        string
	}{{0, 6, "out-of-stock"}, {5, 6, "out-of-stock"}, {6, 6, "low-stock"}, {65, 6, "low-stock"}, {66, 6, "in-stock"}} {
		if got := StockState(catalogue.Product{Stock: tc.stock, PackSize: tc.pack}); got != tc.want {
			t.Errorf("stock %d pack %d: %s, want %s", tc.stock, tc.pack, got, tc.want)
		}
	}
}
