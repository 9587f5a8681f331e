package listing

import (
	"cmp"
	"net/url"
	"slices"
	"strings"

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
func Apply(products []catalogue.Product, today string, q Query, inStock func(catalogue.Product) bool) Result {
	fresh := newWindowOf(today)
	n := numberFacets(facetsOf(products, fresh))
	prices, rank := pricesOf(products)
	// The selection as value numbers by facet; an id no product has is dropped.
	chosen := make([]map[int]bool, len(n.facets))
	for fi, f := range n.facets {
		for _, id := range q.Selected[f.key] {
			if v, ok := n.number(fi, id); ok {
				if chosen[fi] == nil {
					chosen[fi] = map[int]bool{}
				}
				chosen[fi][v] = true
			}
		}
	}
	lo, hi := 0, len(prices)-1
	if i := slices.IndexFunc(prices, func(o pages.PriceOption) bool { return o.ID == q.Min }); i >= 0 {
		lo = i
	}
	if i := slices.IndexFunc(prices, func(o pages.PriceOption) bool { return o.ID == q.Max }); i >= 0 {
		hi = i
	}

	count := make([]int, len(n.facet))
	var order, vals []int
	for i, p := range products {
		if rank[i] < lo || rank[i] > hi || (q.InStock && !inStock(p)) {
			continue
		}
		vals = n.values(vals, p, fresh)
		failing, failed := 0, -1
		for fi, c := range chosen {
			if c != nil && !slices.ContainsFunc(vals, func(v int) bool { return c[v] }) {
				failing++
				failed = fi
			}
		}
		switch failing {
		case 0:
			order = append(order, i)
			for _, v := range vals {
				count[v]++
			}
		case 1:
			// Ticking one more value of the failing facet would show it.
			for _, v := range vals {
				if n.facet[v] == failed {
					count[v]++
				}
			}
		}
	}
	sortOrder(order, products, rank, q.Sort)
	return Result{Order: nonNil(order), Facets: n.counts(count), Prices: prices}
}

// sortOrder sorts positions by the sort; ties (and featured or relevance) keep the
// listing's own order.
func sortOrder(order []int, products []catalogue.Product, rank []int, sort string) {
	var by func(a, b int) int
	switch sort {
	case SortNewest:
		// Each date read once, not once a comparison: a search's hits may be thousands.
		days := make([]int, len(products))
		for _, i := range order {
			days[i] = daysOf(products[i].Published)
		}
		by = func(a, b int) int { return cmp.Compare(days[b], days[a]) }
	case SortPrice:
		by = func(a, b int) int { return cmp.Compare(rank[a], rank[b]) }
	case SortPriceDesc:
		by = func(a, b int) int { return cmp.Compare(rank[b], rank[a]) }
	case SortName:
		folded := make([]string, len(products))
		for _, i := range order {
			folded[i] = foldName(products[i].Name)
		}
		by = func(a, b int) int {
			return cmp.Or(cmp.Compare(folded[a], folded[b]), cmp.Compare(products[a].SKU, products[b].SKU))
		}
	default:
		return
	}
	slices.SortStableFunc(order, by)
}

// foldName is a name as the name sort compares it: a buyer reads a list
// case-insensitively.
func foldName(s string) string { return strings.ToLower(s) }

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
