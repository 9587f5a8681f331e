package api

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/listing"
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

// maxPricePence bounds a min or max price: a price option is a unit price in pence.
const maxPricePence = 100_000_000

// parseSearch reads and checks q, page, range and category, and the hits' sort and
// filters (listing.ParseQuery, relevance its default sort: sort, the facet keys, min,
// max, stock); every problem is named. A facet value id no hit has is dropped, not a
// problem; a min or max that is no price at all is one.
func parseSearch(v url.Values) (search.Request, map[string]string) {
	lq, problems := listing.ParseQuery(v, true)
	for _, k := range []string{"min", "max"} {
		if p := v.Get(k); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 0 || n > maxPricePence {
				problems[k] = "The " + k + "imum price must be a price in pence, such as 250."
			}
		}
	}
	r := search.Request{Query: v.Get("q"), Range: v.Get("range"), Page: 1, Listing: lq}
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

// handleSearch answers GET /api/search?q=&page=&range=&category= (with a listing's sort
// and filters: sort, occasion, recipient, age, style, band, pack, new, min, max, stock)
// with one page of results, relevance first unless sorted otherwise, and the facets and
// prices of every hit. It needs no sign-in: search reads only the public catalogue, and
// stock=in the index's stock (at most searchMaxAge old).
func handleSearch(log *slog.Logger, idx SearchIndex, now func() time.Time) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, problems := parseSearch(r.URL.Query())
		req.Now = now()
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
