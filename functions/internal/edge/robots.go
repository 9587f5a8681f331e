package edge

import (
	"net/http"
	"net/url"
	"strings"
)

// filteredViewKeys are the query-string keys of a listing's filtered view (issue 39: a
// category, range or search page's sort, facets, price range and "in stock now"; the
// page number alone is not one). A page asked for with any of them present, whatever its
// value, is answered with X-Robots-Tag: noindex, so crawlers index only the unfiltered
// page, which the filtered view's canonical link names. This is the Go edge's one list;
// the CloudFront viewer-response function (infra/edge/viewer-response.js) holds the same,
// and builds/edge-test-vectors.json's filteredViewKeys, which both edges' tests check
// their list against, keeps them equal, and equal to listing.FilteredViewKeys, the keys
// the listing reads (the search API's, and the pages').
var filteredViewKeys = []string{"sort", "occasion", "recipient", "age", "style", "band", "pack", "new", "min", "max", "stock"}

// robotsHeader is the response header that keeps a filtered view out of search indexes.
const robotsHeader = "X-Robots-Tag"

// isFilteredView reports whether query rawQuery holds any filtered-view key.
func isFilteredView(rawQuery string) bool {
	if rawQuery == "" {
		return false
	}
	q, _ := url.ParseQuery(rawQuery) // what parses is enough: a broken pair names no key
	for _, k := range filteredViewKeys {
		if _, ok := q[k]; ok {
			return true
		}
	}
	return false
}

// markFilteredView sets X-Robots-Tag: noindex on the answer to a page asked for as a
// filtered view. A page is a path ending in "/" or its index.html (as the CloudFront
// function may see it, rewritten): never another file, nor /api/.
func markFilteredView(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if (strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/index.html")) && isFilteredView(r.URL.RawQuery) {
		w.Header().Set(robotsHeader, "noindex")
	}
}
