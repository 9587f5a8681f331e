package search

import (
	"cmp"
	"container/heap"
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/listing"
	"github.com/tradeshop/functions/internal/pages"
)

// PageSize is how many results one page holds.
const PageSize = 24

// MaxQueryLength bounds the query text; longer input is refused, not truncated.
const MaxQueryLength = 100

// MaxPage bounds how deep a buyer can page.
const MaxPage = 200

// maxTerms bounds how many words of a query are searched.
const maxTerms = 8

// Field weights: a word in the name counts most, then the category, then the range,
// then the description. How it matched scales that: exactly (or as a synonym) 1, as a
// prefix 0.5, with a typo 0.25.
const (
	weightName        = 6
	weightCategory    = 4
	weightRange       = 3
	weightDescription = 1
	weightSKU         = 20
	weightSKUPrefix   = 8
	scalePrefix       = 0.5
	scaleFuzzy        = 0.25
)

// Hit is one result: the product as a grid shows it, with where it sits.
type Hit struct {
	pages.ProductCard
	RangeURLText string `json:"range_url_text"`
	CategoryID   int    `json:"category_id"`
}

// Result is one page of results. Total counts the hits that pass the listing's filters;
// Facets are the facets of every hit of the text within the range or category, with the
// disjunctive counts of listing.Apply, and Prices their distinct prices; Sort is the
// order the hits are in (listing's sorts, relevance by default).
type Result struct {
	Query  string              `json:"query"`
	Total  int                 `json:"total"`
	Page   int                 `json:"page"`
	Pages  int                 `json:"pages"`
	Hits   []Hit               `json:"hits"`
	Facets []pages.FacetCounts `json:"facets"`
	Prices []pages.PriceOption `json:"prices"`
	Sort   string              `json:"sort"`
}

// Request is a search: text, optional range or category, the hits' sort and filters
// (Listing, from listing.ParseQuery with relevance; the zero Query is relevance order,
// nothing filtered) and a 1-based page. Now is when the search is made (the zero time is
// the clock's): "new in" counts back from its London date, and stock=in keeps the hits
// in stock at it by the index's stock, which is at most the provider's maxAge old.
type Request struct {
	Query      string
	Range      string
	CategoryID int
	Page       int
	Listing    listing.Query
	Now        time.Time
}

type posting struct {
	doc    int32
	weight float32
}

// Index is an in-memory inverted index of the catalogue. It is read-only after Build
// and safe for concurrent searches.
type Index struct {
	docs []Hit
	// products are the indexed products, entry i of docs: what listing.Apply sorts,
	// filters and counts.
	products  []catalogue.Product
	nameWords []uint8
	// nameRank is each product's place in name, then SKU, order: the last tie-break of
	// relevance, compared as a number because a broad search sorts thousands of hits.
	nameRank []int32
	// all holds every word of name, category and description with its best field
	// weight per product; title only name and category words, for prefix and typo matches.
	all, title map[string][]posting
	dict       []string // title's words, sorted, for prefix ranges and typo scans
	skus       []string // lowercase SKUs, sorted; index i is skuDoc[i]
	skuDoc     []int32
	scratch    sync.Pool
	// prep is the products prepared for listings (listing.Prepare) on one London date,
	// made on the first search of each day: "new in" is as of the day.
	prep atomic.Pointer[preparedOn]
}

// preparedOn is the index's products prepared on a London date.
type preparedOn struct {
	today string
	pr    *listing.Prepared
}

// prepared answers the index's products prepared for listings on the London date today.
// Two searches starting a new day at once may both prepare it; either answer serves.
func (ix *Index) prepared(today string) *listing.Prepared {
	if p := ix.prep.Load(); p != nil && p.today == today {
		return p.pr
	}
	pr := listing.Prepare(ix.products, today)
	ix.prep.Store(&preparedOn{today: today, pr: pr})
	return pr
}

// Build indexes the products; a product's category and range names count as words of
// its title. Discontinued products are left out: the shop no longer shows them.
func Build(products []catalogue.Product, cats []catalogue.Category, ranges []catalogue.Range) *Index {
	products = catalogue.Active(products)
	categoryNames := make(map[int]string, len(cats))
	for _, c := range cats {
		categoryNames[c.ID] = c.Name
	}
	rangeNames := make(map[string]string, len(ranges))
	for _, r := range ranges {
		rangeNames[r.URLText] = r.Name
	}
	ix := &Index{
		docs: make([]Hit, len(products)), products: products, nameWords: make([]uint8, len(products)),
		all: map[string][]posting{}, title: map[string][]posting{},
	}
	add := func(m map[string][]posting, w string, doc int32, weight float32) {
		list := m[w]
		if n := len(list); n > 0 && list[n-1].doc == doc {
			list[n-1].weight = max(list[n-1].weight, weight)
			return
		}
		m[w] = append(list, posting{doc, weight})
	}
	type skuEntry struct {
		sku string
		doc int32
	}
	skus := make([]skuEntry, 0, len(products))
	for i, p := range products {
		doc := int32(i)
		ix.docs[i] = Hit{ProductCard: pages.Card(p), RangeURLText: p.RangeURLText, CategoryID: p.CategoryID}
		name := words(p.Name)
		ix.nameWords[i] = uint8(min(len(name), 255))
		for _, w := range name {
			add(ix.all, w, doc, weightName)
			add(ix.title, w, doc, weightName)
		}
		for _, w := range words(categoryNames[p.CategoryID]) {
			add(ix.all, w, doc, weightCategory)
			add(ix.title, w, doc, weightCategory)
		}
		for _, w := range words(rangeNames[p.RangeURLText]) {
			add(ix.all, w, doc, weightRange)
			add(ix.title, w, doc, weightRange)
		}
		for _, w := range words(p.Description) {
			add(ix.all, w, doc, weightDescription)
		}
		skus = append(skus, skuEntry{strings.ToLower(p.SKU), doc})
	}
	byName := make([]int32, len(products))
	for i := range byName {
		byName[i] = int32(i)
	}
	slices.SortFunc(byName, func(a, b int32) int {
		return cmp.Or(cmp.Compare(ix.docs[a].Name, ix.docs[b].Name), cmp.Compare(ix.docs[a].SKU, ix.docs[b].SKU))
	})
	ix.nameRank = make([]int32, len(products))
	for r, d := range byName {
		ix.nameRank[d] = int32(r)
	}
	for w := range ix.title {
		ix.dict = append(ix.dict, w)
	}
	sort.Strings(ix.dict)
	sort.Slice(skus, func(a, b int) bool { return skus[a].sku < skus[b].sku })
	for _, s := range skus {
		ix.skus = append(ix.skus, s.sku)
		ix.skuDoc = append(ix.skuDoc, s.doc)
	}
	n := len(products)
	ix.scratch.New = func() any {
		return &scratch{term: make([]float32, n), total: make([]float32, n), count: make([]uint8, n)}
	}
	// Ready for today's listings before the first search asks.
	ix.prepared(catalogue.LondonDate(time.Now()))
	return ix
}

// Len is how many products are indexed.
func (ix *Index) Len() int { return len(ix.docs) }

// scratch is one search's working memory, pooled: per-product scores of the current
// word, running totals, and how many words each product has matched.
type scratch struct {
	term, total []float32
	count       []uint8
	touched     []int32 // products with a non-zero term score, to reset
	seen        []int32 // products with a non-zero total, to reset
	// hits are the search's hits within its range or category, kept for the next search
	// so a broad one does not allocate them.
	hits []int32
}

func (s *scratch) reset() {
	for _, d := range s.seen {
		s.total[d], s.count[d] = 0, 0
	}
	s.seen = s.seen[:0]
}

func (s *scratch) raise(doc int32, v float32) {
	if s.term[doc] == 0 {
		s.touched = append(s.touched, doc)
	}
	s.term[doc] = max(s.term[doc], v)
}

// queryTerms splits the query into words as the index does (stop words dropped,
// plurals folded), keeping hyphenated tokens whole only when they look like a SKU,
// and gives each word its synonyms. A word with synonyms keeps them even if it is
// also a stop word's spelling ("him" is not dropped).
func (ix *Index) queryTerms(q string) []term {
	raw := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
	var out []term
	for _, t := range raw {
		t = strings.Trim(t, "-")
		switch {
		case t == "":
		case strings.Contains(t, "-") && ix.hasSKUPrefix(t):
			out = append(out, term{word: t})
		default:
			for _, w := range split(t) {
				f := fold(w)
				alts, ok := synonyms[f]
				if !ok && stopWords[w] {
					continue
				}
				out = append(out, term{word: f, alts: alts})
			}
		}
	}
	return out[:min(len(out), maxTerms)]
}

func (ix *Index) hasSKUPrefix(t string) bool {
	i := sort.SearchStrings(ix.skus, t)
	return i < len(ix.skus) && strings.HasPrefix(ix.skus[i], t)
}

// scoreTerm sets s.term to each product's best match of one query word. A word with
// synonyms finds them as if typed, and only exactly: the synonyms file says what it
// means, so "her" does not find "heron" as a prefix. Other words also match as a
// prefix, a SKU or within a typo.
func (ix *Index) scoreTerm(s *scratch, qt term) {
	t := qt.word
	for _, p := range ix.all[t] {
		s.raise(p.doc, p.weight)
	}
	for _, a := range qt.alts {
		for _, p := range ix.all[a] {
			s.raise(p.doc, p.weight)
		}
	}
	if len(qt.alts) > 0 {
		return
	}
	if len(t) >= 2 {
		for i := sort.SearchStrings(ix.dict, t); i < len(ix.dict) && strings.HasPrefix(ix.dict[i], t); i++ {
			if ix.dict[i] == t {
				continue
			}
			for _, p := range ix.title[ix.dict[i]] {
				s.raise(p.doc, p.weight*scalePrefix)
			}
		}
		for i := sort.SearchStrings(ix.skus, t); i < len(ix.skus) && strings.HasPrefix(ix.skus[i], t); i++ {
			w := float32(weightSKUPrefix)
			if ix.skus[i] == t {
				w = weightSKU
			}
			s.raise(ix.skuDoc[i], w)
		}
	}
	if k := typoAllowance(t); k > 0 {
		for _, w := range ix.dict {
			if w != t && !strings.HasPrefix(w, t) && withinEdits(t, w, k) {
				for _, p := range ix.title[w] {
					s.raise(p.doc, p.weight*scaleFuzzy)
				}
			}
		}
	}
}

// typoAllowance is how many edits a word may be off: none under 4 letters, one up to
// 6, two from 7.
func typoAllowance(t string) int {
	switch n := len([]rune(t)); {
	case n < 4:
		return 0
	case n < 7:
		return 1
	default:
		return 2
	}
}

// Search runs a request. Every word must match somewhere; the hits within the range or
// category are ranked by score, then shorter names (the plain design before its
// variants), then name and SKU; listing.Apply then filters them, counts their facets and,
// for a sort other than relevance, orders them by it, relevance breaking ties.
func (ix *Index) Search(_ context.Context, r Request) (Result, error) {
	q := r.Listing
	q.Sort = cmp.Or(q.Sort, listing.SortRelevance)
	res := Result{Query: r.Query, Page: min(max(r.Page, 1), MaxPage), Hits: []Hit{},
		Facets: []pages.FacetCounts{}, Prices: []pages.PriceOption{}, Sort: q.Sort}
	terms := ix.queryTerms(r.Query)
	if len(terms) == 0 || len(ix.docs) == 0 {
		return res, nil
	}
	s := ix.scratch.Get().(*scratch)
	defer ix.scratch.Put(s)
	defer s.reset()

	for i, t := range terms {
		ix.scoreTerm(s, t)
		for _, d := range s.touched {
			if int(s.count[d]) == i { // matched every word so far
				if i == 0 {
					s.seen = append(s.seen, d)
				}
				s.count[d]++
				s.total[d] += s.term[d]
			}
			s.term[d] = 0
		}
		s.touched = s.touched[:0]
	}

	hits := s.hits[:0]
	for _, d := range s.seen {
		if int(s.count[d]) == len(terms) && ix.passes(d, r) {
			hits = append(hits, d)
		}
	}
	rank := ranking{ix: ix, total: s.total}
	// Another sort breaks its ties by relevance, so it needs the hits in relevance order;
	// relevance itself needs only the page's, picked after the filters (below), as a
	// broad search has tens of thousands of hits.
	if q.Sort != listing.SortRelevance {
		slices.SortFunc(hits, rank.compare)
	}
	s.hits = hits
	now := r.Now
	if now.IsZero() {
		now = time.Now()
	}
	shown := ix.prepared(catalogue.LondonDate(now)).Apply(hits, q, func(p catalogue.Product) bool { return basket.InStockNow(p, now) })
	res.Total, res.Facets, res.Prices = len(shown.Order), shown.Facets, shown.Prices
	res.Pages = (res.Total + PageSize - 1) / PageSize
	from, to := min(res.Total, (res.Page-1)*PageSize), min(res.Total, res.Page*PageSize)
	page := make([]int32, res.Total)
	for i, at := range shown.Order {
		page[i] = hits[at]
	}
	if q.Sort == listing.SortRelevance {
		page = rank.best(page, to)
	}
	for _, d := range page[from:to] {
		res.Hits = append(res.Hits, ix.docs[d])
	}
	return res, nil
}

func (ix *Index) passes(d int32, r Request) bool {
	h := &ix.docs[d]
	return (r.Range == "" || h.RangeURLText == r.Range) && (r.CategoryID == 0 || h.CategoryID == r.CategoryID)
}

// ranking orders a search's hits by relevance: score, then fewer name words, then name
// and SKU.
type ranking struct {
	ix    *Index
	total []float32
}

// best answers the n best of docs in relevance order, docs reordered: with a heap of n,
// so a page of a broad search does not sort all its hits.
func (k ranking) best(docs []int32, n int) []int32 {
	if n >= len(docs) {
		slices.SortFunc(docs, k.compare)
		return docs
	}
	top := &resultHeap{rank: k, docs: make([]int32, 0, n)}
	for _, d := range docs {
		if top.Len() < n {
			heap.Push(top, d)
		} else if k.compare(d, top.docs[0]) < 0 {
			top.docs[0] = d
			heap.Fix(top, 0)
		}
	}
	out := docs[:top.Len()]
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(top).(int32)
	}
	return out
}

// resultHeap keeps the best results seen so far with the worst on top.
type resultHeap struct {
	rank ranking
	docs []int32
}

func (h *resultHeap) Len() int           { return len(h.docs) }
func (h *resultHeap) Less(i, j int) bool { return h.rank.compare(h.docs[i], h.docs[j]) > 0 }
func (h *resultHeap) Swap(i, j int)      { h.docs[i], h.docs[j] = h.docs[j], h.docs[i] }
func (h *resultHeap) Push(x any)         { h.docs = append(h.docs, x.(int32)) }
func (h *resultHeap) Pop() any {
	d := h.docs[len(h.docs)-1]
	h.docs = h.docs[:len(h.docs)-1]
	return d
}

// compare is negative when product a ranks above product b.
func (k ranking) compare(a, b int32) int {
	if k.total[a] != k.total[b] {
		return cmp.Compare(k.total[b], k.total[a])
	}
	return cmp.Or(cmp.Compare(k.ix.nameWords[a], k.ix.nameWords[b]), cmp.Compare(k.ix.nameRank[a], k.ix.nameRank[b]))
}
