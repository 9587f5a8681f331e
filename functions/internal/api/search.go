package api

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/search"
	"github.com/tradeshop/functions/internal/text"
)

// SearchIndex answers the current search index.
type SearchIndex interface {
	Get(ctx context.Context) (*search.Index, error)
}

// searchText is the query text under the one text rule: trimmed, NFC, no control or
// invisible characters, at most search.MaxQueryLength characters.
var searchText = text.Field{Name: "q", Label: "Search text", Max: search.MaxQueryLength}

// parseSearch reads and checks q, page, range and category; every problem is named.
func parseSearch(v url.Values) (search.Request, map[string]string) {
	problems := map[string]string{}
	r := search.Request{Query: v.Get("q"), Range: v.Get("range"), Page: 1}
	if q, err := searchText.Clean(r.Query); err != nil {
		problems["q"] = err.(*text.Error).Sentence()
	} else {
		r.Query = q
	}
	if p := v.Get("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > search.MaxPage {
			problems["page"] = "The page must be a whole number from 1 to 200."
		}
		r.Page = n
	}
	if r.Range != "" && !catalogue.ValidRangeURLText(r.Range) {
		problems["range"] = "The range must be an outlet range such as wholesale_balloons."
	}
	if c := v.Get("category"); c != "" {
		n, err := strconv.Atoi(c)
		if err != nil || !catalogue.ValidCategoryID(n) {
			problems["category"] = "The category must be a category id (a positive whole number)."
		}
		r.CategoryID = n
	}
	return r, problems
}

// handleSearch answers GET /api/search?q=&page=&range=&category= with one page of
// ranked results. It needs no sign-in: search reads only the public catalogue.
func handleSearch(log *slog.Logger, idx SearchIndex) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, problems := parseSearch(r.URL.Query())
		if len(problems) > 0 {
			writeError(w, r, log, &errBadRequest{msg: "Those search options are not valid: change them and search again.", problems: problems})
			return
		}
		ix, err := idx.Get(r.Context())
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		res, err := ix.Search(r.Context(), req)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		encode(w, http.StatusOK, searchAnswerOf(res))
	})
}
