// Package search is the catalogue search behind GET /api/search: an in-memory index
// over product name, SKU, category, range and description, ranked name and SKU above
// description, tolerant of prefixes ("ballo") and typos ("birthdy"), folding plurals
// ("cards" finds card), ignoring stop words ("for", "the") and knowing a few synonyms
// (synonyms.json: "xmas" finds christmas), filterable by outlet range and category,
// sorted, filtered and counted by facet as a listing is (package listing), and paged.
// docs/search.md records the design, the decisions and the measured latency.
package search
