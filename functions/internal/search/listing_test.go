package search

import (
	"context"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/listing"
	"github.com/tradeshop/functions/internal/pages"
)

// zinniaIndex indexes five products whose names hold "zinnia", in relevance order for
// that word: Card (fewest name words), then Anniversary, Birthday, Thank You ("you" is a
// stop word) and Wedding, by name; and one that does not match.
func zinniaIndex() *Index {
	p := func(sku, name string, price int64, stock int, f catalogue.Facets) catalogue.Product {
		return catalogue.Product{SKU: sku, Slug: sku, Name: name, CategoryID: 101, RangeURLText: "cards", PackSize: 6,
			UnitPrice: price, VATRate: 20, Stock: stock, Facets: f}
	}
	thanks := p("ZN-4", "Zinnia Thank You Card", 45, 60, catalogue.Facets{Occasion: []string{"thank-you"}})
	thanks.Forward = &catalogue.Forward{DeliveryFrom: "2099-09-01", OrderBy: "2099-06-30"} // on pre-order: not in stock now
	products := []catalogue.Product{
		p("ZN-1", "Zinnia Card", 120, 60, catalogue.Facets{Occasion: []string{"birthday"}, Recipient: []string{"her"}}),
		p("ZN-2", "Zinnia Birthday Card", 45, 60, catalogue.Facets{Occasion: []string{"birthday"}, Recipient: []string{"him"}}),
		p("ZN-3", "Zinnia Wedding Card", 300, 0, catalogue.Facets{Occasion: []string{"wedding"}, Recipient: []string{"her"}}),
		thanks,
		p("ZN-5", "Zinnia Anniversary Card", 99, 60, catalogue.Facets{Occasion: []string{"birthday", "anniversary"}, Recipient: []string{"her"}}),
		p("ZN-6", "Marigold Card", 45, 60, catalogue.Facets{Occasion: []string{"birthday"}}),
	}
	return Build(products, []catalogue.Category{{ID: 101, Name: "Greeting"}}, []catalogue.Range{{URLText: "cards", Name: "Cards"}})
}

// counts reads a result's facets as key to value id to count.
func counts(fs []pages.FacetCounts) map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, f := range fs {
		out[f.Key] = map[string]int{}
		for _, v := range f.Values {
			out[f.Key][v.ID] = v.Count
		}
	}
	return out
}

// TestSearchSortsFiltersAndCountsItsHits: the hits of a search are sorted by a listing's
// sort with relevance breaking ties (relevance itself the default), filtered by facets,
// price and stock, and their facets counted disjunctively over every hit of the text.
func TestSearchSortsFiltersAndCountsItsHits(t *testing.T) {
	t.Parallel()
	ix := zinniaIndex()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	search := func(t *testing.T, query string) Result {
		t.Helper()
		v, err := url.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		lq, problems := listing.ParseQuery(v, true)
		if len(problems) > 0 {
			t.Fatalf("%s: %v", query, problems)
		}
		r, err := ix.Search(context.Background(), Request{Query: "zinnia", Page: 1, Listing: lq, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	skus := func(r Result) []string {
		out := []string{}
		for _, h := range r.Hits {
			out = append(out, h.SKU)
		}
		return out
	}
	for _, tc := range []struct {
		name, query string
		sort        string
		want        []string
		facets      map[string]map[string]int // only the facets named are checked
	}{
		{"relevance is the default", "", "relevance", []string{"ZN-1", "ZN-5", "ZN-2", "ZN-4", "ZN-3"}, map[string]map[string]int{
			"occasion":  {"birthday": 3, "anniversary": 1, "wedding": 1, "thank-you": 1},
			"recipient": {"her": 3, "him": 1},
			"band":      {"under-50p": 2, "50p-to-99p": 1, "1-to-2": 1, "2-to-5": 1},
		}},
		{"price low to high, a tie in relevance order", "sort=price", "price", []string{"ZN-2", "ZN-4", "ZN-5", "ZN-1", "ZN-3"}, nil},
		{"price high to low, a tie in relevance order", "sort=price-desc", "price-desc", []string{"ZN-3", "ZN-1", "ZN-5", "ZN-2", "ZN-4"}, nil},
		{"name", "sort=name", "name", []string{"ZN-5", "ZN-2", "ZN-1", "ZN-4", "ZN-3"}, nil},
		// A facet's own counts ignore its own choice; the others' count what passes it.
		{"one occasion", "occasion=birthday", "relevance", []string{"ZN-1", "ZN-5", "ZN-2"}, map[string]map[string]int{
			"occasion":  {"birthday": 3, "anniversary": 1, "wedding": 1, "thank-you": 1},
			"recipient": {"her": 2, "him": 1},
			"band":      {"under-50p": 1, "50p-to-99p": 1, "1-to-2": 1, "2-to-5": 0},
		}},
		{"two facets, sorted by price", "sort=price&occasion=birthday&recipient=her", "price", []string{"ZN-5", "ZN-1"}, map[string]map[string]int{
			"occasion":  {"birthday": 2, "anniversary": 1, "wedding": 1, "thank-you": 0},
			"recipient": {"her": 2, "him": 1},
		}},
		{"an unknown value id selects nothing and is dropped", "occasion=birthday,no-such-day", "relevance", []string{"ZN-1", "ZN-5", "ZN-2"}, nil},
		{"in stock now leaves out the sold out and the pre-order", "stock=in", "relevance", []string{"ZN-1", "ZN-5", "ZN-2"}, map[string]map[string]int{
			"occasion": {"birthday": 3, "anniversary": 1, "wedding": 0, "thank-you": 0},
		}},
		{"a price range, inclusive", "min=45&max=99", "relevance", []string{"ZN-5", "ZN-2", "ZN-4"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := search(t, tc.query)
			if got := skus(r); !slices.Equal(got, tc.want) || r.Total != len(tc.want) || r.Sort != tc.sort {
				t.Fatalf("hits %v (total %d, sort %q), want %v sorted %q", got, r.Total, r.Sort, tc.want, tc.sort)
			}
			got := counts(r.Facets)
			for key, want := range tc.facets {
				if !maps.Equal(got[key], want) {
					t.Errorf("facet %s counts %v, want %v", key, got[key], want)
				}
			}
			var prices []string
			for _, p := range r.Prices {
				prices = append(prices, p.ID)
			}
			if !slices.Equal(prices, []string{"45", "99", "120", "300"}) {
				t.Errorf("prices %v, want every hit's distinct price", prices)
			}
		})
	}
}

// TestSearchPagesTheFilteredHits: a broad search's pages are its hits in relevance order,
// 24 a page, the same whether the page is picked from all hits or the hits sorted.
func TestSearchPagesTheFilteredHits(t *testing.T) {
	t.Parallel()
	ix := build(t, 3000)
	ctx := context.Background()
	all := searchAll(t, ix, "card")
	if len(all) <= 2*PageSize {
		t.Fatalf("card finds %d, want more than two pages", len(all))
	}
	byName, err := ix.Search(ctx, Request{Query: "card", Page: 2, Listing: listing.Query{Sort: listing.SortName}})
	if err != nil {
		t.Fatal(err)
	}
	if byName.Total != len(all) || len(byName.Hits) != PageSize || byName.Sort != "name" {
		t.Fatalf("by name, page 2: %d hits of %d (sort %q), want %d of %d", len(byName.Hits), byName.Total, byName.Sort, PageSize, len(all))
	}
	for i := 1; i < len(byName.Hits); i++ {
		if a, b := byName.Hits[i-1], byName.Hits[i]; strings.ToLower(a.Name) > strings.ToLower(b.Name) {
			t.Fatalf("by name, %q before %q", a.Name, b.Name)
		}
	}
}
