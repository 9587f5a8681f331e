package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/search"
	"github.com/tradeshop/functions/internal/seed"
)

type fixedIndex struct{ ix *search.Index }

func (f fixedIndex) Get(context.Context) (*search.Index, error) { return f.ix, nil }

func TestSearchEndpoint(t *testing.T) {
	t.Parallel()
	c, _ := seed.Generate(500)
	ix := search.Build(c.Products, c.Categories, c.Ranges)
	h := handleSearch(slog.New(slog.NewTextHandler(io.Discard, nil)), fixedIndex{ix}, time.Now)
	get := func(q string) (int, map[string]any) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/search?"+q, nil))
		var body map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		return rec.Code, body
	}
	for _, tc := range []struct {
		query   string
		status  int
		problem string
	}{
		{"q=birthday", 200, ""},
		{"q=birthday&page=2&range=wholesale_greeting_cards&category=101", 200, ""},
		{"q=", 200, ""},
		{"q=birthday&page=0", 400, "page"},
		{"q=birthday&page=abc", 400, "page"},
		{"q=birthday&page=201", 400, "page"},
		{"q=birthday&category=x", 400, "category"},
		{"q=birthday&range=Bad%20Range", 400, "range"},
		{"q=" + strings.Repeat("a", 101), 400, "q"},
		{"q=" + strings.Repeat("a", 100) + "%20%20", 200, ""},
		{"q=birth%00day", 400, "q"},
		{"q=birth%0Aday", 400, "q"},
		{"q=%E2%80%AEevil", 400, "q"},
		{"q=birth%E2%80%8Bday", 400, "q"},
		{"q=birthday&category=99999999999", 400, "category"},
		{"q=birthday&range=" + strings.Repeat("a", 65), 400, "range"},
		// A listing's sort and filters (issue 39): a bad sort or stock, or a min or max
		// that is no price, is named; an unknown facet value id is dropped.
		{"q=birthday&sort=price&occasion=birthday,no-such-day&band=under-50p&pack=6&new=yes&min=10&max=500&stock=in", 200, ""},
		{"q=birthday&sort=relevance", 200, ""},
		{"q=birthday&sort=featured", 400, "sort"},
		{"q=birthday&sort=cheapest", 400, "sort"},
		{"q=birthday&stock=out", 400, "stock"},
		{"q=birthday&min=abc", 400, "min"},
		{"q=birthday&max=-1", 400, "max"},
	} {
		code, body := get(tc.query)
		if code != tc.status {
			t.Errorf("%s: status %d, want %d (%v)", tc.query, code, tc.status, body)
			continue
		}
		if tc.problem != "" {
			problems, _ := body["problems"].(map[string]any)
			if problems[tc.problem] == nil {
				t.Errorf("%s: no problem named %q in %v", tc.query, tc.problem, body)
			}
		}
	}
	if _, body := get("q=%20%20cafe%CC%81%20"); body["query"] != "caf\u00e9" {
		t.Errorf("an NFD query with spaces around is searched as %q, want it trimmed and NFC", body["query"])
	}
	_, body := get("q=birthdy")
	if body["total"].(float64) == 0 {
		t.Fatalf("birthdy found nothing: %v", body)
	}
	if body["sort"] != "relevance" || body["facets"] == nil || len(body["prices"].([]any)) == 0 {
		t.Fatalf("a search answers its sort, facets and prices: %v %v %v", body["sort"], body["facets"], body["prices"])
	}
	// Sorted by price, the hits' unit prices do not fall, page after page.
	last := 0.0
	for page := 1; page <= 3; page++ {
		code, body := get(fmt.Sprintf("q=card&sort=price&page=%d", page))
		if code != 200 || body["sort"] != "price" {
			t.Fatalf("sort=price page %d: %d %v", page, code, body["sort"])
		}
		for _, h := range body["hits"].([]any) {
			price := h.(map[string]any)["unit_price"].(float64)
			if price < last {
				t.Fatalf("sort=price page %d: %v after %v", page, price, last)
			}
			last = price
		}
	}
}
