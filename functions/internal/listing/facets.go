package listing

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pages"
)

// NewDays is how many days before a listing's date a product first published counts as
// "new in".
const NewDays = 60

// The computed facets' keys, after the stored ones (catalogue.FacetDefs).
const (
	FacetBand = "band"
	FacetPack = "pack"
	FacetNew  = "new"
)

// NewYes is the one value of the "new in" facet.
const NewYes = "yes"

// band is a price band of the list unit price ex VAT: below is its upper bound in pence,
// exclusive.
type band struct {
	id, label string
	below     int64
}

var bands = []band{
	{"under-50p", "Under 50p", 50},
	{"50p-to-99p", "50p to 99p", 100},
	{"1-to-2", "£1 to £1.99", 200},
	{"2-to-5", "£2 to £4.99", 500},
	{"5-plus", "£5 and over", math.MaxInt64},
}

// bandOf answers the id of the band a unit price falls in.
func bandOf(pence int64) string {
	for _, b := range bands {
		if pence < b.below {
			return b.id
		}
	}
	return bands[len(bands)-1].id
}

// FacetKeys are every facet's key in panel order: the stored ones, then band, pack, new.
func FacetKeys() []string {
	keys := make([]string, 0, len(catalogue.FacetDefs())+3)
	for _, d := range catalogue.FacetDefs() {
		keys = append(keys, d.Key)
	}
	return append(keys, FacetBand, FacetPack, FacetNew)
}

// FilteredViewKeys are the query-string keys that make a listing's view a filtered one
// (noindex for crawlers): sort, every facet, the price range and in-stock. Page alone is
// not one. The edges keep their own copy (functions/internal/edge, infra/edge), checked by
// the shared vectors.
func FilteredViewKeys() []string {
	return append(append([]string{"sort"}, FacetKeys()...), "min", "max", "stock")
}

// facet is one facet of a listing: the values the listing's products have, in panel order.
type facet struct {
	key, label string
	values     []catalogue.FacetValue
}

// isNew reports whether a product first published on the ISO date published is new in
// on the London date today.
func isNew(published, today string) bool {
	p, err := time.Parse(time.DateOnly, published)
	if err != nil {
		return false
	}
	t, err := time.Parse(time.DateOnly, today)
	if err != nil {
		return false
	}
	d := t.Sub(p).Hours() / 24
	return d >= 0 && d <= NewDays
}

// valueIDs answers a product's value ids of the facet key.
func valueIDs(p catalogue.Product, key, today string) []string {
	switch key {
	case FacetBand:
		return []string{bandOf(p.UnitPrice)}
	case FacetPack:
		return []string{strconv.Itoa(p.PackSize)}
	case FacetNew:
		if isNew(p.Published, today) {
			return []string{NewYes}
		}
		return nil
	}
	return p.Facets.Get(key)
}

// facetsOf answers the facets of a listing: each with the values at least one of its
// products has, in panel order (a facet none has, or whose one value all have, is left
// out).
func facetsOf(products []catalogue.Product, today string) []facet {
	var out []facet
	has := func(key, id string) bool {
		return slices.ContainsFunc(products, func(p catalogue.Product) bool { return slices.Contains(valueIDs(p, key, today), id) })
	}
	for _, d := range catalogue.FacetDefs() {
		f := facet{key: d.Key, label: d.Label}
		for _, v := range d.Values {
			if has(d.Key, v.ID) {
				f.values = append(f.values, v)
			}
		}
		out = appendFacet(out, f, products, today)
	}
	bf := facet{key: FacetBand, label: "Price"}
	for _, b := range bands {
		if has(FacetBand, b.id) {
			bf.values = append(bf.values, catalogue.FacetValue{ID: b.id, Label: b.label})
		}
	}
	out = appendFacet(out, bf, products, today)
	packs := map[int]bool{}
	for _, p := range products {
		packs[p.PackSize] = true
	}
	pf := facet{key: FacetPack, label: "Pack size"}
	for _, n := range slices.Sorted(mapsKeys(packs)) {
		pf.values = append(pf.values, catalogue.FacetValue{ID: strconv.Itoa(n), Label: "Pack of " + strconv.Itoa(n)})
	}
	out = appendFacet(out, pf, products, today)
	nf := facet{key: FacetNew, label: "New in"}
	if has(FacetNew, NewYes) {
		nf.values = []catalogue.FacetValue{{ID: NewYes, Label: "Added in the last " + strconv.Itoa(NewDays) + " days"}}
	}
	return appendFacet(out, nf, products, today)
}

// appendFacet adds f unless it offers no choice: no value, or one value every product of
// the listing has (a birthday category's Occasion: Birthday would narrow nothing).
func appendFacet(out []facet, f facet, products []catalogue.Product, today string) []facet {
	if len(f.values) == 0 {
		return out
	}
	if len(f.values) == 1 && !slices.ContainsFunc(products, func(p catalogue.Product) bool {
		return !slices.Contains(valueIDs(p, f.key, today), f.values[0].ID)
	}) {
		return out
	}
	return append(out, f)
}

func mapsKeys(m map[int]bool) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// numbering gives every value of a listing's facets its number, in order across facets.
type numbering struct {
	facets []facet
	first  []int          // the number of each facet's first value
	num    map[string]int // "key\x00id" to number
	facet  []int          // a value number's facet
}

func numberFacets(fs []facet) numbering {
	n := numbering{facets: fs, num: map[string]int{}}
	for fi, f := range fs {
		n.first = append(n.first, len(n.facet))
		for _, v := range f.values {
			n.num[f.key+"\x00"+v.ID] = len(n.facet)
			n.facet = append(n.facet, fi)
		}
	}
	return n
}

// values answers a product's value numbers, ascending.
func (n numbering) values(p catalogue.Product, today string) []int {
	out := []int{}
	for _, f := range n.facets {
		for _, id := range valueIDs(p, f.key, today) {
			if v, ok := n.num[f.key+"\x00"+id]; ok {
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return out
}

// counts answers the facets with counts as the wire carries them.
func (n numbering) counts(count []int) []pages.FacetCounts {
	out := make([]pages.FacetCounts, 0, len(n.facets))
	for fi, f := range n.facets {
		fc := pages.FacetCounts{Key: f.key, Label: f.label, Values: make([]pages.FacetValueCount, len(f.values))}
		for i, v := range f.values {
			fc.Values[i] = pages.FacetValueCount{ID: v.ID, Label: v.Label, Count: count[n.first[fi]+i]}
		}
		out = append(out, fc)
	}
	return out
}

// pricesOf answers a listing's distinct unit prices, cheapest first, and each product's
// rank among them.
func pricesOf(products []catalogue.Product) ([]pages.PriceOption, []int) {
	distinct := make([]int64, 0, len(products))
	for _, p := range products {
		distinct = append(distinct, p.UnitPrice)
	}
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	opts := make([]pages.PriceOption, len(distinct))
	for i, pence := range distinct {
		opts[i] = pages.PriceOption{ID: strconv.FormatInt(pence, 10), Label: orders.Pounds(pence)}
	}
	rank := make([]int, len(products))
	for i, p := range products {
		rank[i], _ = slices.BinarySearch(distinct, p.UnitPrice)
	}
	return opts, rank
}

// daysOf answers an ISO date as days since 1970-01-01, 0 when it is not one.
func daysOf(iso string) int {
	t, err := time.Parse(time.DateOnly, iso)
	if err != nil {
		return 0
	}
	return int(t.Unix() / 86400)
}

// compareNames orders names as a buyer reads a list: case-insensitively, then exactly.
func compareNames(a, b string) int { return cmp.Compare(foldName(a), foldName(b)) }
