package seed

import (
	"slices"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
)

// Every seed product's facets are the vocabulary's, in its order; each has its name's
// style; the categories whose subject says the facet have it on every product.
func TestSeedFacets(t *testing.T) {
	t.Parallel()
	c, err := Generate(DefaultProducts)
	if err != nil {
		t.Fatal(err)
	}
	count := map[int]int{}
	for _, p := range c.Products {
		f := p.Facets
		if err := f.Check(); err != nil {
			t.Fatalf("%s %s: %v", p.SKU, p.Name, err)
		}
		if len(f.Style) == 0 {
			t.Errorf("%s %s has no style", p.SKU, p.Name)
		}
		count[p.CategoryID]++
		has := func(ids []string, id string) bool { return slices.Contains(ids, id) }
		switch {
		case (p.CategoryID == 107 || p.CategoryID == 603) && (len(f.Age) != 1 || !has(f.Occasion, "birthday")):
			t.Errorf("%s %s: an age card or balloon with facets %+v", p.SKU, p.Name, f)
		case p.CategoryID == 101 && (!slices.Equal(f.Occasion, []string{"birthday"}) || !slices.Equal(f.Recipient, []string{"her"})):
			t.Errorf("%s: a female birthday card with facets %+v", p.SKU, f)
		case p.CategoryID == 103 && !has(f.Style, "humour"):
			t.Errorf("%s: a humorous card with facets %+v", p.SKU, f)
		case p.CategoryID == 106 && len(f.Recipient) != 1:
			t.Errorf("%s %s: a relations card with facets %+v", p.SKU, p.Name, f)
		case p.RangeURLText == christmasRange && !has(f.Occasion, "christmas"):
			t.Errorf("%s: a Christmas product with facets %+v", p.SKU, f)
		case p.CategoryID == 111 && len(f.Occasion) != 1:
			t.Errorf("%s %s: an occasions card with facets %+v", p.SKU, p.Name, f)
		case p.CategoryID == 901 && (f.Occasion != nil || f.Recipient != nil || f.Age != nil):
			t.Errorf("%s: a notebook with facets %+v", p.SKU, f)
		}
	}
	if count[107] == 0 || count[603] == 0 {
		t.Fatal("no age cards or balloons")
	}
	for _, tc := range []struct {
		sku  string
		want catalogue.Facets
	}{
		{"GC101-00001", catalogue.Facets{Occasion: []string{"birthday"}, Recipient: []string{"her"}, Style: []string{"die-cut"}}},
	} {
		i := slices.IndexFunc(c.Products, func(p catalogue.Product) bool { return p.SKU == tc.sku })
		if i < 0 || !c.Products[i].Facets.Equal(tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.sku, c.Products[i].Facets, tc.want)
		}
	}
}

// Female Birthday Cards has at least two products out of stock on its first page (the
// filters' in-stock tests hide them).
func TestFemaleBirthdayCardsHaveTwoOutOfStockOnPageOne(t *testing.T) {
	t.Parallel()
	c, _ := Generate(DefaultProducts)
	var shelf []catalogue.Product
	for _, p := range c.Products {
		if p.CategoryID == 101 {
			shelf = append(shelf, p)
		}
	}
	slices.SortFunc(shelf, catalogue.CompareShelf)
	out := 0
	for _, p := range shelf[:48] {
		if p.Stock < p.PackSize {
			out++
		}
	}
	if out < 2 {
		t.Fatalf("%d out of stock on page one", out)
	}
}

// Published dates are London days within the last 200 days, the same for a SKU whatever
// the catalogue's size, about one in eight within "new in"'s 60 days.
func TestMarkPublished(t *testing.T) {
	t.Parallel()
	c, _ := Generate(DefaultProducts)
	now := time.Date(2026, 7, 31, 23, 30, 0, 0, time.UTC) // 1 August in London
	MarkPublished(c, now)
	today := time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
	recent := 0
	for _, p := range c.Products {
		d, err := time.Parse(time.DateOnly, p.Published)
		if err != nil {
			t.Fatalf("%s: published %q", p.SKU, p.Published)
		}
		days := int(today.Sub(d).Hours() / 24)
		if days < 0 || days >= publishedSpan {
			t.Fatalf("%s: published %s, %d days before", p.SKU, p.Published, days)
		}
		if days < 60 {
			recent++
			if days >= newWithin {
				t.Errorf("%s: published %d days before, too near the 60 days of new in", p.SKU, days)
			}
		} else if days < oldFrom {
			t.Errorf("%s: published %d days before, too near the 60 days of new in", p.SKU, days)
		}
	}
	if share := float64(recent) / float64(len(c.Products)); share < 0.09 || share > 0.16 {
		t.Errorf("%.3f of the products are new", share)
	}
	small, _ := Generate(100)
	MarkPublished(small, now)
	published := map[string]string{}
	for _, p := range c.Products {
		published[p.SKU] = p.Published
	}
	for _, p := range small.Products {
		if published[p.SKU] != p.Published {
			t.Fatalf("%s: published %s in a small catalogue, %s in a large one", p.SKU, p.Published, published[p.SKU])
		}
	}
}
