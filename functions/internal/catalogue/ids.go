package catalogue

import "regexp"

// The shapes of the catalogue's ids as a request may carry them, checked before any
// read: anything else is refused (400 in a body, 404 in a path), never looked up.
var (
	skuShape      = regexp.MustCompile(`^[A-Z0-9][A-Z0-9-]{0,31}$`)
	urlTextShape  = regexp.MustCompile(`^[a-z0-9_-]{1,64}$`)
	maxCategoryID = 1_000_000
)

// ValidSKU reports whether s has a product SKU's shape: upper-case letters, digits and
// hyphens, 1 to 32, starting with a letter or digit (GC101-00001, TS-CARD-001): the seed's
// and the catalogue import's (docs/catalogue-import.md).
func ValidSKU(s string) bool { return skuShape.MatchString(s) }

// ValidRangeURLText reports whether s has an outlet range's urlText shape:
// wholesale_balloons (1 to 64 lower-case letters, digits, - or _).
func ValidRangeURLText(s string) bool { return urlTextShape.MatchString(s) }

// ValidCategoryID reports whether n can be a category id: 1 to 1,000,000.
func ValidCategoryID(n int) bool { return n >= 1 && n <= maxCategoryID }
