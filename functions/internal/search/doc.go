// Package search is the catalogue search behind GET /api/search: a bleve index over
// product name, SKU, category and description, ranked name and SKU above
// description, tolerant of prefixes ("birth") and typos ("birthdy"), filterable by
// outlet range and category, and paged. docs/search.md records why bleve and the
// measured latency.
package search
