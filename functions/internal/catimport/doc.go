// Package catimport loads the shop's own catalogue from a file (docs/catalogue-import.md):
// it reads products (and, from a second file, ranges and categories) as CSV or JSON lines,
// validates every row before anything is written, works out the difference against the
// table (new, changed, discontinued, unchanged) and applies it idempotently and
// resumably. It also writes the catalogue back out as the same CSV.
package catimport
