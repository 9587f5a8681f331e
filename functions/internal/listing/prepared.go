package listing

import (
	"cmp"
	"slices"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
)

// Prepared is a set of products (a search index's, or one listing's) made ready for
// listings of some of them: every facet value any of them has numbered once, and each
// product's value numbers, price rank, first-published day and place in name order worked
// out once. A listing of tens of thousands of a search's hits is then counted, filtered
// and sorted with integer work only. It is read-only after Prepare and safe for
// concurrent use.
type Prepared struct {
	products []catalogue.Product
	n        numbering
	// Product i's value numbers are vals[start[i]:start[i+1]], ascending.
	start, vals []int32
	// rank is each product's place among prices, every product's distinct prices.
	rank    []int32
	prices  []pages.PriceOption
	priceAt map[string]int32
	days    []int32
	// byName is each product's place in name order (case folded), then SKU.
	byName []int32
}

// Prepare makes products ready for Apply on the London date today ("new in" is as of it).
func Prepare(products []catalogue.Product, today string) *Prepared {
	fresh := newWindowOf(today)
	pr := &Prepared{products: products, n: numberFacets(facetsOf(products, fresh)),
		start: make([]int32, len(products)+1), rank: make([]int32, len(products)),
		days: make([]int32, len(products)), byName: make([]int32, len(products))}
	var vals []int
	for i, p := range products {
		vals = pr.n.values(vals, p, fresh)
		for _, v := range vals {
			pr.vals = append(pr.vals, int32(v))
		}
		pr.start[i+1] = int32(len(pr.vals))
		pr.days[i] = int32(daysOf(p.Published))
	}
	var rank []int
	pr.prices, rank = pricesOf(products)
	pr.priceAt = make(map[string]int32, len(pr.prices))
	for i, o := range pr.prices {
		pr.priceAt[o.ID] = int32(i)
	}
	for i, r := range rank {
		pr.rank[i] = int32(r)
	}
	names := make([]int32, len(products))
	folded := make([]string, len(products))
	for i, p := range products {
		names[i], folded[i] = int32(i), foldName(p.Name)
	}
	slices.SortFunc(names, func(a, b int32) int {
		return cmp.Or(cmp.Compare(folded[a], folded[b]), cmp.Compare(products[a].SKU, products[b].SKU))
	})
	for place, i := range names {
		pr.byName[i] = int32(place)
	}
	return pr
}

// Products answers the prepared products, in the order Prepare was given them.
func (pr *Prepared) Products() []catalogue.Product { return pr.products }

// Apply sorts and filters the listing of the products at the positions given (into the
// prepared products, in the listing's own order: featured, or a search's relevance).
// Result.Order holds places in positions. inStock answers whether a product is in stock
// now (used when q.InStock). The listing's facets are the values its products have (a
// facet with none, or whose one value all of them have, is left out), counted
// disjunctively; its prices are its products' distinct prices.
func (pr *Prepared) Apply(positions []int32, q Query, inStock func(catalogue.Product) bool) Result {
	nv := len(pr.n.facet)
	present := make([]int, nv)
	pricePresent := make([]bool, len(pr.prices))
	for _, d := range positions {
		for _, v := range pr.vals[pr.start[d]:pr.start[d+1]] {
			present[v]++
		}
		pricePresent[pr.rank[d]] = true
	}
	// The listing's facets: each prepared facet's values its products have.
	shown := make([]bool, len(pr.n.facets))
	for fi, f := range pr.n.facets {
		having, all := 0, false
		for j := range f.values {
			if c := present[pr.n.first[fi]+j]; c > 0 {
				having++
				all = c == len(positions)
			}
		}
		shown[fi] = having > 1 || having == 1 && !all
	}
	// The choice, as value numbers; an id the listing does not have chooses nothing.
	chosen := make([]bool, nv)
	choosing := make([]bool, len(pr.n.facets))
	for fi, f := range pr.n.facets {
		if !shown[fi] {
			continue
		}
		for _, id := range q.Selected[f.key] {
			if v, ok := pr.n.number(fi, id); ok && present[v] > 0 {
				chosen[v], choosing[fi] = true, true
			}
		}
	}
	lo, hi := int32(0), int32(len(pr.prices)-1)
	if r, ok := pr.priceAt[q.Min]; ok && pricePresent[r] {
		lo = r
	}
	if r, ok := pr.priceAt[q.Max]; ok && pricePresent[r] {
		hi = r
	}

	count := make([]int, nv)
	hit := make([]bool, len(pr.n.facets))
	var order []int
	for at, d := range positions {
		if pr.rank[d] < lo || pr.rank[d] > hi || (q.InStock && !inStock(pr.products[d])) {
			continue
		}
		vals := pr.vals[pr.start[d]:pr.start[d+1]]
		clear(hit)
		for _, v := range vals {
			if chosen[v] {
				hit[pr.n.facet[v]] = true
			}
		}
		failing, failed := 0, -1
		for fi, c := range choosing {
			if c && !hit[fi] {
				failing++
				failed = fi
			}
		}
		switch failing {
		case 0:
			order = append(order, at)
			for _, v := range vals {
				count[v]++
			}
		case 1:
			// Ticking one more value of the failing facet would show it.
			for _, v := range vals {
				if pr.n.facet[v] == failed {
					count[v]++
				}
			}
		}
	}
	pr.sort(order, positions, q.Sort)

	facets := []pages.FacetCounts{}
	for fi, f := range pr.n.facets {
		if !shown[fi] {
			continue
		}
		fc := pages.FacetCounts{Key: f.key, Label: f.label, Values: []pages.FacetValueCount{}}
		for j, v := range f.values {
			if n := pr.n.first[fi] + j; present[n] > 0 {
				fc.Values = append(fc.Values, pages.FacetValueCount{ID: v.ID, Label: v.Label, Count: count[n]})
			}
		}
		facets = append(facets, fc)
	}
	prices := []pages.PriceOption{}
	for r, ok := range pricePresent {
		if ok {
			prices = append(prices, pr.prices[r])
		}
	}
	return Result{Order: nonNil(order), Facets: facets, Prices: prices}
}

// sort orders places in positions by the sort; ties (and featured or relevance) keep the
// listing's own order.
func (pr *Prepared) sort(order []int, positions []int32, sort string) {
	var key func(at int) int32
	switch sort {
	case SortNewest:
		key = func(at int) int32 { return -pr.days[positions[at]] }
	case SortPrice:
		key = func(at int) int32 { return pr.rank[positions[at]] }
	case SortPriceDesc:
		key = func(at int) int32 { return -pr.rank[positions[at]] }
	case SortName:
		key = func(at int) int32 { return pr.byName[positions[at]] }
	default:
		return
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(key(a), key(b)) })
}
