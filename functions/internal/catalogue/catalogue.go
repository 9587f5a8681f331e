package catalogue

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/tradeshop/functions/internal/pricing"
)

// Range is an outlet range, reached at /outlet/r/{URLText}/.
type Range struct {
	URLText     string `json:"urlText"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Order       int    `json:"order"`
}

// Category is a product category, reached at /outlet/section/{Slug}/{ID}/. Group is
// the header menu group it is listed under; RangeURLText the outlet range it belongs to.
type Category struct {
	ID           int    `json:"id"`
	Slug         string `json:"slug"`
	Name         string `json:"name"`
	Group        string `json:"group"`
	RangeURLText string `json:"rangeUrlText"`
	Order        int    `json:"order"`
}

// Product is one sellable item. UnitPrice is the trade price of one unit in pence ex
// VAT; products sell in packs of PackSize units. VATRate is a whole percentage.
// Status is StatusActive (or empty, as items written before imports are) or
// StatusDiscontinued: a discontinued product stays in the table, because old orders and
// reorders refer to it, but it has no page and cannot be bought (docs/catalogue-import.md).
// SortOrder (0 for none) puts a product before those without one on its category page;
// Barcode is an optional GTIN. SmallImg and LargeImg are empty for a product without a
// picture: the pages draw a placeholder. RRP is the recommended retail price of one unit
// in pence inc VAT (0 for none), which margins are worked out at; Breaks is the product's
// public quantity break table (docs/pricing.md), empty for none.
type Product struct {
	SKU          string         `json:"sku"`
	Slug         string         `json:"slug"`
	Name         string         `json:"name"`
	Description  string         `json:"description"`
	CategoryID   int            `json:"categoryId"`
	RangeURLText string         `json:"rangeUrlText"`
	PackSize     int            `json:"packSize"`
	UnitPrice    int64          `json:"unitPrice"`
	VATRate      int            `json:"vatRate"`
	Stock        int            `json:"stock"`
	SmallImg     string         `json:"smallImg"`
	LargeImg     string         `json:"largeImg"`
	Status       string         `json:"status,omitempty"`
	SortOrder    int            `json:"sortOrder,omitempty"`
	Barcode      string         `json:"barcode,omitempty"`
	RRP          int64          `json:"rrp,omitempty"`
	Breaks       pricing.Ladder `json:"breaks,omitempty"`
	// Forward is set while the product is sold ahead of its delivery (forward.go).
	Forward *Forward `json:"forward,omitempty"`
	// Facets are the values buyers filter by beyond the category (facets.go).
	Facets Facets `json:"facets,omitzero"`
	// Published is the London date (ISO, "2026-10-01") the product was first published,
	// "" when not known: "new in" and the newest-first sort read it.
	Published string `json:"published,omitempty"`
}

// The product statuses.
const (
	StatusActive       = "active"
	StatusDiscontinued = "discontinued"
)

// Equal reports whether p and q are the same product in every field, an empty break
// table being the same as none (a Product holds a slice, so == cannot say).
func (p Product) Equal(q Product) bool {
	if !slices.Equal(p.Breaks, q.Breaks) {
		return false
	}
	p.Breaks, q.Breaks = nil, nil
	return reflect.DeepEqual(p, q)
}

// Discontinued reports whether p may no longer be bought or shown.
func (p Product) Discontinued() bool { return p.Status == StatusDiscontinued }

// Active answers the products that are not discontinued, in their order: the ones the
// shop shows (pages, search, recommendations). products is left as it was.
func Active(products []Product) []Product {
	out := make([]Product, 0, len(products))
	for _, p := range products {
		if !p.Discontinued() {
			out = append(out, p)
		}
	}
	return out
}

// CompareShelf orders products as a category page lists them: those with a SortOrder
// above 0 first, lowest first, then the rest; within each, by name, then SKU.
func CompareShelf(a, b Product) int {
	return cmp.Or(cmp.Compare(shelfRank(a), shelfRank(b)), cmp.Compare(a.Name, b.Name), cmp.Compare(a.SKU, b.SKU))
}

// shelfRank is a product's place on its category page before names are compared: its
// SortOrder, or after every sort order for a product without one.
func shelfRank(p Product) int {
	if p.SortOrder > 0 {
		return p.SortOrder
	}
	return math.MaxInt
}

// RangePath is the site path of a range page.
func RangePath(urlText string) string { return "/outlet/r/" + urlText + "/" }

// CategoryPath is the site path of a category page.
func CategoryPath(c Category) string {
	return "/outlet/section/" + c.Slug + "/" + strconv.Itoa(c.ID) + "/"
}

// ProductPath is the site path of a product page (served by the catch-all route).
func ProductPath(p Product) string { return "/" + p.Slug + "/" }

// Slugify turns a display name into a lowercase, hyphen-separated URL segment.
func Slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '&':
			if b.Len() > 0 && !dash {
				b.WriteByte('-')
			}
			b.WriteString("and")
			dash = false
		case unicode.IsLetter(r) && r < unicode.MaxASCII, unicode.IsDigit(r):
			b.WriteRune(r)
			dash = false
		default:
			if b.Len() > 0 && !dash {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
