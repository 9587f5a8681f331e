package listing

import (
	"maps"
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
func bandOf(pence int64) string { return bands[bandIndex(pence)].id }

// bandIndex answers the place in bands of the band a unit price falls in.
func bandIndex(pence int64) int {
	for i, b := range bands {
		if pence < b.below {
			return i
		}
	}
	return len(bands) - 1
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

// newWindow is the range of first-published dates that are "new in" on a listing's date:
// NewDays back from it, to it, as ISO dates, which compare as text. It is worked out
// once a listing, so telling a product new is two string comparisons.
type newWindow struct{ from, to string }

// newWindowOf answers the window of the London date today; an invalid today has none.
func newWindowOf(today string) newWindow {
	t, err := time.Parse(time.DateOnly, today)
	if err != nil {
		return newWindow{from: "~", to: ""}
	}
	return newWindow{from: t.AddDate(0, 0, -NewDays).Format(time.DateOnly), to: today}
}

// has reports whether a product first published on the ISO date published is new in.
func (w newWindow) has(published string) bool {
	return len(published) == len(time.DateOnly) && published >= w.from && published <= w.to
}

// facetsOf answers the facets of a listing: each with the values at least one of its
// products has, in panel order (a facet none has, or whose one value all have, is left
// out). One pass over the products counts the products of each value, in a map a stored
// facet and by place for the others: a search's hits may be tens of thousands.
func facetsOf(products []catalogue.Product, fresh newWindow) []facet {
	defs := catalogue.FacetDefs()
	stored := make([]map[string]int, len(defs))
	for i := range stored {
		stored[i] = map[string]int{}
	}
	inBand := make([]int, len(bands))
	packs := map[int]int{}
	newIn := 0
	for _, p := range products {
		for i, d := range defs {
			for _, id := range p.Facets.Get(d.Key) {
				stored[i][id]++
			}
		}
		inBand[bandIndex(p.UnitPrice)]++
		packs[p.PackSize]++
		if fresh.has(p.Published) {
			newIn++
		}
	}
	var out []facet
	// add adds f unless it offers no choice: no value, or one value every product of the
	// listing has (a birthday category's Occasion: Birthday would narrow nothing).
	add := func(f facet, having func(id string) int) {
		if len(f.values) == 0 || len(f.values) == 1 && having(f.values[0].ID) == len(products) {
			return
		}
		out = append(out, f)
	}
	for i, d := range defs {
		f := facet{key: d.Key, label: d.Label}
		for _, v := range d.Values {
			if stored[i][v.ID] > 0 {
				f.values = append(f.values, v)
			}
		}
		add(f, func(id string) int { return stored[i][id] })
	}
	bf := facet{key: FacetBand, label: "Price"}
	for i, b := range bands {
		if inBand[i] > 0 {
			bf.values = append(bf.values, catalogue.FacetValue{ID: b.id, Label: b.label})
		}
	}
	add(bf, func(id string) int { return inBand[slices.IndexFunc(bands, func(b band) bool { return b.id == id })] })
	pf := facet{key: FacetPack, label: "Pack size"}
	for _, n := range slices.Sorted(maps.Keys(packs)) {
		pf.values = append(pf.values, catalogue.FacetValue{ID: strconv.Itoa(n), Label: "Pack of " + strconv.Itoa(n)})
	}
	add(pf, func(id string) int { n, _ := strconv.Atoi(id); return packs[n] })
	nf := facet{key: FacetNew, label: "New in"}
	if newIn > 0 {
		nf.values = []catalogue.FacetValue{{ID: NewYes, Label: "Added in the last " + strconv.Itoa(NewDays) + " days"}}
	}
	add(nf, func(string) int { return newIn })
	return out
}

// numbering gives every value of a listing's facets its number, in order across facets.
type numbering struct {
	facets []facet
	first  []int            // the number of each facet's first value
	byID   []map[string]int // each facet's value numbers by value id
	facet  []int            // a value number's facet
}

func numberFacets(fs []facet) numbering {
	n := numbering{facets: fs}
	for fi, f := range fs {
		n.first = append(n.first, len(n.facet))
		ids := make(map[string]int, len(f.values))
		for _, v := range f.values {
			ids[v.ID] = len(n.facet)
			n.facet = append(n.facet, fi)
		}
		n.byID = append(n.byID, ids)
	}
	return n
}

// number answers the number of value id of facet fi, false when the listing has none.
func (n numbering) number(fi int, id string) (int, bool) {
	v, ok := n.byID[fi][id]
	return v, ok
}

// values appends a product's value numbers, ascending, to out[:0] and answers it. It
// makes no slice a value: a search counts the values of tens of thousands of hits.
func (n numbering) values(out []int, p catalogue.Product, fresh newWindow) []int {
	out = out[:0]
	for fi, f := range n.facets {
		ids := n.byID[fi]
		switch f.key {
		case FacetBand:
			if v, ok := ids[bandOf(p.UnitPrice)]; ok {
				out = append(out, v)
			}
		case FacetPack:
			if v, ok := ids[strconv.Itoa(p.PackSize)]; ok {
				out = append(out, v)
			}
		case FacetNew:
			if fresh.has(p.Published) {
				out = append(out, ids[NewYes])
			}
		default:
			for _, id := range p.Facets.Get(f.key) {
				if v, ok := ids[id]; ok {
					out = append(out, v)
				}
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
	// The distinct prices first (a listing has far fewer than products), then each
	// product's rank looked up: no sort of every product's price.
	seen := map[int64]int{}
	for _, p := range products {
		seen[p.UnitPrice] = 0
	}
	distinct := slices.Sorted(maps.Keys(seen))
	opts := make([]pages.PriceOption, len(distinct))
	for i, pence := range distinct {
		opts[i] = pages.PriceOption{ID: strconv.FormatInt(pence, 10), Label: orders.Pounds(pence)}
		seen[pence] = i
	}
	rank := make([]int, len(products))
	for i, p := range products {
		rank[i] = seen[p.UnitPrice]
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
