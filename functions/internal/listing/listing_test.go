package listing

import (
	"net/url"
	"slices"
	"testing"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
)

const today = "2026-11-27"

// shelf is a small listing in featured order.
var shelf = []catalogue.Product{
	{SKU: "A", Name: "Zebra Birthday Card", UnitPrice: 95, PackSize: 6, Stock: 12, Published: "2026-11-01",
		Facets: catalogue.Facets{Occasion: []string{"birthday"}, Recipient: []string{"her"}, Style: []string{"gold-foil"}}},
	{SKU: "B", Name: "apple Birthday Card", UnitPrice: 45, PackSize: 12, Stock: 0, Published: "2026-01-10",
		Facets: catalogue.Facets{Occasion: []string{"birthday"}, Recipient: []string{"him"}}},
	{SKU: "C", Name: "Mango Anniversary Card", UnitPrice: 120, PackSize: 6, Stock: 60, Published: "2026-10-20",
		Facets: catalogue.Facets{Occasion: []string{"anniversary"}, Recipient: []string{"her"}, Style: []string{"glitter"}}},
	{SKU: "D", Name: "Kiwi Card", UnitPrice: 95, PackSize: 6, Stock: 6, Published: "2025-06-01",
		Facets: catalogue.Facets{Occasion: []string{"birthday", "thank-you"}, Recipient: []string{"her"}}},
}

func counts(fs []pages.FacetCounts) map[string]int {
	out := map[string]int{}
	for _, f := range fs {
		for _, v := range f.Values {
			out[f.Key+"="+v.ID] = v.Count
		}
	}
	return out
}

func skus(order []int) []string {
	out := []string{}
	for _, i := range order {
		out = append(out, shelf[i].SKU)
	}
	return out
}

func parse(t *testing.T, raw string) Query {
	t.Helper()
	v, _ := url.ParseQuery(raw)
	q, problems := ParseQuery(v, false)
	if len(problems) > 0 {
		t.Fatalf("%s: %v", raw, problems)
	}
	return q
}

func inStock(p catalogue.Product) bool { return p.Stock >= p.PackSize }

// Within a facet the values are ORed, across facets ANDed, and each value's count is what
// ticking it would show given the other facets' choices.
func TestDisjunctiveCounts(t *testing.T) {
	r := Apply(shelf, today, parse(t, "occasion=birthday&recipient=her"), inStock)
	if got := skus(r.Order); !slices.Equal(got, []string{"A", "D"}) {
		t.Fatalf("order %v", got)
	}
	c := counts(r.Facets)
	want := map[string]int{
		// Occasion counts ignore the occasion choice but keep recipient=her: A, C, D.
		"occasion=birthday": 2, "occasion=anniversary": 1, "occasion=thank-you": 1,
		// Recipient counts keep occasion=birthday: A, B, D.
		"recipient=her": 2, "recipient=him": 1,
		// Other facets count the products shown (A, D).
		"style=gold-foil": 1, "style=glitter": 0, "band=50p-to-99p": 2, "band=1-to-2": 0, "band=under-50p": 0,
		"pack=6": 2, "pack=12": 0, "new=yes": 1,
	}
	for k, n := range want {
		if c[k] != n {
			t.Errorf("%s: %d, want %d (all %v)", k, c[k], n, c)
		}
	}
	if len(c) != len(want) {
		t.Errorf("values %v, want exactly %v", c, want)
	}
}

func TestSorts(t *testing.T) {
	for raw, want := range map[string][]string{
		"":                {"A", "B", "C", "D"},
		"sort=price":      {"B", "A", "D", "C"}, // A and D tie at 95p: featured order
		"sort=price-desc": {"C", "A", "D", "B"},
		"sort=newest":     {"A", "C", "B", "D"},
		"sort=name":       {"B", "D", "C", "A"}, // case does not matter
	} {
		if got := skus(Apply(shelf, today, parse(t, raw), inStock).Order); !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", raw, got, want)
		}
	}
}

func TestPriceRangeStockAndUnknownIDs(t *testing.T) {
	r := Apply(shelf, today, parse(t, "min=95&max=120&stock=in&style=nope"), inStock)
	if got := skus(r.Order); !slices.Equal(got, []string{"A", "C", "D"}) {
		t.Fatalf("order %v", got)
	}
	if ids := []string{r.Prices[0].ID, r.Prices[0].Label}; !slices.Equal(ids, []string{"45", "£0.45"}) {
		t.Errorf("first price %v", ids)
	}
	if got := skus(Apply(shelf, today, parse(t, "stock=in"), inStock).Order); slices.Contains(got, "B") {
		t.Errorf("in stock only kept B: %v", got)
	}
}

func TestParseProblems(t *testing.T) {
	v, _ := url.ParseQuery("sort=cheapest&stock=yes")
	if _, p := ParseQuery(v, false); p["sort"] == "" || p["stock"] == "" {
		t.Errorf("problems %v", p)
	}
	v, _ = url.ParseQuery("sort=featured")
	if _, p := ParseQuery(v, true); p["sort"] == "" {
		t.Error("a search took sort=featured")
	}
}

// The index's columns and counts agree with Apply's unfiltered answer.
func TestBuildIndex(t *testing.T) {
	idx, f := Build(shelf, today, "/x/_filter.json")
	if f.Products != 4 || f.Index != "/x/_filter.json" || len(idx.Products.SKU) != 4 {
		t.Fatalf("summary %+v", f)
	}
	if got := counts(idx.Facets); got["occasion=birthday"] != 3 || got["new=yes"] != 2 || got["pack=12"] != 1 {
		t.Errorf("counts %v", got)
	}
	if !slices.Equal(idx.Products.PriceRank, []int{1, 0, 2, 1}) || idx.Products.InStock[1] != 0 || idx.Products.Published[0] == 0 {
		t.Errorf("columns %+v", idx.Products)
	}
	// A product's value numbers point at its values: C holds anniversary, her, glitter.
	names := []string{}
	for _, fc := range idx.Facets {
		for _, v := range fc.Values {
			names = append(names, fc.Key+"="+v.ID)
		}
	}
	var c []string
	for _, v := range idx.Products.Values[2] {
		c = append(c, names[v])
	}
	if !slices.Contains(c, "occasion=anniversary") || !slices.Contains(c, "style=glitter") || slices.Contains(c, "new=yes") == false {
		t.Errorf("C's values %v", c)
	}
}

// A facet whose one value every product has narrows nothing and is left out.
func TestFacetWithoutChoiceLeftOut(t *testing.T) {
	idx, _ := Build(shelf[:2], today, "/x/_filter.json")
	keys := []string{}
	for _, f := range idx.Facets {
		keys = append(keys, f.Key)
	}
	// A and B: both birthday (left out); her and him; gold-foil only on A (kept: B has
	// none); two bands, two packs; only A is new (kept).
	if !slices.Equal(keys, []string{"recipient", "style", "band", "pack", "new"}) {
		t.Errorf("facets %v", keys)
	}
}

// Names sort without minding case or accents, as the site's name sort does.
func TestFoldName(t *testing.T) {
	if got := foldName("Émile's Zinnia CARD"); got != "emile's zinnia card" {
		t.Errorf("foldName: %q", got)
	}
}
