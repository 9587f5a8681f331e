package listing

import (
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
)

// Build makes a listing's filter index and the summary its page draws the controls from
// at first paint, from its products in featured order, on the London date today (the
// build's: "new in" is as of that day). index is the site path the index is served at.
func Build(products []catalogue.Product, today, index string) (pages.FilterIndex, pages.ListingFilters) {
	n := numberFacets(facetsOf(products, today))
	prices, rank := pricesOf(products)
	cols := pages.IndexColumns{
		SKU: make([]string, len(products)), Name: make([]string, len(products)), Slug: make([]string, len(products)),
		SmallImg: make([]string, len(products)), UnitPrice: make([]int64, len(products)), PackSize: make([]int, len(products)),
		InStock: make([]int, len(products)), RRP: make([]int64, len(products)), Margin: make([]int, len(products)),
		PriceRank: rank, Published: make([]int, len(products)), Values: make([][]int, len(products)),
		Forward: map[string]pages.ForwardAnswer{},
	}
	count := make([]int, len(n.facet))
	for i, p := range products {
		c := pages.Card(p)
		cols.SKU[i], cols.Name[i], cols.Slug[i], cols.SmallImg[i] = p.SKU, p.Name, p.Slug, p.SmallImg
		cols.UnitPrice[i], cols.PackSize[i] = p.UnitPrice, p.PackSize
		if c.InStock {
			cols.InStock[i] = 1
		}
		if c.Margin != nil {
			cols.RRP[i], cols.Margin[i] = c.Margin.RRP, c.Margin.Tenths
		}
		if c.Forward != nil {
			cols.Forward[p.SKU] = *c.Forward
		}
		cols.Published[i] = daysOf(p.Published)
		cols.Values[i] = n.values(p, today)
		for _, v := range cols.Values[i] {
			count[v]++
		}
	}
	facets := n.counts(count)
	return pages.FilterIndex{Kind: "filter-index", Facets: facets, Prices: prices, NewDays: NewDays, Products: cols},
		pages.ListingFilters{Products: len(products), Facets: facets, Prices: prices, Index: index}
}
