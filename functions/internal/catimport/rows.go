package catimport

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/text"
)

// The products file's columns (docs/catalogue-import.md "Products").
var productColumns = []column{
	{"sku", "SKU", true},
	{"name", "name", true},
	{"description", "description", false},
	{"range", "range", false},
	{"category", "category", true},
	{"pack_size", "pack size", true},
	{"unit_price", "unit price", true},
	{"vat_rate", "VAT rate", true},
	{"stock", "stock", false},
	{"status", "status", false},
	{"image", "image", false},
	{"sort_order", "sort order", false},
	{"barcode", "barcode", false},
	{"rrp", "RRP", false},
	{"breaks", "breaks", false},
	{colForwardFrom, "forward from date", false},
	{colOrderBy, "order-by date", false},
	{colForwardExpected, "forward expected", false},
	{catalogue.FacetOccasion, "occasion", false},
	{catalogue.FacetRecipient, "recipient", false},
	{catalogue.FacetAge, "age", false},
	{catalogue.FacetStyle, "style", false},
	{colPublished, "published date", false},
}

// The ranges and categories file's columns (docs/catalogue-import.md "Ranges and categories").
var structureColumns = []column{
	{"type", "type", true},
	{"id", "id", false},
	{"slug", "slug", true},
	{"name", "name", true},
	{"range", "range", false},
	{"group", "menu group", false},
	{"description", "description", false},
	{"sort_order", "sort order", false},
}

// Limits of a product row.
const (
	maxSKU         = 32
	maxName        = 150
	maxDescription = 5000
	maxPackSize    = 1000
	maxPricePence  = 1_000_000 // £10,000.00 a unit
	maxStock       = 10_000_000
	maxSortOrder   = 1_000_000
	maxCategoryID  = 999_999
	maxGroup       = 40
)

var (
	priceRE   = regexp.MustCompile(`^£?\s*([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]{1,2}))?$`)
	slugRE    = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	rangeRE   = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)
	barcodeRE = regexp.MustCompile(`^[0-9]{8}$|^[0-9]{12,14}$`)
	mediaRE   = regexp.MustCompile(`^/media/[a-z0-9][a-z0-9/_.-]*-l\.(svg|webp|jpg|png)$`)
	vatRates  = map[int]bool{0: true, 5: true, 20: true}
	statusOf  = map[string]string{"": catalogue.StatusActive, "active": catalogue.StatusActive, "discontinued": catalogue.StatusDiscontinued}
)

// Row is one validated product row. Stock is nil when the cell is empty: the stock is
// left as it is (0 for a new product). Image is the cell as written ("" keeps the
// product's picture).
type Row struct {
	Line        int
	SKU         string
	Name        string
	Description string
	Range       string
	CategoryID  int
	PackSize    int
	UnitPrice   int64
	VATRate     int
	Stock       *int
	Status      string
	Image       string
	SortOrder   int
	Barcode     string
	RRP         int64          // pence inc VAT a unit; 0 for none
	Breaks      pricing.Ladder // nil for none
	// KeepRRP and KeepBreaks say the row has no such cell at all (the file has no rrp or
	// breaks column, or a JSON line has no such field): the product's own are kept, so a
	// file made before the columns existed leaves them alone. An empty cell removes them.
	KeepRRP, KeepBreaks bool
	// Forward is the row's forward marking (nil for none); KeepForward says the row has
	// none of the three forward cells, so the product's own marking stays, as KeepRRP.
	Forward     *catalogue.Forward
	KeepForward bool
	// Facets are the row's facet values; KeepFacets the facets it has no cell for (the
	// file has no such column), whose values stay the product's. Published is the
	// row's published date, "" to keep the product's (docs/catalogue-import.md).
	Facets     catalogue.Facets
	KeepFacets map[string]bool
	Published  string
}

// problems collects the problems of one file, stopping the list at maxProblems.
type problems struct {
	file  string
	list  []Problem
	count int
}

// problemf adds a problem: format and args make a whole sentence that names the column
// in staff's words ("The pack size must be …."), as every message the server sends is.
func (p *problems) problemf(line int, col, format string, args ...any) {
	p.problem(line, col, fmt.Sprintf(format, args...))
}

// problem adds a problem whose whole sentence another check wrote (ParseBreaks's).
func (p *problems) problem(line int, col, sentence string) {
	p.count++
	if len(p.list) < maxProblems {
		p.list = append(p.list, Problem{File: p.file, Line: line, Column: col, Message: sentence})
	}
}

// wholeNumber reads a whole number from lo to hi, or adds a problem.
func (p *problems) wholeNumber(r record, key, label string, lo, hi int, optional bool) (int, bool) {
	s := r.get(key)
	if s == "" {
		if optional {
			return 0, true
		}
		p.problemf(r.line, label, "The %s is empty; it must be a whole number from %d to %d.", label, lo, hi)
		return 0, false
	}
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil || n < lo || n > hi {
		p.problemf(r.line, label, "The %s must be a whole number from %d to %d (found %q).", label, lo, hi, Clip(s))
		return 0, false
	}
	return n, true
}

func (p *problems) text(r record, key, label string, max int, required bool) (string, bool) {
	s := r.get(key)
	switch {
	case s == "" && required:
		p.problemf(r.line, label, "The %s is empty.", label)
		return "", false
	case len([]rune(s)) > max:
		p.problemf(r.line, label, "The %s is %d characters long; the most is %d.", label, len([]rune(s)), max)
		return "", false
	case strings.ContainsAny(s, "\x00\r\n\t") && key != "description":
		p.problemf(r.line, label, "The %s holds a line break or tab; write it on one line.", label)
		return "", false
	}
	// The shop's one rule for free text (package text), as every other field has it: no
	// control characters, no zero-width or text-direction characters (a name that reads
	// "evil" shown as "live" on every page and invoice), NFC; a description keeps its
	// line breaks.
	clean, err := text.Field{Name: key, Label: label, Max: max, Lines: key == "description"}.Clean(s)
	if refused, ok := err.(*text.Error); ok {
		p.problemf(r.line, label, "The %s %s.", label, refused.Problem)
		return "", false
	}
	return clean, true
}

// Clip shortens what a file held to 40 characters for a problem's sentence.
func Clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// ParsePrice reads a price in pounds as people type it ("1.25", "£1.25", "0.19", "1,250")
// into pence.
func ParsePrice(s string) (int64, bool) {
	m := priceRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	pounds, err := strconv.ParseInt(strings.ReplaceAll(m[1], ",", ""), 10, 64)
	if err != nil || pounds > maxPricePence/100 {
		return 0, false
	}
	pence := int64(0)
	if m[2] != "" {
		pence, _ = strconv.ParseInt(m[2], 10, 64)
		if len(m[2]) == 1 {
			pence *= 10
		}
	}
	return pounds*100 + pence, true
}

// FormatPrice writes pence as the import reads it: "1.25".
func FormatPrice(pence int64) string { return fmt.Sprintf("%d.%02d", pence/100, pence%100) }

// gtinValid checks a GTIN-8, UPC-A (12), EAN-13 or GTIN-14 check digit.
func gtinValid(s string) bool {
	sum := 0
	for i := len(s) - 2; i >= 0; i-- {
		d := int(s[i] - '0')
		if (len(s)-2-i)%2 == 0 {
			d *= 3
		}
		sum += d
	}
	return (10-sum%10)%10 == int(s[len(s)-1]-'0')
}

// categoryIndex finds categories by id or slug.
type categoryIndex struct {
	byID   map[int]catalogue.Category
	bySlug map[string][]catalogue.Category
}

func newCategoryIndex(cats []catalogue.Category) categoryIndex {
	ix := categoryIndex{byID: map[int]catalogue.Category{}, bySlug: map[string][]catalogue.Category{}}
	for _, c := range cats {
		ix.byID[c.ID] = c
		ix.bySlug[c.Slug] = append(ix.bySlug[c.Slug], c)
	}
	return ix
}

// productRows validates every product record against the categories (the table's and
// the structure file's).
func productRows(file string, recs []record, cats categoryIndex, ranges map[string]bool) ([]Row, problems) {
	p := problems{file: file}
	rows := make([]Row, 0, len(recs))
	firstLine := map[string]int{}
	for _, r := range recs {
		ok := true
		row := Row{Line: r.line}
		sku := strings.ToUpper(r.get("sku"))
		switch {
		case sku == "":
			p.problemf(r.line, "SKU", "The SKU is empty.")
			ok = false
		case !catalogue.ValidSKU(sku):
			p.problemf(r.line, "SKU", "The SKU must be letters, digits and hyphens, at most %d, starting with a letter or digit (found %q).", maxSKU, Clip(r.get("sku")))
			ok = false
		case firstLine[sku] != 0:
			p.problemf(r.line, "SKU", "The SKU %s is already on line %d.", sku, firstLine[sku])
			ok = false
		default:
			firstLine[sku] = r.line
		}
		row.SKU = sku
		var good bool
		if row.Name, good = p.text(r, "name", "name", maxName, true); !good {
			ok = false
		}
		if row.Description, good = p.text(r, "description", "description", maxDescription, false); !good {
			ok = false
		}
		// Category by numeric id or by slug; the range, when given, must be the category's.
		cell := r.get("category")
		var cat catalogue.Category
		switch id, err := strconv.Atoi(cell); {
		case cell == "":
			p.problemf(r.line, "category", "The category is empty; give the category's slug or numeric id.")
			ok = false
		case err == nil:
			c, found := cats.byID[id]
			if !found {
				p.problemf(r.line, "category", "There is no category with id %d.", id)
				ok = false
			}
			cat = c
		default:
			switch list := cats.bySlug[strings.ToLower(cell)]; len(list) {
			case 0:
				p.problemf(r.line, "category", "There is no category with slug %q.", Clip(cell))
				ok = false
			case 1:
				cat = list[0]
			default:
				p.problemf(r.line, "category", "The category %q could be any of %d categories with that slug; give the numeric id instead.", cell, len(list))
				ok = false
			}
		}
		row.CategoryID = cat.ID
		row.Range = cat.RangeURLText
		if rg := strings.ToLower(r.get("range")); rg != "" && cat.ID != 0 && rg != cat.RangeURLText {
			if !ranges[rg] {
				p.problemf(r.line, "range", "There is no range %q.", Clip(rg))
			} else {
				p.problemf(r.line, "range", "The range is %s, but category %s (%d) belongs to range %s.", rg, cat.Name, cat.ID, cat.RangeURLText)
			}
			ok = false
		}
		if row.PackSize, good = p.wholeNumber(r, "pack_size", "pack size", 1, maxPackSize, false); !good {
			ok = false
		}
		if s := r.get("unit_price"); s == "" {
			p.problemf(r.line, "unit price", "The unit price is empty; write the trade price of one unit in pounds ex VAT, such as 1.25.")
			ok = false
		} else if pence, good := ParsePrice(s); !good || pence == 0 {
			p.problemf(r.line, "unit price", "The unit price must be an amount in pounds ex VAT with at most 2 decimals, from 0.01 to %s, such as 1.25 (found %q).", FormatPrice(maxPricePence), Clip(s))
			ok = false
		} else {
			row.UnitPrice = pence
		}
		vat := strings.TrimSuffix(r.get("vat_rate"), "%")
		if n, err := strconv.Atoi(strings.TrimSpace(vat)); err != nil || !vatRates[n] {
			p.problemf(r.line, "VAT rate", "The VAT rate must be 20, 5 or 0 (a percentage; found %q).", Clip(r.get("vat_rate")))
			ok = false
		} else {
			row.VATRate = n
		}
		if r.get("stock") != "" {
			n, good := p.wholeNumber(r, "stock", "stock", 0, maxStock, false)
			if !good {
				ok = false
			}
			row.Stock = &n
		}
		st, known := statusOf[strings.ToLower(r.get("status"))]
		if !known {
			p.problemf(r.line, "status", "The status must be active or discontinued (found %q).", Clip(r.get("status")))
			ok = false
		}
		row.Status = st
		row.Image = r.get("image")
		if strings.HasPrefix(row.Image, "/media/") && !mediaRE.MatchString(row.Image) {
			p.problemf(r.line, "image", "The image %q is not a large picture this shop published (/media/…-l.webp); give a file name to load a new one.", Clip(row.Image))
			ok = false
		}
		if row.SortOrder, good = p.wholeNumber(r, "sort_order", "sort order", 1, maxSortOrder, true); !good {
			ok = false
		}
		if b := strings.ReplaceAll(r.get("barcode"), " ", ""); b != "" {
			if !barcodeRE.MatchString(b) || !gtinValid(b) {
				p.problemf(r.line, "barcode", "The barcode must be a GTIN (8, 12, 13 or 14 digits with a correct check digit; found %q).", Clip(r.get("barcode")))
				ok = false
			}
			row.Barcode = b
		}
		_, hasRRP := r.cells["rrp"]
		_, hasBreaks := r.cells["breaks"]
		row.KeepRRP, row.KeepBreaks = !hasRRP, !hasBreaks
		if s := r.get("rrp"); s != "" {
			if pence, good := ParsePrice(s); !good || pence == 0 || pence > maxPricePence {
				p.problemf(r.line, "RRP", "The RRP must be the shelf price of one unit in pounds inc VAT with at most 2 decimals, from 0.01 to %s, such as 2.49 (found %q).", FormatPrice(maxPricePence), Clip(s))
				ok = false
			} else {
				row.RRP = pence
			}
		}
		if l, err := ParseBreaks(r.get("breaks"), row.UnitPrice, true); err != nil {
			p.problem(r.line, "breaks", err.Error())
			ok = false
		} else {
			row.Breaks = l
		}
		if f, keep, good := p.forwardCells(r); !good {
			ok = false
		} else {
			row.Forward, row.KeepForward = f, keep
		}
		if f, keep, good := p.facetCells(r); !good {
			ok = false
		} else {
			row.Facets, row.KeepFacets = f, keep
		}
		if row.Published, good = p.publishedCell(r); !good {
			ok = false
		}
		if ok {
			rows = append(rows, row)
		}
	}
	if len(recs) == 0 && p.count == 0 {
		p.problemf(0, "", "The file holds no product rows.")
	}
	return rows, p
}

// structureRows validates the ranges and categories file. Known are the table's ranges,
// so a category may belong to a range the file does not list.
func structureRows(file string, recs []record, tableRanges map[string]bool) ([]catalogue.Range, []catalogue.Category, problems) {
	p := problems{file: file}
	var ranges []catalogue.Range
	var cats []catalogue.Category
	rangeLine := map[string]int{}
	catLine := map[int]int{}
	for _, r := range recs {
		if t := strings.ToLower(r.get("type")); t == "range" {
			slug := strings.ToLower(r.get("slug"))
			if !rangeRE.MatchString(slug) {
				p.problemf(r.line, "slug", "The slug of a range must be 1 to 64 lower-case letters, digits, hyphens or underscores (found %q).", Clip(r.get("slug")))
				continue
			}
			if l := rangeLine[slug]; l != 0 {
				p.problemf(r.line, "slug", "The range slug %s is already on line %d.", slug, l)
				continue
			}
			rangeLine[slug] = r.line
		}
	}
	for _, r := range recs {
		order, good := p.wholeNumber(r, "sort_order", "sort order", 1, maxSortOrder, true)
		name, nameOK := p.text(r, "name", "name", 80, true)
		switch t := strings.ToLower(r.get("type")); t {
		case "range":
			desc, descOK := p.text(r, "description", "description", 1000, false)
			slug := strings.ToLower(r.get("slug"))
			if rangeLine[slug] != r.line || !good || !nameOK || !descOK {
				continue
			}
			ranges = append(ranges, catalogue.Range{URLText: slug, Name: name, Description: desc, Order: order})
		case "category":
			id, idOK := p.wholeNumber(r, "id", "id", 1, maxCategoryID, false)
			if idOK {
				if l := catLine[id]; l != 0 {
					p.problemf(r.line, "id", "The category id %d is already on line %d.", id, l)
					idOK = false
				} else {
					catLine[id] = r.line
				}
			}
			slug := strings.ToLower(r.get("slug"))
			if slug == "" {
				slug = catalogue.Slugify(name)
			}
			slugOK := slugRE.MatchString(slug) && len(slug) <= 64
			if !slugOK {
				p.problemf(r.line, "slug", "The slug of a category must be lower-case words of letters and digits joined by hyphens, at most 64 characters (found %q).", Clip(r.get("slug")))
			}
			rg := strings.ToLower(r.get("range"))
			rangeOK := rangeLine[rg] != 0 || tableRanges[rg]
			if !rangeOK {
				if rg == "" {
					p.problemf(r.line, "range", "The range is empty; give the slug of the range the category belongs to.")
				} else {
					p.problemf(r.line, "range", "There is no range %q in this file or the shop.", Clip(rg))
				}
			}
			group, groupOK := p.text(r, "group", "menu group", maxGroup, true)
			if !good || !nameOK || !idOK || !slugOK || !rangeOK || !groupOK {
				continue
			}
			cats = append(cats, catalogue.Category{ID: id, Slug: slug, Name: name, Group: group, RangeURLText: rg, Order: order})
		default:
			p.problemf(r.line, "type", "The type must be range or category (found %q).", Clip(r.get("type")))
		}
	}
	return ranges, cats, p
}
