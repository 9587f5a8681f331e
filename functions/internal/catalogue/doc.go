// Package catalogue holds the shop's catalogue types — outlet ranges, categories and
// products — as plain Go values. It imports no AWS and no HTTP: storage and page
// building depend on it, never the other way round.
package catalogue
