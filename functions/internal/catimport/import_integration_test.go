package catimport_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

var staff = orders.Staff{UID: "staff-1", Email: "stock@example.com"}

// seeded is a table holding the seed catalogue of n products.
func seeded(t *testing.T, n int) (*store.Store, seed.Catalogue) {
	t.Helper()
	st := testenv.Store(t)
	cat, err := seed.Generate(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutCatalogue(context.Background(), cat.Ranges, cat.Categories, cat.Products, nil); err != nil {
		t.Fatal(err)
	}
	return st, cat
}

func exported(t *testing.T, st *store.Store) (products, structure []byte) {
	t.Helper()
	ranges, cats, ps, err := st.Catalogue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var p, s bytes.Buffer
	if err := catimport.WriteProducts(&p, ps); err != nil {
		t.Fatal(err)
	}
	if err := catimport.WriteStructure(&s, ranges, cats); err != nil {
		t.Fatal(err)
	}
	return p.Bytes(), s.Bytes()
}

func bySKU(t *testing.T, st *store.Store) map[string]catalogue.Product {
	t.Helper()
	_, _, ps, err := st.Catalogue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]catalogue.Product{}
	for _, p := range ps {
		if _, dup := out[p.SKU]; dup {
			t.Fatalf("product %s is in the table twice", p.SKU)
		}
		out[p.SKU] = p
	}
	return out
}

func apply(t *testing.T, st catimport.Store, in catimport.Input) *catimport.Plan {
	t.Helper()
	pl, err := catimport.Apply(context.Background(), st, in, catimport.ApplyOptions{By: staff})
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

func sameCatalogue(t *testing.T, before, after map[string]catalogue.Product) {
	t.Helper()
	if len(before) != len(after) {
		t.Fatalf("%d products before, %d after", len(before), len(after))
	}
	for sku, b := range before {
		a := after[sku]
		if b.Status == "" {
			b.Status = catalogue.StatusActive
		}
		if a.Status == "" {
			a.Status = catalogue.StatusActive
		}
		if !a.Equal(b) {
			t.Fatalf("%s changed:\n before %+v\n after  %+v", sku, b, a)
		}
	}
}

// importTrail answers how many imports the audit trail records.
func importTrail(t *testing.T, st *store.Store) int {
	t.Helper()
	list, err := st.Audit(context.Background(), store.AuditImport)
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

// TestRoundTripOfTheSeedChangesNothing: the seed exported and imported again (as the
// whole catalogue, with its ranges and categories) changes nothing, and a second time
// writes nothing at all.
func TestRoundTripOfTheSeedChangesNothing(t *testing.T) {
	t.Parallel()
	st, _ := seeded(t, 300)
	before := bySKU(t, st)
	products, structure := exported(t, st)
	in := catimport.Input{ProductsName: "catalogue.csv", Products: products, StructureName: "categories.csv", Structure: structure, Full: true}
	pl := apply(t, st, in)
	if !pl.Nothing() || pl.Unchanged != 300 || pl.Rows != 300 {
		t.Fatalf("round trip plan: %+v", pl.Summary)
	}
	sameCatalogue(t, before, bySKU(t, st))
	if n := importTrail(t, st); n != 0 {
		t.Fatalf("a round trip that changed nothing is in the imports' trail %d times", n)
	}
	pl = apply(t, st, in)
	if !pl.Nothing() {
		t.Fatalf("second run: %+v", pl.Summary)
	}
	sameCatalogue(t, before, bySKU(t, st))
}

// TestGoodFileNewProductAndPriceChange: one new product (its category by slug) and one
// price change; dry run first (nothing written), then apply, then the same file again.
func TestGoodFileNewProductAndPriceChange(t *testing.T) {
	t.Parallel()
	st, cat := seeded(t, 60)
	ctx := context.Background()
	old := cat.Products[3]
	var catSlug string
	for _, c := range cat.Categories {
		if c.ID == old.CategoryID {
			catSlug = c.Slug
		}
	}
	file := "sku,name,description,range,category,pack_size,unit_price,vat_rate,stock,status,image,sort_order,barcode\n" +
		"NEW-00001,Gold Foil Thank You Card,A new line.,," + catSlug + ",6,£0.85,20,120,active,,1,5012345678900\n" +
		fmt.Sprintf("%s,%s,%s,%s,%d,%d,%s,20,,active,%s,,\n", old.SKU, old.Name, `"`+old.Description+`"`, old.RangeURLText,
			old.CategoryID, old.PackSize, catimport.FormatPrice(old.UnitPrice+10), old.LargeImg)
	in := catimport.Input{ProductsName: "changes.csv", Products: []byte(file)}

	before := bySKU(t, st)
	pl, err := catimport.Check(ctx, st, in)
	if err != nil {
		t.Fatal(err)
	}
	if pl.New != 1 || pl.Changed != 1 || pl.Unchanged != 0 || pl.Discontinued != 0 || len(pl.First) != 2 {
		t.Fatalf("plan %+v %+v", pl.Summary, pl.First)
	}
	if f := pl.First[1].Fields; len(f) != 1 || f[0].Field != "unit price" || f[0].After != catimport.FormatPrice(old.UnitPrice+10) {
		t.Fatalf("price change reads %+v", f)
	}
	sameCatalogue(t, before, bySKU(t, st)) // the check wrote nothing

	apply(t, st, in)
	after := bySKU(t, st)
	np := after["NEW-00001"]
	if np.Name != "Gold Foil Thank You Card" || np.UnitPrice != 85 || np.PackSize != 6 || np.Stock != 120 || np.CategoryID != old.CategoryID ||
		np.RangeURLText != old.RangeURLText || np.SortOrder != 1 || np.Barcode != "5012345678900" || np.Slug != "gold-foil-thank-you-card-new-00001" ||
		np.SmallImg != "" || np.Status != catalogue.StatusActive {
		t.Fatalf("new product %+v", np)
	}
	if got := after[old.SKU]; got.UnitPrice != old.UnitPrice+10 || got.Stock != old.Stock || got.SmallImg != old.SmallImg {
		t.Fatalf("changed product %+v (was %+v)", got, old)
	}
	trail, err := st.Audit(ctx, store.AuditProduct+old.SKU)
	if err != nil || len(trail) != 1 || trail[0].By.Email != staff.Email || trail[0].After["unit price"] != catimport.FormatPrice(old.UnitPrice+10) {
		t.Fatalf("product audit %+v %v", trail, err)
	}
	if n := importTrail(t, st); n != 1 {
		t.Fatalf("imports' trail has %d entries, want 1", n)
	}

	// The same file again: nothing to do, nothing written.
	pl = apply(t, st, in)
	if !pl.Nothing() || pl.Unchanged != 2 {
		t.Fatalf("second run %+v", pl.Summary)
	}
	sameCatalogue(t, after, bySKU(t, st))
	if n := importTrail(t, st); n != 1 {
		t.Fatalf("after the second run the imports' trail has %d entries, want 1", n)
	}

	// The same rows as JSON lines read the same.
	jl := `{"sku":"NEW-00001","name":"Gold Foil Thank You Card","description":"A new line.","category":"` + catSlug +
		`","pack_size":6,"unit_price":"0.85","vat_rate":20,"stock":120,"status":"active","sort_order":1,"barcode":"5012345678900"}` + "\n"
	pl, err = catimport.Check(ctx, st, catimport.Input{ProductsName: "changes.jsonl", Products: []byte(jl)})
	if err != nil || pl.Unchanged != 1 || !pl.Nothing() {
		t.Fatalf("JSON lines: %+v %v", pl, err)
	}
}

// TestFiveKindsOfBadRowWriteNothing: each bad row is reported with its line and column,
// and nothing is written, not even the good rows.
func TestFiveKindsOfBadRowWriteNothing(t *testing.T) {
	t.Parallel()
	st, cat := seeded(t, 40)
	p := cat.Products[0]
	good := func(sku string) string {
		return fmt.Sprintf("%s,Good Card %s,,,%d,6,0.50,20,10,active,,,", sku, sku, p.CategoryID)
	}
	file := strings.Join([]string{
		"sku,name,description,range,category,pack_size,unit_price,vat_rate,stock,status,image,sort_order,barcode",
		good("OK-1"),
		fmt.Sprintf("BAD-1,Pack Card,,,%d,six,0.50,20,10,active,,,", p.CategoryID), // line 3: pack size
		fmt.Sprintf("BAD-2,Price Card,,,%d,6,1.234,20,10,active,,,", p.CategoryID), // line 4: price
		"BAD-3,Lost Card,,,no-such-category,6,0.50,20,10,active,,,",                // line 5: category
		good("OK-1"), // line 6: duplicate SKU
		fmt.Sprintf("BAD-5,Taxed Card,,,%d,6,0.50,17.5,10,active,,,", p.CategoryID),            // line 7: VAT rate
		fmt.Sprintf("BAD-6,Coded Card,,,%d,6,0.50,20,10,active,,,5012345678901", p.CategoryID), // line 8: barcode check digit
		good("OK-2"),
	}, "\n")
	before := bySKU(t, st)
	_, err := catimport.Apply(context.Background(), st, catimport.Input{ProductsName: "bad.csv", Products: []byte(file)}, catimport.ApplyOptions{By: staff})
	var bad *catimport.Invalid
	if !errors.As(err, &bad) {
		t.Fatalf("Apply answered %v, want *Invalid", err)
	}
	var got []string
	for _, pr := range bad.Problems {
		got = append(got, pr.String())
	}
	want := []string{
		`bad.csv: line 3: The pack size must be a whole number from 1 to 1000 (found "six").`,
		`bad.csv: line 4: The unit price must be an amount in pounds ex VAT with at most 2 decimals, from 0.01 to 10000.00, such as 1.25 (found "1.234").`,
		`bad.csv: line 5: There is no category with slug "no-such-category".`,
		`bad.csv: line 6: The SKU OK-1 is already on line 2.`,
		`bad.csv: line 7: The VAT rate must be 20, 5 or 0 (a percentage; found "17.5").`,
		`bad.csv: line 8: The barcode must be a GTIN (8, 12, 13 or 14 digits with a correct check digit; found "5012345678901").`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || bad.Count != 6 {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err.Error() != "The files have 6 problems, so nothing was written: correct them and check the files again." {
		t.Fatalf("error reads %q", err)
	}
	sameCatalogue(t, before, bySKU(t, st))
	if _, ok := bySKU(t, st)["OK-2"]; ok {
		t.Fatal("a good row was written although the file had bad ones")
	}
	// Nothing was written, so the lock was given up at once: another import may run.
	if err := st.LockImport(context.Background(), "another-job", "other@example.com", timeNow(), minute); err != nil {
		t.Fatalf("the refused import kept the lock: %v", err)
	}
}

// crashing is a store whose product writes stop (as a killed process would) once half
// of them are done.
type crashing struct {
	*store.Store
	after int
	done  atomic.Int64
}

var errCrash = errors.New("crash")

func (c *crashing) count(n int) error {
	if c.done.Add(int64(n)) > int64(c.after) {
		return errCrash
	}
	return nil
}

func (c *crashing) PutNewProducts(ctx context.Context, ps []catalogue.Product, job string, progress func(int)) error {
	half := max(0, min(len(ps), c.after-int(c.done.Load())))
	if err := c.Store.PutNewProducts(ctx, ps[:half], job, progress); err != nil {
		return err
	}
	return c.count(len(ps))
}

func (c *crashing) UpdateProducts(ctx context.Context, ups []store.ProductUpdate, job string, progress func(int)) error {
	half := max(0, min(len(ups), c.after-int(c.done.Load())))
	if err := c.Store.UpdateProducts(ctx, ups[:half], job, progress); err != nil {
		return err
	}
	return c.count(len(ups))
}

// TestCrashHalfWayThenRerunFinishes: an import (new products, stock and price changes)
// stops after half its writes; an order takes units of a product whose stock the first
// run had already set; the re-run takes the lock over at once, finishes the job without
// duplicates, and keeps the order's units taken (the stock figure is applied once).
func TestCrashHalfWayThenRerunFinishes(t *testing.T) {
	t.Parallel()
	st, _ := seeded(t, 80)
	ctx := context.Background()
	products, _ := exported(t, st)
	lines := strings.Split(strings.TrimSpace(string(products)), "\n")
	// Every existing product gets stock 500 and a price of 0.95, and loses any breaks (which
	// might not be cheaper than that); 40 new products.
	for i := 1; i < len(lines); i++ {
		cells := strings.Split(lines[i], ",")
		n := len(cells)
		cells[n-17], cells[n-15], cells[n-9] = "0.95", "500", "" // unit_price, stock, breaks (description has no commas in the seed, facets are joined by |)
		lines[i] = strings.Join(cells, ",")
	}
	cat := strings.Split(lines[1], ",")
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("NEW-%05d,New Card %d,,,%s,6,0.40,20,60,active,,,,,,,,,,,,,", i, i, cat[len(cat)-19]))
	}
	in := catimport.Input{ProductsName: "big-change.csv", Products: []byte(strings.Join(lines, "\n") + "\n")}
	pl, err := catimport.Check(ctx, st, in)
	if err != nil || pl.New != 40 || pl.Changed != 80 {
		t.Fatalf("plan %+v %v", pl, err)
	}

	crash := &crashing{Store: st, after: 60}
	if _, err := catimport.Apply(ctx, crash, in, catimport.ApplyOptions{By: staff}); !errors.Is(err, errCrash) {
		t.Fatalf("first run answered %v, want the crash", err)
	}
	// An order takes 7 units of a product whose stock the crashed run set (updates come
	// after the 40 new products, so the first updates were done).
	half := bySKU(t, st)
	var taken string
	for sku, p := range half {
		if !strings.HasPrefix(sku, "NEW-") && p.Stock == 500 {
			taken = sku
			break
		}
	}
	if taken == "" {
		t.Fatal("the crashed run set no stock")
	}
	if err := st.ChangeStock(ctx, store.StockChange{SKU: taken, From: 500, To: 493, Audit: orders.AuditEntry{By: staff, Action: "stock"}}); err != nil {
		t.Fatal(err)
	}

	pl = apply(t, st, in) // takes the crashed run's lock over: same job
	if pl.New != 0 || pl.Changed == 0 || pl.Changed >= 80 {
		t.Fatalf("re-run plan %+v: it should find only what the crash left", pl.Summary)
	}
	after := bySKU(t, st)
	if len(after) != 120 {
		t.Fatalf("%d products after the re-run, want 120", len(after))
	}
	for sku, p := range after {
		wantStock := 500
		switch {
		case strings.HasPrefix(sku, "NEW-"):
			wantStock = 60
		case sku == taken:
			wantStock = 493
		}
		if p.Stock != wantStock || (!strings.HasPrefix(sku, "NEW-") && p.UnitPrice != 95) {
			t.Fatalf("%s after the re-run: stock %d price %d, want stock %d", sku, p.Stock, p.UnitPrice, wantStock)
		}
	}
	if pl := apply(t, st, in); !pl.Nothing() {
		t.Fatalf("third run %+v", pl.Summary)
	}
	if got := bySKU(t, st)[taken].Stock; got != 493 {
		t.Fatalf("the third run set %s's stock to %d again", taken, got)
	}
}

// TestAnotherImportWaitsForTheLock: while one import holds the lock, a different file
// is refused with who holds it; the same job is not.
func TestAnotherImportWaitsForTheLock(t *testing.T) {
	t.Parallel()
	st, _ := seeded(t, 10)
	products, _ := exported(t, st)
	in := catimport.Input{ProductsName: "a.csv", Products: products}
	ctx := context.Background()
	if err := st.LockImport(ctx, "someone-elses-job", "other@example.com", timeNow(), minute); err != nil {
		t.Fatal(err)
	}
	_, err := catimport.Apply(ctx, st, in, catimport.ApplyOptions{By: staff})
	var busy *store.ImportBusy
	if !errors.As(err, &busy) || busy.By != "other@example.com" || !strings.Contains(err.Error(), "Another catalogue import (by other@example.com) is running") {
		t.Fatalf("Apply answered %v, want the lock held by the other import", err)
	}
	if err := st.UnlockImport(ctx, "someone-elses-job"); err != nil {
		t.Fatal(err)
	}
	apply(t, st, in)
}

// TestForwardColumnsWriteKeepAndClear: a file with the forward columns marks a product
// forward in the table; a file without them leaves the marking; three empty cells end it.
func TestForwardColumnsWriteKeepAndClear(t *testing.T) {
	t.Parallel()
	st, cat := seeded(t, 20)
	old := cat.Products[2]
	row := func(extra string) string {
		return fmt.Sprintf("%s,%s,%s,%s,%d,%d,%s,20,,active,%s,,%s\n", old.SKU, old.Name, `"`+old.Description+`"`, old.RangeURLText,
			old.CategoryID, old.PackSize, catimport.FormatPrice(old.UnitPrice), old.LargeImg, extra)
	}
	header := "sku,name,description,range,category,pack_size,unit_price,vat_rate,stock,status,image,sort_order,barcode"
	withCols := header + ",forward_from,order_by,forward_expected\n"
	want := catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-06-30", Expected: 480}
	pl := apply(t, st, catimport.Input{ProductsName: "forward.csv", Products: []byte(withCols + row(",2027-09-01,2027-06-30,480"))})
	if pl.Changed != 1 {
		t.Fatalf("marking plan %+v", pl.Summary)
	}
	if got := bySKU(t, st)[old.SKU].Forward; got == nil || *got != want {
		t.Fatalf("after marking: %+v", got)
	}
	pl = apply(t, st, catimport.Input{ProductsName: "plain.csv", Products: []byte(header + "\n" + row(""))})
	if !pl.Nothing() {
		t.Fatalf("a file without the columns plans %+v", pl.Summary)
	}
	if got := bySKU(t, st)[old.SKU].Forward; got == nil || *got != want {
		t.Fatalf("after a file without the columns: %+v", got)
	}
	apply(t, st, catimport.Input{ProductsName: "clear.csv", Products: []byte(withCols + row(",,,"))})
	if got := bySKU(t, st)[old.SKU].Forward; got != nil {
		t.Fatalf("after three empty cells: %+v", got)
	}
}

// TestFacetAndPublishedColumnsWriteKeepAndClear: a file with the facet columns sets a
// product's facets in the table (and its published date when given); a file without them
// leaves them; blank cells clear the facets but keep the date. A new product the file
// dates nothing is published on the import's London day; one it dates keeps that date.
func TestFacetAndPublishedColumnsWriteKeepAndClear(t *testing.T) {
	t.Parallel()
	st, cat := seeded(t, 20)
	old := cat.Products[3]
	row := func(sku, name, extra string) string {
		return fmt.Sprintf("%s,%s,%s,%s,%d,%d,%s,20,,active,%s,,%s\n", sku, name, `"`+old.Description+`"`, old.RangeURLText,
			old.CategoryID, old.PackSize, catimport.FormatPrice(old.UnitPrice), old.LargeImg, extra)
	}
	header := "sku,name,description,range,category,pack_size,unit_price,vat_rate,stock,status,image,sort_order,barcode"
	withCols := header + ",occasion,recipient,age,style,published\n"
	want := catalogue.Facets{Occasion: []string{"birthday", "thank-you"}, Recipient: []string{"her"}, Age: []string{"30"}, Style: []string{"gold-foil", "humour"}}
	// 23:30 UTC on 31 July is 00:30 on 1 August in London (summer time): new products are
	// published on London's day, not UTC's.
	now := func() time.Time { return time.Date(2026, 7, 31, 23, 30, 0, 0, time.UTC) }
	in := catimport.Input{ProductsName: "facets.csv", Products: []byte(withCols +
		row(old.SKU, old.Name, ",Thank You|birthday,For her,30,humour|Gold foil,2026-10-01") +
		row("NEW-1", "New Card", ",,,,,") + row("NEW-2", "Dated Card", ",wedding,couple,,,2026-06-15"))}
	pl, err := catimport.Apply(context.Background(), st, in, catimport.ApplyOptions{By: staff, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if pl.Changed != 1 || pl.New != 2 || len(pl.First) != 3 {
		t.Fatalf("plan %+v", pl.Summary)
	}
	fields := map[string]string{}
	for _, f := range pl.First[0].Fields {
		fields[f.Field] = f.After
	}
	if fields["occasion"] != "birthday|thank-you" || fields["style"] != "gold-foil|humour" || fields["published"] != "2026-10-01" {
		t.Fatalf("review fields %+v", pl.First[0].Fields)
	}
	got := bySKU(t, st)
	if p := got[old.SKU]; !reflect.DeepEqual(p.Facets, want) || p.Published != "2026-10-01" {
		t.Fatalf("after setting: %+v %q", p.Facets, p.Published)
	}
	if p := got["NEW-1"]; !p.Facets.IsZero() || p.Published != "2026-08-01" {
		t.Fatalf("a new product without a date: %+v %q (the import ran on London's 1 August)", p.Facets, p.Published)
	}
	if p := got["NEW-2"]; p.Published != "2026-06-15" || !reflect.DeepEqual(p.Facets, catalogue.Facets{Occasion: []string{"wedding"}, Recipient: []string{"couple"}}) {
		t.Fatalf("a new product with a date: %+v %q", p.Facets, p.Published)
	}

	if pl := apply(t, st, catimport.Input{ProductsName: "plain.csv", Products: []byte(header + "\n" + row(old.SKU, old.Name, ""))}); !pl.Nothing() {
		t.Fatalf("a file without the columns plans %+v", pl.Summary)
	}
	if pl := apply(t, st, catimport.Input{ProductsName: "clear.csv", Products: []byte(withCols + row(old.SKU, old.Name, ",,,,,"))}); pl.Changed != 1 {
		t.Fatalf("clearing plan %+v", pl.Summary)
	}
	if p := bySKU(t, st)[old.SKU]; !p.Facets.IsZero() || p.Published != "2026-10-01" {
		t.Fatalf("after blank cells: %+v %q", p.Facets, p.Published)
	}

	_, err = catimport.Check(context.Background(), st, catimport.Input{ProductsName: "bad.csv", Products: []byte(withCols + row(old.SKU, old.Name, ",bday,,,,"))})
	if got := problemsText(err); !strings.Contains(got, `bad.csv: line 2: The occasion "bday" is not one the shop knows; write any of birthday, christmas,`) {
		t.Fatalf("bad occasion: %s", got)
	}
}
