package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/search"
	"github.com/tradeshop/functions/internal/seed"
)

type fixedIndex struct{ ix *search.Index }

func (f fixedIndex) Get(context.Context) (*search.Index, error) { return f.ix, nil }

func TestSearchEndpoint(t *testing.T) {
	t.Parallel()
	c, _ := seed.Generate(500)
	ix := search.Build(c.Products, c.Categories, c.Ranges)
	h := handleSearch(slog.New(slog.NewTextHandler(io.Discard, nil)), fixedIndex{ix})
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
}
