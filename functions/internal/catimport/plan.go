package catimport

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
)

// Input is what an import is asked to do: the products file, optionally the ranges and
// categories file, and whether the products file is the whole catalogue (Full: a
// product missing from it is discontinued).
type Input struct {
	ProductsName  string
	Products      []byte
	StructureName string
	Structure     []byte
	Full          bool
	// Today is the London date (ISO) a new product the file gives no published date is
	// published on; "" for the day the import runs (Apply's Now, or the clock).
	Today string
	// Images turns an image cell naming a file into the product's published pictures;
	// nil refuses every such cell (no pictures were given).
	Images ImageResolver
}

// ImageResolver publishes (or, on a dry run, only checks) the picture an image cell
// names. An error wrapping *media.Problem is the picture's fault and is reported on the
// row; any other error stops the import.
type ImageResolver func(ctx context.Context, cell string) (media.Images, error)

// Store is what an import reads and writes (*store.Store).
type Store interface {
	CatalogueForImport(ctx context.Context) ([]catalogue.Range, []catalogue.Category, []store.ImportProduct, error)
	PutStructure(ctx context.Context, ranges []catalogue.Range, cats []catalogue.Category) error
	PutNewProducts(ctx context.Context, ps []catalogue.Product, job string, progress func(done int)) error
	UpdateProducts(ctx context.Context, ups []store.ProductUpdate, job string, progress func(done int)) error
	LockImport(ctx context.Context, job, by string, now time.Time, lease time.Duration) error
	UnlockImport(ctx context.Context, job string) error
	RecordImport(ctx context.Context, e orders.AuditEntry) error
}

// FieldChange is one field of a product that an import changes.
type FieldChange struct {
	Field  string `json:"field"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// The kinds of change.
const (
	KindNew          = "new"
	KindChanged      = "changed"
	KindDiscontinued = "discontinued"
)

// Change is what an import does to one product.
type Change struct {
	Line   int           `json:"line,omitempty"` // 0 for a product discontinued because the file leaves it out
	SKU    string        `json:"sku"`
	Name   string        `json:"name"`
	Kind   string        `json:"kind"`
	Fields []FieldChange `json:"fields,omitempty"`
}

// Summary counts an import's changes.
type Summary struct {
	Rows              int `json:"rows"`
	New               int `json:"new"`
	Changed           int `json:"changed"`
	Discontinued      int `json:"discontinued"`
	Unchanged         int `json:"unchanged"`
	NewRanges         int `json:"newRanges"`
	ChangedRanges     int `json:"changedRanges"`
	NewCategories     int `json:"newCategories"`
	ChangedCategories int `json:"changedCategories"`
}

// Nothing reports whether applying would change nothing shown.
func (s Summary) Nothing() bool {
	return s.New+s.Changed+s.Discontinued+s.NewRanges+s.ChangedRanges+s.NewCategories+s.ChangedCategories == 0
}

// firstChanges is how many changes a plan lists.
const firstChanges = 50

// Plan is the difference between the input and the table.
type Plan struct {
	// Job names the import: a hash of everything it writes, so the same file (with the
	// same pictures and options) is the same job.
	Job string `json:"job"`
	Summary
	Full  bool     `json:"full"`
	First []Change `json:"first"`

	ranges  []catalogue.Range
	cats    []catalogue.Category
	created []catalogue.Product
	updates []store.ProductUpdate
}

// Invalid is an input with problems: nothing was written.
type Invalid struct {
	Problems []Problem
	Count    int // how many there were (Problems lists at most maxProblems)
}

func (e *Invalid) Error() string {
	rows := "problem"
	if e.Count != 1 {
		rows = "problems"
	}
	return fmt.Sprintf("The files have %d %s, so nothing was written: correct them and check the files again.", e.Count, rows)
}

// Check validates the input and works out its difference against the table. An input
// with problems answers *Invalid.
func Check(ctx context.Context, st Store, in Input) (*Plan, error) {
	ranges, cats, products, err := st.CatalogueForImport(ctx)
	if err != nil {
		return nil, err
	}
	if in.Today == "" {
		in.Today = catalogue.LondonDate(time.Now())
	}
	return plan(ctx, in, ranges, cats, products)
}

func plan(ctx context.Context, in Input, tRanges []catalogue.Range, tCats []catalogue.Category, tProducts []store.ImportProduct) (*Plan, error) {
	bad := &Invalid{}
	collect := func(p problems) {
		bad.Count += p.count
		bad.Problems = append(bad.Problems, p.list...)
	}
	rangeSet := map[string]bool{}
	for _, r := range tRanges {
		rangeSet[r.URLText] = true
	}

	// Ranges and categories: the file's over the table's.
	var fRanges []catalogue.Range
	var fCats []catalogue.Category
	if len(in.Structure) > 0 {
		recs, ps := readRecords(in.StructureName, in.Structure, structureColumns)
		if len(ps) > 0 {
			return nil, &Invalid{Problems: ps, Count: len(ps)}
		}
		var p problems
		fRanges, fCats, p = structureRows(in.StructureName, recs, rangeSet)
		collect(p)
	}
	for _, r := range fRanges {
		rangeSet[r.URLText] = true
	}
	mergedCats := map[int]catalogue.Category{}
	for _, c := range tCats {
		mergedCats[c.ID] = c
	}
	for _, c := range fCats {
		mergedCats[c.ID] = c
	}
	catIx := newCategoryIndex(slices.Collect(maps.Values(mergedCats)))

	recs, ps := readRecords(in.ProductsName, in.Products, productColumns)
	if len(ps) > 0 {
		bad.Problems = append(bad.Problems, ps...)
		bad.Count += len(ps)
		return nil, bad
	}
	rows, p := productRows(in.ProductsName, recs, catIx, rangeSet)
	collect(p)

	// Pictures: each distinct file once, a few at a time.
	pictures, ir := resolveImages(ctx, in, rows)
	if ir.err != nil {
		return nil, ir.err
	}
	collect(ir.problems)
	collect(keptBreaksProblems(in.ProductsName, rows, tProducts))
	collect(keptFacetsProblems(in.ProductsName, rows, tProducts))
	if bad.Count > 0 {
		slices.SortStableFunc(bad.Problems, func(a, b Problem) int {
			return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
		})
		return nil, bad
	}

	pl := &Plan{Full: in.Full}
	pl.Rows = len(rows)
	pl.ranges, pl.NewRanges, pl.ChangedRanges = changes(tRanges, fRanges,
		func(r catalogue.Range) string { return r.URLText }, func(r *catalogue.Range) *int { return &r.Order })
	pl.cats, pl.NewCategories, pl.ChangedCategories = changes(tCats, fCats,
		func(c catalogue.Category) int { return c.ID }, func(c *catalogue.Category) *int { return &c.Order })
	pl.Job = JobOf(in)

	bySKU := make(map[string]store.ImportProduct, len(tProducts))
	for _, tp := range tProducts {
		bySKU[tp.SKU] = tp
	}
	var changes []Change
	seen := make(map[string]bool, len(rows))
	for _, row := range rows {
		seen[row.SKU] = true
		old, exists := bySKU[row.SKU]
		after := productOf(row, pictures[row.Image], old.Product, exists)
		if !exists {
			if after.Published == "" {
				after.Published = in.Today
			}
			after.Stock = 0
			if row.Stock != nil {
				after.Stock = *row.Stock
			}
			pl.created = append(pl.created, after)
			pl.New++
			changes = append(changes, Change{Line: row.Line, SKU: row.SKU, Name: row.Name, Kind: KindNew})
			continue
		}
		fields := diff(old.Product, after)
		setStock := row.Stock != nil && old.StockJob != pl.Job
		delta := 0
		if setStock && *row.Stock != old.Stock {
			delta = *row.Stock - old.Stock
			fields = append(fields, FieldChange{"stock", strconv.Itoa(old.Stock), strconv.Itoa(*row.Stock)})
		}
		if len(fields) == 0 {
			pl.Unchanged++
			if setStock { // the figure is the table's: record that this import has set it
				pl.updates = append(pl.updates, store.ProductUpdate{After: after, MarkStock: true, StockTo: *row.Stock})
			}
			continue
		}
		kind := KindChanged
		if after.Discontinued() && !old.Discontinued() {
			kind = KindDiscontinued
			pl.Discontinued++
		} else {
			pl.Changed++
		}
		up := store.ProductUpdate{After: after, MarkStock: setStock, StockDelta: delta, Audit: auditOf(fields)}
		if setStock {
			up.StockTo = *row.Stock
		}
		pl.updates = append(pl.updates, up)
		changes = append(changes, Change{Line: row.Line, SKU: row.SKU, Name: row.Name, Kind: kind, Fields: fields})
	}
	if in.Full {
		missing := make([]store.ImportProduct, 0)
		for _, tp := range tProducts {
			if !seen[tp.SKU] && !tp.Discontinued() {
				missing = append(missing, tp)
			}
		}
		slices.SortFunc(missing, func(a, b store.ImportProduct) int { return cmp.Compare(a.SKU, b.SKU) })
		for _, tp := range missing {
			after := tp.Product
			after.Status = catalogue.StatusDiscontinued
			fields := []FieldChange{{"status", statusText(tp.Status), catalogue.StatusDiscontinued}}
			pl.updates = append(pl.updates, store.ProductUpdate{After: after, Audit: auditOf(fields)})
			pl.Discontinued++
			changes = append(changes, Change{SKU: tp.SKU, Name: tp.Name, Kind: KindDiscontinued, Fields: fields})
		}
	}
	pl.First = changes[:min(len(changes), firstChanges)]
	if pl.First == nil {
		pl.First = []Change{}
	}
	return pl, nil
}

// keptBreaksProblems finds the rows that keep a product's breaks (no breaks cell) while
// setting a unit price those breaks are no longer cheaper than.
func keptBreaksProblems(file string, rows []Row, tProducts []store.ImportProduct) problems {
	p := problems{file: file}
	breaks := map[string]pricing.Ladder{}
	for _, tp := range tProducts {
		if len(tp.Breaks) > 0 {
			breaks[tp.SKU] = tp.Breaks
		}
	}
	for _, row := range rows {
		if l := breaks[row.SKU]; row.KeepBreaks && len(l) > 0 && l.Check(row.UnitPrice, true) != "" {
			p.problemf(row.Line, "unit price", "The unit price %s is not above the product's breaks (%s), which this file leaves as they are; give the breaks in a breaks column too, or an empty breaks cell to remove them.",
				FormatPrice(row.UnitPrice), FormatBreaks(l))
		}
	}
	return p
}

// productOf is the product a row describes; old is the table's (exists) for what the
// row leaves as it is: the stock and, with an empty image cell, the pictures.
func productOf(row Row, pic media.Images, old catalogue.Product, exists bool) catalogue.Product {
	p := catalogue.Product{SKU: row.SKU, Slug: catalogue.Slugify(row.Name) + "-" + strings.ToLower(row.SKU), Name: row.Name,
		Description: row.Description, CategoryID: row.CategoryID, RangeURLText: row.Range, PackSize: row.PackSize,
		UnitPrice: row.UnitPrice, VATRate: row.VATRate, Stock: old.Stock, Status: row.Status, SortOrder: row.SortOrder,
		Barcode: row.Barcode, RRP: row.RRP, Breaks: row.Breaks}
	if row.KeepRRP {
		p.RRP = old.RRP
	}
	if row.KeepBreaks {
		p.Breaks = old.Breaks
	}
	p.Forward = row.Forward
	if row.KeepForward {
		p.Forward = old.Forward
	}
	p = withFacets(p, row, old)
	switch {
	case row.Image == "" && exists:
		p.SmallImg, p.LargeImg = old.SmallImg, old.LargeImg
	case strings.HasPrefix(row.Image, "/media/"):
		p.LargeImg = row.Image
		ext := row.Image[strings.LastIndexByte(row.Image, '.'):]
		p.SmallImg = strings.TrimSuffix(row.Image, "-l"+ext) + "-s" + ext
	default:
		p.SmallImg, p.LargeImg = pic.Small, pic.Large
	}
	return p
}

func statusText(s string) string {
	if s == "" {
		return catalogue.StatusActive
	}
	return s
}

// diff lists the fields a row changes (stock apart).
func diff(a, b catalogue.Product) []FieldChange {
	var out []FieldChange
	add := func(field, x, y string) {
		if x != y {
			out = append(out, FieldChange{field, x, y})
		}
	}
	add("name", a.Name, b.Name)
	add("description", a.Description, b.Description)
	add("category", strconv.Itoa(a.CategoryID), strconv.Itoa(b.CategoryID))
	add("pack size", strconv.Itoa(a.PackSize), strconv.Itoa(b.PackSize))
	add("unit price", FormatPrice(a.UnitPrice), FormatPrice(b.UnitPrice))
	add("VAT rate", strconv.Itoa(a.VATRate), strconv.Itoa(b.VATRate))
	add("status", statusText(a.Status), statusText(b.Status))
	add("image", a.LargeImg, b.LargeImg)
	add("sort order", num(a.SortOrder), num(b.SortOrder))
	add("barcode", a.Barcode, b.Barcode)
	add("RRP", optionalPrice(a.RRP), optionalPrice(b.RRP))
	add("breaks", FormatBreaks(a.Breaks), FormatBreaks(b.Breaks))
	add("forward", catalogue.ForwardText(a.Forward), catalogue.ForwardText(b.Forward))
	for _, d := range catalogue.FacetDefs() {
		add(d.Key, catalogue.FormatFacetCell(a.Facets.Get(d.Key)), catalogue.FormatFacetCell(b.Facets.Get(d.Key)))
	}
	add("published", a.Published, b.Published)
	return out
}

func auditOf(fields []FieldChange) *orders.AuditEntry {
	e := &orders.AuditEntry{Action: "import", Before: map[string]any{}, After: map[string]any{}}
	for _, f := range fields {
		e.Before[f.Field] = f.Before
		e.After[f.Field] = f.After
	}
	return e
}

// changes answers the file's items (ranges or categories, by key) that are new or differ
// from the table's, with the table's order kept (or the next after the last) where the
// file gives none; order points at an item's order.
func changes[T comparable, K comparable](table, file []T, key func(T) K, order func(*T) *int) (out []T, created, changed int) {
	byKey := map[K]T{}
	next := 0
	for _, it := range table {
		byKey[key(it)] = it
		next = max(next, *order(&it))
	}
	for _, it := range file {
		old, exists := byKey[key(it)]
		if o := order(&it); *o == 0 {
			if exists {
				*o = *order(&old)
			} else {
				next++
				*o = next
			}
		}
		switch {
		case !exists:
			created++
		case old != it:
			changed++
		default:
			continue
		}
		out = append(out, it)
	}
	return out, created, changed
}

// JobOf names an import: a hash of its files and options, so running the same files
// again (after a crash, or twice) is the same job, whose stock figures are applied once.
func JobOf(in Input) string {
	h := sha256.New()
	fmt.Fprintf(h, "full=%t\x00%d\x00", in.Full, len(in.Products))
	h.Write(in.Products)
	h.Write([]byte{0})
	h.Write(in.Structure)
	return hex.EncodeToString(h.Sum(nil))[:24]
}

type imageResult struct {
	problems problems
	err      error
}

// imageWorkers is how many pictures are converted at once.
const imageWorkers = 4

// resolveImages publishes (or checks) each distinct picture file the rows name.
func resolveImages(ctx context.Context, in Input, rows []Row) (map[string]media.Images, imageResult) {
	res := imageResult{problems: problems{file: in.ProductsName}}
	firstLine := map[string]int{}
	var cells []string
	for _, r := range rows {
		if r.Image == "" || strings.HasPrefix(r.Image, "/media/") {
			continue
		}
		if _, ok := firstLine[r.Image]; !ok {
			firstLine[r.Image] = r.Line
			cells = append(cells, r.Image)
		}
	}
	out := make(map[string]media.Images, len(cells))
	if len(cells) == 0 {
		return out, res
	}
	if in.Images == nil {
		for _, c := range cells {
			res.problems.problemf(firstLine[c], "image", "The image names the picture %q but no pictures were given (--images DIR, or upload them with the file).", Clip(c))
		}
		return out, res
	}
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	for range imageWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				imgs, err := in.Images(ctx, c)
				mu.Lock()
				var pr *media.Problem
				switch {
				case err == nil:
					out[c] = imgs
				case errors.As(err, &pr):
					res.problems.problemf(firstLine[c], "image", "The picture %q %s.", Clip(c), pr.Msg)
				case res.err == nil:
					res.err = fmt.Errorf("picture %s: %w", c, err)
				}
				mu.Unlock()
			}
		}()
	}
	for _, c := range cells {
		work <- c
	}
	close(work)
	wg.Wait()
	return out, res
}
