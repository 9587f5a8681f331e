package search

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
	"github.com/tradeshop/functions/internal/seed"
)

func build(t testing.TB, n int) *Index {
	t.Helper()
	c, err := seed.Generate(n)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ix := Build(c.Products, c.Categories, c.Ranges)
	t.Logf("indexed %d products in %v", n, time.Since(start))
	return ix
}

func TestSearchRanking(t *testing.T) {
	t.Parallel()
	ix := build(t, seed.DefaultProducts)
	c, _ := seed.Generate(seed.DefaultProducts)
	ctx := context.Background()

	t.Run("a product's full name finds it first", func(t *testing.T) {
		for _, p := range []int{0, 17, 999, 2500} {
			want := c.Products[p]
			r, err := ix.Search(ctx, Request{Query: want.Name})
			if err != nil || len(r.Hits) == 0 || r.Hits[0].SKU != want.SKU {
				t.Fatalf("%q: first hit %+v, want %s", want.Name, first(r), want.SKU)
			}
		}
	})
	t.Run("a SKU finds its product first, any case", func(t *testing.T) {
		want := c.Products[42]
		r, _ := ix.Search(ctx, Request{Query: strings.ToLower(want.SKU)})
		if len(r.Hits) == 0 || r.Hits[0].SKU != want.SKU {
			t.Fatalf("first hit %+v", first(r))
		}
	})
	t.Run("typo: birthdy finds birthday cards", func(t *testing.T) {
		r, _ := ix.Search(ctx, Request{Query: "birthdy"})
		if r.Total < 50 {
			t.Fatalf("only %d results", r.Total)
		}
		for _, h := range r.Hits {
			if !strings.Contains(h.Name, "Birthday") {
				t.Fatalf("hit %q is not a birthday card", h.Name)
			}
		}
	})
	t.Run("prefix: ballo finds balloons", func(t *testing.T) {
		r, _ := ix.Search(ctx, Request{Query: "ballo"})
		if r.Total == 0 || !strings.Contains(r.Hits[0].Name, "Balloon") {
			t.Fatalf("first hit %+v", first(r))
		}
	})
	t.Run("name matches rank above description matches", func(t *testing.T) {
		// "envelopes" is in every card's description but in the name only of envelope lines.
		r, _ := ix.Search(ctx, Request{Query: "envelopes"})
		if r.Total == 0 || !strings.Contains(r.Hits[0].Name, "Envelopes") {
			t.Fatalf("first hit %+v", first(r))
		}
	})
	t.Run("filters by range and category", func(t *testing.T) {
		r, _ := ix.Search(ctx, Request{Query: "birthday", Range: "wholesale_balloons"})
		for _, h := range r.Hits {
			if h.RangeURLText != "wholesale_balloons" {
				t.Fatalf("hit outside the range: %+v", h)
			}
		}
		r, _ = ix.Search(ctx, Request{Query: "card", CategoryID: 120})
		if r.Total == 0 {
			t.Fatal("no value cards")
		}
		for _, h := range r.Hits {
			if h.CategoryID != 120 || h.UnitPrice != 19 {
				t.Fatalf("hit outside value cards: %+v", h)
			}
		}
	})
	t.Run("pages", func(t *testing.T) {
		p1, _ := ix.Search(ctx, Request{Query: "card"})
		p2, _ := ix.Search(ctx, Request{Query: "card", Page: 2})
		if p1.Pages < 2 || len(p1.Hits) != PageSize || p2.Page != 2 || p1.Hits[0].SKU == p2.Hits[0].SKU {
			t.Fatalf("paging: %d pages, %d hits", p1.Pages, len(p1.Hits))
		}
		seen := map[string]bool{}
		for _, h := range slices.Concat(p1.Hits, p2.Hits) {
			if seen[h.SKU] {
				t.Fatalf("%s on both pages", h.SKU)
			}
			seen[h.SKU] = true
		}
	})
	t.Run("no match and empty query", func(t *testing.T) {
		r, _ := ix.Search(ctx, Request{Query: "zzqxv"})
		if r.Total != 0 || len(r.Hits) != 0 {
			t.Fatalf("%+v", r)
		}
		r, _ = ix.Search(ctx, Request{Query: "  !! "})
		if r.Total != 0 {
			t.Fatalf("%+v", r)
		}
		r, _ = ix.Search(ctx, Request{Query: "for the"}) // stop words only
		if r.Total != 0 {
			t.Fatalf("%+v", r)
		}
	})
}

// searchAll answers every result of a query, page by page.
func searchAll(t *testing.T, ix *Index, q string) []Hit {
	t.Helper()
	var all []Hit
	for page := 1; page <= MaxPage; page++ {
		r, err := ix.Search(context.Background(), Request{Query: q, Page: page})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, r.Hits...)
		if page >= r.Pages {
			return all
		}
	}
	return all
}

func inCategory(ids ...int) func(Hit) bool {
	return func(h Hit) bool { return slices.Contains(ids, h.CategoryID) }
}

func inRange(urlText string) func(Hit) bool {
	return func(h Hit) bool { return h.RangeURLText == urlText }
}

func named(pattern string) func(Hit) bool {
	re := regexp.MustCompile(pattern)
	return func(h Hit) bool { return re.MatchString(h.Name) }
}

func either(a, b func(Hit) bool) func(Hit) bool {
	return func(h Hit) bool { return a(h) || b(h) }
}

// TestBuyerQueries searches as buyers type: plurals, stop words, synonyms, ordinals and
// the shop's own range names. Each first page holds only what the buyer meant, and the
// whole result holds every product of the catalogue that plainly answers the query.
func TestBuyerQueries(t *testing.T) {
	t.Parallel()
	c, _ := seed.Generate(seed.DefaultProducts)
	ix := Build(c.Products, c.Categories, c.Ranges)
	heForBirthday := named(`\b(Dad|Grandad|Brother|Son|Uncle|Nephew|Husband) Birthday`)
	sheForBirthday := named(`\b(Mum|Nan|Sister|Daughter|Wife|Auntie|Niece) Birthday`)
	for _, tc := range []struct {
		query string
		top   func(Hit) bool // every hit on the first page
		all   func(Hit) bool // every such product of the catalogue is found
	}{
		{"birthday cards for him", either(inCategory(102), heForBirthday), either(inCategory(102), heForBirthday)},
		{"birthday cards for her", either(inCategory(101), sheForBirthday), either(inCategory(101), sheForBirthday)},
		{"mens birthday cards", inCategory(102), inCategory(102)},
		{"ladies birthday cards", inCategory(101), inCategory(101)},
		{"xmas", named(`Christmas`), inRange("wholesale-christmas")},
		{"xmas cards", named(`Christmas Card`), inCategory(201, 202, 203, 204)},
		{"wholesale christmas cards", named(`Christmas Card`), inCategory(201, 202, 203, 204)},
		{"bday cards", named(`Birthday`), named(`Birthday Card$`)},
		{"18th birthday", named(`^\S+( \S+)? Age 18 Birthday Card`), named(`Age 18 Birthday`)},
		{"christmas card boxes", named(`Christmas Card Box`), named(`Christmas Card Box`)},
		{"party bags", named(`Party Bags`), named(`Party Bags`)},
		{"glasses", named(`\bGlass\b`), inCategory(953)},
		{"serviettes", named(`Napkins`), named(`Napkins`)},
		{"condolences", named(`Sympathy`), named(`Sympathy`)},
		{"mum", named(`\b(Mum|Mam|Mother's)\b`), inCategory(304)},
		{"mothers day cards", inCategory(304), inCategory(304)},
		{"thank you cards", named(`Thank You`), named(`Thank You Card`)},
		{"stationery", inRange("wholesale_stationery"), inRange("wholesale_stationery")},
		{"giftware", inRange("wholesale_giftware"), inRange("wholesale_giftware")},
		{"greeting cards", inRange("wholesale_greeting_cards"), inRange("wholesale_greeting_cards")},
		{"partyware", inRange("wholesale_partyware"), inRange("wholesale_partyware")},
	} {
		t.Run(tc.query, func(t *testing.T) {
			all := searchAll(t, ix, tc.query)
			if len(all) == 0 {
				t.Fatal("no results")
			}
			for _, h := range all[:min(PageSize, len(all))] {
				if !tc.top(h) {
					t.Errorf("first page holds %q (%s, category %d)", h.Name, h.SKU, h.CategoryID)
				}
			}
			found := map[string]bool{}
			for _, h := range all {
				found[h.SKU] = true
			}
			want := 0
			for _, p := range c.Products {
				h := Hit{ProductCard: pages.Card(p), RangeURLText: p.RangeURLText, CategoryID: p.CategoryID}
				if tc.all(h) {
					want++
					if !found[p.SKU] {
						t.Errorf("%q (%s) is not found", p.Name, p.SKU)
					}
				}
			}
			if want == 0 {
				t.Fatal("the case names no product of the catalogue")
			}
		})
	}
}

// TestSameQueries: queries a buyer means the same way answer the same results in the
// same order.
func TestSameQueries(t *testing.T) {
	t.Parallel()
	ix := build(t, seed.DefaultProducts)
	for _, pair := range [][2]string{
		{"cards", "card"},
		{"balloons", "balloon"},
		{"diaries", "diary"},
		{"glasses", "glass"},
		{"christmas card boxes", "christmas card box"},
		{"party bags", "party bag"},
		{"xmas", "christmas"},
		{"Xmas Cards", "christmas card"},
		{"bday cards", "birthday card"},
		{"birthday cards for mum", "mum birthday card"},
		{"wholesale christmas cards", "christmas cards"},
		{"cards for a wedding", "wedding cards"},
		{"mothers day cards", "mother's day card"},
		{"congrats", "congratulations"},
		{"18th birthday", "age 18 birthday"},
	} {
		t.Run(pair[0], func(t *testing.T) {
			a, b := searchAll(t, ix, pair[0]), searchAll(t, ix, pair[1])
			if len(a) == 0 || len(a) != len(b) {
				t.Fatalf("%d results, and %d for %q", len(a), len(b), pair[1])
			}
			for i := range a {
				if a[i].SKU != b[i].SKU {
					t.Fatalf("result %d is %s, and %s for %q", i+1, a[i].SKU, b[i].SKU, pair[1])
				}
			}
		})
	}
}

// TestSynonymsMatchExactly: a word the synonyms file defines is not guessed at: "her"
// is not a prefix of Blue Heron Art's herons.
func TestSynonymsMatchExactly(t *testing.T) {
	t.Parallel()
	ix := build(t, seed.DefaultProducts)
	all := searchAll(t, ix, "cards for her")
	if len(all) == 0 {
		t.Fatal("no results")
	}
	for _, h := range all {
		if strings.Contains(h.Name, "Heron") {
			t.Fatalf("%q found by \"her\"", h.Name)
		}
	}
}

func first(r Result) any {
	if len(r.Hits) == 0 {
		return "no hits"
	}
	return r.Hits[0].Name + " " + r.Hits[0].SKU
}

// TestDiscontinuedIsNotFound: a discontinued product is found neither by its name nor by
// its SKU, and counts in no total; the products around it are found as before.
func TestDiscontinuedIsNotFound(t *testing.T) {
	t.Parallel()
	c, err := seed.Generate(seed.DefaultProducts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	gone, kept := c.Products[17], c.Products[18]
	before := Build(c.Products, c.Categories, c.Ranges)
	products := slices.Clone(c.Products)
	products[17].Status = catalogue.StatusDiscontinued
	products[18].Status = "" // written before statuses: active
	ix := Build(products, c.Categories, c.Ranges)

	for _, q := range []string{gone.Name, gone.SKU, strings.ToLower(gone.SKU)} {
		r, err := ix.Search(ctx, Request{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range r.Hits {
			if h.SKU == gone.SKU {
				t.Fatalf("%q finds discontinued %s", q, gone.SKU)
			}
		}
	}
	all := searchAll(t, ix, gone.Name)
	if slices.ContainsFunc(all, func(h Hit) bool { return h.SKU == gone.SKU }) {
		t.Fatalf("%q finds discontinued %s on a later page", gone.Name, gone.SKU)
	}
	if was := searchAll(t, before, gone.Name); len(was) != len(all)+1 {
		t.Fatalf("%q: %d results, %d before it was discontinued", gone.Name, len(all), len(was))
	}
	if r, _ := ix.Search(ctx, Request{Query: kept.SKU}); len(r.Hits) == 0 || r.Hits[0].SKU != kept.SKU {
		t.Fatalf("%s (no status) is not found first: %v", kept.SKU, first(r))
	}
}
