package search

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/seed"
)

func build(t testing.TB, n int) *Index {
	t.Helper()
	c, err := seed.Generate(n)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ix := Build(c.Products, c.Categories)
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
	})
}

func first(r Result) any {
	if len(r.Hits) == 0 {
		return "no hits"
	}
	return r.Hits[0].Name + " " + r.Hits[0].SKU
}
