package listing

import (
	"cmp"
	"slices"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
)

// IndexFile is the name of a listing's filter index beside its page's _payload.json.
const IndexFile = "_filter.json"

// Site gives every category and range page of s its sort and filter controls and answers
// each one's filter index by page path. A category lists its active products in shelf
// order, as its page does (pages.Build); a range lists its categories' in menu order
// (Category.Order), each category in shelf order. today is the build's London date.
func Site(s *pages.Site, cats []catalogue.Category, products []catalogue.Product, today string) map[string]pages.FilterIndex {
	products = catalogue.Active(products)
	slices.SortFunc(products, catalogue.CompareShelf)
	byCat := map[int][]catalogue.Product{}
	for _, p := range products {
		byCat[p.CategoryID] = append(byCat[p.CategoryID], p)
	}
	cats = slices.Clone(cats)
	slices.SortFunc(cats, func(a, b catalogue.Category) int { return cmp.Compare(a.Order, b.Order) })
	byRange := map[string][]catalogue.Product{}
	for _, c := range cats {
		byRange[c.RangeURLText] = append(byRange[c.RangeURLText], byCat[c.ID]...)
	}

	out := map[string]pages.FilterIndex{}
	for path, page := range s.Categories {
		idx, f := Build(byCat[page.Category.ID], today, path+IndexFile)
		page.Filters = f
		s.Categories[path] = page
		out[path] = idx
	}
	for path, page := range s.Ranges {
		idx, f := Build(byRange[page.Range.URLText], today, path+IndexFile)
		page.Filters = f
		s.Ranges[path] = page
		out[path] = idx
	}
	return out
}
