// Package listing sorts and filters a listing of products (a category page, a range
// page, a search's hits) by the facets buyers shop by: docs/catalogue.md "Sort and
// filter". The static pages carry a listing's filter index (Build), which the browser
// filters and sorts in memory by the same rules Apply follows on the server for search:
// multi-select within a facet, AND across facets, disjunctive counts (a value's count is
// what ticking it would add, given every other facet's choice), ties in featured order.
package listing
