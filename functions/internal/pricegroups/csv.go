package pricegroups

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
)

// The price group file's columns (docs/pricing.md "Price groups"), in the order the
// export writes them. A header names them loosely ("Applies to", "applies-to"); a
// column the file leaves out is empty on every row.
var columns = []struct {
	key, label string
	required   bool
}{
	{"applies_to", "applies to", true},
	{"code", "code", true},
	{"price", "price", false},
	{"discount_percent", "discount percent", false},
	{"breaks", "breaks", false},
}

// What a row applies to.
const (
	AppliesProduct  = "product"
	AppliesCategory = "category"
	AppliesRange    = "range"
)

// MaxProblems is how many problems a check lists; Result.ProblemCount says how many there were.
const MaxProblems = 200

// maxFileBytes bounds a price group file: the rules it can make are far smaller.
const maxFileBytes = 8 << 20

// Problem is one thing wrong with a price group file: its line (1 is the header; 0 the
// whole file), its column's label, and a whole sentence saying what is wrong.
type Problem struct {
	Line    int
	Column  string
	Message string
}

// problems collects a file's problems, listing at most MaxProblems.
type problems struct {
	list  []Problem
	count int
}

func (p *problems) add(line int, col, format string, args ...any) {
	p.count++
	if len(p.list) < MaxProblems {
		p.list = append(p.list, Problem{Line: line, Column: col, Message: fmt.Sprintf(format, args...)})
	}
}

// Catalogue is what a price group file is checked against: every product by SKU (with
// its list price), category by id and range by its url text.
type Catalogue struct {
	Products   map[string]catalogue.Product
	Categories map[int]catalogue.Category
	Ranges     map[string]bool
	bySlug     map[string][]catalogue.Category
}

// NewCatalogue indexes the catalogue as the import reads it (store.CatalogueForImport).
func NewCatalogue(ranges []catalogue.Range, cats []catalogue.Category, products []store.ImportProduct) Catalogue {
	c := Catalogue{Products: make(map[string]catalogue.Product, len(products)), Categories: map[int]catalogue.Category{},
		Ranges: map[string]bool{}, bySlug: map[string][]catalogue.Category{}}
	for _, p := range products {
		c.Products[p.SKU] = p.Product
	}
	for _, cat := range cats {
		c.Categories[cat.ID] = cat
		c.bySlug[cat.Slug] = append(c.bySlug[cat.Slug], cat)
	}
	for _, r := range ranges {
		c.Ranges[r.URLText] = true
	}
	return c
}

// Read reads a price group file (CSV with a header row, a spreadsheet's BOM allowed) and
// checks each row against cat: the rules it makes, or its problems (at most
// MaxProblems listed, and how many there were). Rules are made only from a file with
// no problems.
func Read(data []byte, cat Catalogue) (pricing.Rules, []Problem, int) {
	var p problems
	recs := readCSV(data, &p)
	if p.count > 0 {
		return pricing.Rules{}, p.list, p.count
	}
	rules := pricing.Rules{Prices: map[string]int64{}, Discounts: map[string]int{}, Breaks: map[string]pricing.Ladder{}}
	first := map[string]int{}
	for _, r := range recs {
		checkRow(r, cat, &rules, first, &p)
	}
	if p.count == 0 {
		if n := store.RulesSize(rules); n > store.MaxPriceGroupRules {
			p.add(0, "", "The group's rules come to %d bytes; the most a group may hold is %d (about 5,000 rows): split it into two groups or leave out rows.", n, store.MaxPriceGroupRules)
		}
	}
	if p.count > 0 {
		return pricing.Rules{}, p.list, p.count
	}
	return tidy(rules), nil, 0
}

// tidy leaves out the empty maps, so that rules with nothing read as the stored "{}".
func tidy(r pricing.Rules) pricing.Rules {
	if len(r.Prices) == 0 {
		r.Prices = nil
	}
	if len(r.Discounts) == 0 {
		r.Discounts = nil
	}
	if len(r.Breaks) == 0 {
		r.Breaks = nil
	}
	return r
}

// record is one data row: its line and its cells by column key.
type record struct {
	line  int
	cells map[string]string
}

func (r record) get(key string) string { return catimport.UnsafeCell(strings.TrimSpace(r.cells[key])) }

func readCSV(data []byte, p *problems) []record {
	if len(data) > maxFileBytes {
		p.add(0, "", "The file is %.1f MB; the most a price group file may be is %d MB.", float64(len(data))/(1<<20), maxFileBytes>>20)
		return nil
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM, as spreadsheets write
	if len(bytes.TrimSpace(data)) == 0 {
		p.add(0, "", "The file is empty; it needs a header row (applies_to,code,price,discount_percent,breaks).")
		return nil
	}
	if !utf8.Valid(data) {
		p.add(0, "", "The file is not UTF-8 text; save it as \"CSV UTF-8\" and choose it again.")
		return nil
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		p.add(1, "", "The header row cannot be read: %s.", catimport.CSVReason(err))
		return nil
	}
	known := map[string]bool{}
	var names []string
	for _, c := range columns {
		known[c.key] = true
		names = append(names, c.key)
	}
	has := map[string]bool{}
	keys := make([]string, len(header))
	for i, h := range header {
		k := catimport.NormKey(h)
		keys[i] = k
		switch {
		case k == "":
		case !known[k]:
			p.add(1, strings.TrimSpace(h), "The column %q is not one a price group file has (%s).", catimport.Clip(strings.TrimSpace(h)), strings.Join(names, ", "))
		case has[k]:
			p.add(1, strings.TrimSpace(h), "The column %q appears twice in the header.", catimport.Clip(strings.TrimSpace(h)))
		}
		has[k] = true
	}
	for _, c := range columns {
		if c.required && !has[c.key] {
			p.add(1, c.label, "The %s column is missing from the header.", c.label)
		}
	}
	if p.count > 0 {
		return nil
	}
	var out []record
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
			}
			p.add(line, "", "This line cannot be read as CSV: %s.", catimport.CSVReason(err))
			return nil
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		if len(rec) > len(keys) {
			p.add(line, "", "This line has %d cells but the header has %d columns.", len(rec), len(keys))
			continue
		}
		cells := make(map[string]string, len(rec))
		for i, v := range rec {
			if keys[i] != "" {
				cells[keys[i]] = v
			}
		}
		out = append(out, record{line: line, cells: cells})
	}
}

// checkRow checks one row against the catalogue and adds its rules to rules; first
// holds the line each key was first given on.
func checkRow(r record, cat Catalogue, rules *pricing.Rules, first map[string]int, p *problems) {
	before := p.count
	applies, code := strings.ToLower(r.get("applies_to")), r.get("code")
	var key string
	var product *catalogue.Product
	switch applies {
	case AppliesProduct:
		prod, ok := cat.Products[code]
		if !ok {
			if code == "" {
				p.add(r.line, "code", "The code is empty; give the product's SKU.")
			} else {
				p.add(r.line, "code", "There is no product with SKU %q.", catimport.Clip(code))
			}
			return
		}
		product, key = &prod, "product:"+code
	case AppliesCategory:
		c, ok := cat.category(code)
		if !ok {
			switch list := cat.bySlug[strings.ToLower(code)]; {
			case code == "":
				p.add(r.line, "code", "The code is empty; give the category's numeric id or slug.")
			case len(list) > 1:
				p.add(r.line, "code", "The category %q could be any of %d categories with that slug; give the numeric id instead.", catimport.Clip(code), len(list))
			default:
				p.add(r.line, "code", "There is no category %q.", catimport.Clip(code))
			}
			return
		}
		key = "category:" + strconv.Itoa(c.ID)
	case AppliesRange:
		if !cat.Ranges[strings.ToLower(code)] {
			if code == "" {
				p.add(r.line, "code", "The code is empty; give the range's slug.")
			} else {
				p.add(r.line, "code", "There is no range %q.", catimport.Clip(code))
			}
			return
		}
		key = "range:" + strings.ToLower(code)
	default:
		p.add(r.line, "applies to", "The applies to must be product, category or range (found %q).", catimport.Clip(r.get("applies_to")))
		return
	}
	if line, dup := first[key]; dup {
		p.add(r.line, "code", "The %s %s is on line %d already; give each one row.", applies, catimport.Clip(code), line)
		return
	}
	first[key] = r.line

	price, discount, breaks := r.get("price"), r.get("discount_percent"), r.get("breaks")
	if price == "" && discount == "" && breaks == "" {
		p.add(r.line, "", "The row sets no price, discount percent or breaks; give at least one, or leave the row out.")
		return
	}
	base := int64(0)
	if product != nil {
		base = product.UnitPrice
	}
	if price != "" {
		pence, ok := catimport.ParsePrice(price)
		switch {
		case product == nil:
			p.add(r.line, "price", "A price is only for a product; give a %s a discount percent or percent breaks instead.", applies)
		case !ok || pence < 1:
			p.add(r.line, "price", "The price must be an amount in pounds ex VAT with at most 2 decimals, such as 0.80 (found %q).", catimport.Clip(price))
		case pence >= product.UnitPrice:
			p.add(r.line, "price", "The price %s must be below the list price %s.", catimport.FormatPrice(pence), catimport.FormatPrice(product.UnitPrice))
		default:
			rules.Prices[key], base = pence, pence
		}
	}
	if discount != "" {
		n, err := strconv.Atoi(strings.TrimSuffix(discount, "%"))
		if err != nil || n < 1 || n > 100 {
			p.add(r.line, "discount percent", "The discount percent must be a whole number from 1 to 100 (found %q).", catimport.Clip(discount))
		} else {
			rules.Discounts[key] = n
		}
	}
	if breaks != "" {
		// The catalogue's breaks column, read by the catalogue import's own reader: the
		// product's base here is the group's price when the row sets one.
		l, err := catimport.ParseBreaks(breaks, base, product != nil)
		if err != nil {
			p.add(r.line, "breaks", "%s", err.Error())
		} else {
			rules.Breaks[key] = l
		}
	}
	if p.count > before {
		delete(rules.Prices, key)
		delete(rules.Discounts, key)
		delete(rules.Breaks, key)
	}
}

// category finds a category by numeric id or by its slug, when only one has it.
func (c Catalogue) category(code string) (catalogue.Category, bool) {
	if id, err := strconv.Atoi(code); err == nil {
		cat, ok := c.Categories[id]
		return cat, ok
	}
	if list := c.bySlug[strings.ToLower(code)]; len(list) == 1 {
		return list[0], true
	}
	return catalogue.Category{}, false
}

// Row is one key of a group's rules, as one line of its file.
type Row struct {
	AppliesTo string
	Code      string
	Price     int64 // 0: none
	Discount  int   // 0: none
	Breaks    pricing.Ladder
}

// Rows answers rules as the rows of its file: products, then categories, then ranges,
// each by code (categories by number).
func Rows(rules pricing.Rules) []Row {
	byKey := map[string]*Row{}
	row := func(key string) *Row {
		if r, ok := byKey[key]; ok {
			return r
		}
		applies, code, _ := strings.Cut(key, ":")
		r := &Row{AppliesTo: applies, Code: code}
		byKey[key] = r
		return r
	}
	for k, v := range rules.Prices {
		row(k).Price = v
	}
	for k, v := range rules.Discounts {
		row(k).Discount = v
	}
	for k, v := range rules.Breaks {
		row(k).Breaks = v
	}
	out := make([]Row, 0, len(byKey))
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		out = append(out, *byKey[k])
	}
	order := map[string]int{AppliesProduct: 0, AppliesCategory: 1, AppliesRange: 2}
	slices.SortStableFunc(out, func(a, b Row) int {
		if c := cmp.Compare(order[a.AppliesTo], order[b.AppliesTo]); c != 0 {
			return c
		}
		if a.AppliesTo == AppliesCategory {
			x, _ := strconv.Atoi(a.Code)
			y, _ := strconv.Atoi(b.Code)
			return cmp.Compare(x, y)
		}
		return cmp.Compare(a.Code, b.Code)
	})
	return out
}

// Write writes rules as a price group file: Read takes it back to the same rules.
func Write(w io.Writer, rules pricing.Rules) error {
	cw := csv.NewWriter(w)
	header := make([]string, len(columns))
	for i, c := range columns {
		header[i] = c.key
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, r := range Rows(rules) {
		price, discount := "", ""
		if r.Price > 0 {
			price = catimport.FormatPrice(r.Price)
		}
		if r.Discount > 0 {
			discount = strconv.Itoa(r.Discount)
		}
		if err := cw.Write([]string{r.AppliesTo, catimport.SafeCell(r.Code), price, discount, catimport.FormatBreaks(r.Breaks)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Diff counts the rows rules adds, changes and removes against the group's rules now.
func Diff(now, next pricing.Rules) (added, changed, removed int) {
	was, will := map[string]Row{}, map[string]Row{}
	for _, r := range Rows(now) {
		was[r.AppliesTo+":"+r.Code] = r
	}
	for _, r := range Rows(next) {
		will[r.AppliesTo+":"+r.Code] = r
	}
	for k, r := range will {
		old, ok := was[k]
		switch {
		case !ok:
			added++
		case old.Price != r.Price || old.Discount != r.Discount || !slices.Equal(old.Breaks, r.Breaks):
			changed++
		}
	}
	for k := range was {
		if _, ok := will[k]; !ok {
			removed++
		}
	}
	return added, changed, removed
}
