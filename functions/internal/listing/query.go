package listing

import (
	"net/url"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
)

// The sorts. Featured is a listing's own order (the shop's shelf order) and the default
// of category and range pages; Relevance is a search's ranking and its default.
const (
	SortFeatured  = "featured"
	SortRelevance = "relevance"
	SortNewest    = "newest"
	SortPrice     = "price"
	SortPriceDesc = "price-desc"
	SortName      = "name"
)

// Query is a listing's sort and filters as the query string gives them: Selected holds
// the chosen value ids by facet key, Min and Max price option ids (pence as text;
// inclusive, "" for no bound), InStock asks for products in stock now only.
type Query struct {
	Sort     string
	Selected map[string][]string
	Min, Max string
	InStock  bool
}

// ParseQuery reads a listing's sort and filters; relevance says the listing is a search's
// (whose default sort is relevance and which has no featured order). A sort it does not
// know is a problem named under "sort", and stock other than "in" one under "stock";
// value ids are not checked here: one no product has selects nothing and is dropped by
// Apply, as a shared link made on another listing may hold one.
func ParseQuery(v url.Values, relevance bool) (Query, map[string]string) {
	problems := map[string]string{}
	q := Query{Sort: v.Get("sort"), Selected: map[string][]string{}, Min: v.Get("min"), Max: v.Get("max")}
	def := SortFeatured
	if relevance {
		def = SortRelevance
	}
	switch q.Sort {
	case "":
		q.Sort = def
	case def, SortNewest, SortPrice, SortPriceDesc, SortName:
	default:
		problems["sort"] = "Sort by " + def + ", newest, price, price-desc or name."
	}
	for _, key := range FacetKeys() {
		for _, raw := range v[key] {
			for id := range strings.SplitSeq(raw, ",") {
				if id = strings.TrimSpace(id); id != "" && len(id) <= 64 && !slices.Contains(q.Selected[key], id) {
					q.Selected[key] = append(q.Selected[key], id)
				}
			}
		}
	}
	switch v.Get("stock") {
	case "":
	case "in":
		q.InStock = true
	default:
		problems["stock"] = `Give stock=in to show products in stock now only, or leave it out.`
	}
	return q, problems
}

// Result is a listing sorted and filtered: Order the positions (into the listing) of the
// products shown, in the chosen order; Facets every facet of the listing with the
// disjunctive counts; Prices the listing's distinct prices.
type Result struct {
	Order  []int
	Facets []pages.FacetCounts
	Prices []pages.PriceOption
}

// Apply sorts and filters products (in their featured or relevance order) on the London
// date today; inStock answers whether a product is in stock now (used when q.InStock).
// Result.Order holds positions in products. A caller listing subsets of one set of
// products many times (search) prepares them once instead (Prepare).
func Apply(products []catalogue.Product, today string, q Query, inStock func(catalogue.Product) bool) Result {
	all := make([]int32, len(products))
	for i := range all {
		all[i] = int32(i)
	}
	return Prepare(products, today).Apply(all, q, inStock)
}

// foldName is a name as the name sort compares it: a buyer reads a list without minding
// case or accents ("Émile" as "emile"). The site folds names the same way (site/lib/listing.ts).
func foldName(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
