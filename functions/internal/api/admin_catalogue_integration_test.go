package api

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// upload posts a picture as the back-office page does: raw bytes, the bearer token and
// the CSRF header.
func (c *client) upload(name, idToken string, data []byte) (int, map[string]any) {
	code, out, _ := c.bearer("POST", "/api/admin/catalogue/images?name="+name, idToken, data, "image/png")
	return code, out
}

// testPNG is a square PNG of side pixels in one colour.
func testPNG(t *testing.T, side int, c color.Color) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, side, side))
	for y := range side {
		for x := range side {
			m.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// csvRows writes records as CSV.
func csvRows(records ...[]string) string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.WriteAll(records)
	return b.String()
}

// importBody is a check (job "") or apply body.
func importBody(token, productsName, products string, full bool, images map[string]any, job string) string {
	b := map[string]any{"token": token, "products": map[string]string{"name": productsName, "text": products}, "full": full, "images": images}
	if job != "" {
		b["job"] = job
	}
	out, _ := json.Marshal(b)
	return string(out)
}

// planOf is the plan of a check's or apply's answer.
func planOf(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	p, ok := body["plan"].(map[string]any)
	if !ok {
		t.Fatalf("no plan in %v", body)
	}
	return p
}

func count(p map[string]any, key string) int { n, _ := p[key].(float64); return int(n) }

// catalogueShop is a table holding the seed catalogue of n products, a handler whose
// media store is a folder, and a member of staff.
type catalogueShop struct {
	*raceShop
	cat   seed.Catalogue
	media string
	staff testenv.User
}

func newCatalogueShop(t *testing.T, n int) *catalogueShop {
	t.Helper()
	st := testenv.Store(t)
	cat := putSeedCatalogue(t, st, n)
	dir := t.TempDir()
	d := testDeps(t, st, testenv.Verifier(t))
	d.Media = media.NewDirStore(dir)
	s := &raceShop{t: t, st: st, c: newClient(t, NewHandler(d))}
	return &catalogueShop{raceShop: s, cat: cat, media: dir,
		staff: testenv.Staff(t, testenv.NewNamedUser(t, "Catalogue Staff"))}
}

// exportCSV downloads file (products or categories) as staff.
func (s *catalogueShop) exportCSV(file string) string {
	s.t.Helper()
	code, _, body := s.c.get("/api/admin/catalogue/export?file="+file, s.staff.IDToken)
	if code != 200 {
		s.t.Fatalf("export %s: %d %s", file, code, body)
	}
	return string(body)
}

// TestCatalogueImportThroughTheBackOffice: a picture uploaded and published, a file with
// one new product (with the picture) and one price change checked (nothing written),
// applied with a stale job (409), applied (the table changed), applied again (nothing
// to do); a file with problems is a 422 naming line and column; the export imports
// again with nothing to change.
func TestCatalogueImportThroughTheBackOffice(t *testing.T) {
	t.Parallel()
	s := newCatalogueShop(t, 40)
	ctx := context.Background()
	tok := s.staff.IDToken

	// The picture: published to the media folder as the two sizes the pages use.
	code, pic := s.c.upload("robin.png", tok, testPNG(t, 300, color.RGBA{200, 30, 30, 255}))
	if code != 200 || pic["name"] != "robin.png" || !strings.HasPrefix(pic["small"].(string), "/media/products/") || !strings.HasPrefix(pic["large"].(string), "/media/products/") {
		t.Fatalf("upload: %d %v", code, pic)
	}
	for _, k := range []string{"small", "large"} {
		if _, err := os.Stat(filepath.Join(s.media, strings.TrimPrefix(pic[k].(string), "/media/"))); err != nil {
			t.Fatalf("%s picture not published: %v", k, err)
		}
	}
	images := map[string]any{"robin.png": map[string]any{"small": pic["small"], "large": pic["large"]}}
	// A file that is not a picture, and one too small: 400 with media's sentence.
	if code, body := s.c.upload("notes.png", tok, []byte("not a picture at all")); code != 400 || !strings.HasPrefix(body["error"].(string), "notes.png ") {
		t.Fatalf("upload of text: %d %v", code, body)
	}
	if code, body := s.c.upload("tiny.png", tok, testPNG(t, 20, color.White)); code != 400 || !strings.HasPrefix(body["error"].(string), "tiny.png ") {
		t.Fatalf("upload of a 20-pixel picture: %d %v", code, body)
	}
	// Over the limit: 413 saying the limit.
	if code, body := s.c.upload("huge.png", tok, make([]byte, maxPictureBytes+1)); code != 413 || !strings.Contains(body["error"].(string), "4 MB") {
		t.Fatalf("upload of a picture over the limit: %d %v", code, body)
	}

	old := s.cat.Products[5]
	newPrice := catimport.FormatPrice(old.UnitPrice + 25)
	file := csvRows(
		[]string{"sku", "name", "description", "range", "category", "pack_size", "unit_price", "vat_rate", "stock", "status", "image", "sort_order", "barcode"},
		[]string{"CAT-NEW-1", "Robin Christmas Card", "A new card.", "", fmt.Sprint(old.CategoryID), "6", "1.10", "20", "60", "active", "robin.png", "", ""},
		[]string{old.SKU, old.Name, old.Description, old.RangeURLText, fmt.Sprint(old.CategoryID), fmt.Sprint(old.PackSize), newPrice,
			fmt.Sprint(old.VATRate), "", "active", old.LargeImg, "", ""})

	code, body := s.c.post("/api/admin/catalogue/check", importBody(tok, "changes.csv", file, false, images, ""), nil)
	if code != 200 {
		t.Fatalf("check: %d %v", code, body)
	}
	plan := planOf(t, body)
	first := plan["first"].([]any)
	if count(plan, "new") != 1 || count(plan, "changed") != 1 || count(plan, "discontinued") != 0 || len(first) != 2 {
		t.Fatalf("check plan: %v", plan)
	}
	price := first[1].(map[string]any)["fields"].([]any)[0].(map[string]any)
	if price["field"] != "unit price" || price["before"] != catimport.FormatPrice(old.UnitPrice) || price["after"] != newPrice {
		t.Fatalf("price change reads %v", price)
	}
	job := plan["job"].(string)
	if got, _ := s.st.ProductsBySKU(ctx, []string{"CAT-NEW-1"}); len(got) != 0 {
		t.Fatal("the check wrote the new product")
	}

	// Applied with the job of another file: 409, nothing written.
	code, body = s.c.post("/api/admin/catalogue/apply", importBody(tok, "changes.csv", file+"\n", false, images, job), nil)
	if code != 409 || body["error"] != msgStaleImport {
		t.Fatalf("stale apply: %d %v", code, body)
	}
	// Another import holds the lock: 409 with its sentence.
	if err := s.st.LockImport(ctx, "someone-elses-job", "jo@example.com", time.Now(), time.Minute); err != nil {
		t.Fatal(err)
	}
	code, body = s.c.post("/api/admin/catalogue/apply", importBody(tok, "changes.csv", file, false, images, job), nil)
	if code != 409 || !strings.Contains(body["error"].(string), "Another catalogue import (by jo@example.com)") {
		t.Fatalf("apply while another import runs: %d %v", code, body)
	}
	if err := s.st.UnlockImport(ctx, "someone-elses-job"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.st.ProductsBySKU(ctx, []string{"CAT-NEW-1"}); len(got) != 0 {
		t.Fatal("a refused apply wrote the new product")
	}

	code, body = s.c.post("/api/admin/catalogue/apply", importBody(tok, "changes.csv", file, false, images, job), nil)
	if code != 200 || count(planOf(t, body), "new") != 1 || count(planOf(t, body), "changed") != 1 {
		t.Fatalf("apply: %d %v", code, body)
	}
	got, err := s.st.ProductsBySKU(ctx, []string{"CAT-NEW-1", old.SKU})
	if err != nil {
		t.Fatal(err)
	}
	np := got["CAT-NEW-1"]
	if np.Name != "Robin Christmas Card" || np.UnitPrice != 110 || np.Stock != 60 || np.SmallImg != pic["small"] || np.LargeImg != pic["large"] ||
		np.Slug != catalogue.Slugify("Robin Christmas Card")+"-cat-new-1" {
		t.Fatalf("new product %+v", np)
	}
	if got[old.SKU].UnitPrice != old.UnitPrice+25 {
		t.Fatalf("price of %s is %d, want %d", old.SKU, got[old.SKU].UnitPrice, old.UnitPrice+25)
	}
	trail, err := s.st.Audit(ctx, store.AuditProduct+old.SKU)
	if err != nil || len(trail) != 1 || trail[0].By.UID != s.staff.UID {
		t.Fatalf("the price change's audit: %+v %v", trail, err)
	}
	// The same file again: nothing to change.
	code, body = s.c.post("/api/admin/catalogue/apply", importBody(tok, "changes.csv", file, false, images, job), nil)
	if p := planOf(t, body); code != 200 || count(p, "new")+count(p, "changed") != 0 || count(p, "unchanged") != 2 {
		t.Fatalf("second apply: %d %v", code, body)
	}

	// Problems: 422 with each one's line and column, and how many.
	bad := "sku,name,category,pack_size,unit_price,vat_rate,image\n" +
		fmt.Sprintf("BAD-1,Card,%d,0,1.00,20,\n", old.CategoryID) +
		fmt.Sprintf("BAD-2,Card,%d,6,1.00,17,\n", old.CategoryID) +
		fmt.Sprintf("BAD-3,Card,%d,6,1.00,20,wren.png\n", old.CategoryID)
	code, body = s.c.post("/api/admin/catalogue/check", importBody(tok, "bad.csv", bad, false, images, ""), nil)
	if code != 422 || count(body, "file_problem_count") != 3 {
		t.Fatalf("check of a bad file: %d %v", code, body)
	}
	var problems []fileProblem
	raw, _ := json.Marshal(body["file_problems"])
	_ = json.Unmarshal(raw, &problems)
	want := []fileProblem{{File: "bad.csv", Line: 2, Column: "pack size"}, {File: "bad.csv", Line: 3, Column: "VAT rate"}, {File: "bad.csv", Line: 4, Column: "image"}}
	for i := range problems {
		problems[i].Problem = ""
	}
	if !reflect.DeepEqual(problems, want) {
		t.Fatalf("problems %v, want %v", body["file_problems"], want)
	}
	if msg := body["file_problems"].([]any)[2].(map[string]any)["problem"]; msg != `The picture "wren.png" was not uploaded with the file.` {
		t.Fatalf("a picture not uploaded reads %q", msg)
	}
	// The same through apply: 422, nothing written.
	badJob := catimport.JobOf(catimport.Input{Products: []byte(bad)})
	if code, body = s.c.post("/api/admin/catalogue/apply", importBody(tok, "bad.csv", bad, false, images, badJob), nil); code != 422 || count(body, "file_problem_count") != 3 {
		t.Fatalf("apply of a bad file: %d %v", code, body)
	}

	// Bodies the API refuses, each with a sentence.
	for _, c := range []struct {
		path, body string
		code       int
		says       string
	}{
		{"/api/admin/catalogue/check", fmt.Sprintf(`{"token":%q}`, tok), 400, "products"},
		{"/api/admin/catalogue/check", importBody(tok, "changes.xlsx", file, false, nil, ""), 400, "products.name"},
		{"/api/admin/catalogue/check", importBody(tok, "changes.csv", file, false, map[string]any{"robin.png": map[string]any{"small": "/etc/passwd", "large": "x"}}, ""), 400, "images"},
		{"/api/admin/catalogue/apply", importBody(tok, "changes.csv", file, false, images, ""), 400, "job"},
		{"/api/admin/catalogue/check", importBody(tok, "big.csv", strings.Repeat("x", maxImportBodyBytes), false, nil, ""), 413, "scripts/catalogue import"},
	} {
		code, body := s.c.post(c.path, c.body, nil)
		problems, _ := body["problems"].(map[string]any)
		if code != c.code || (problems[c.says] == nil && !strings.Contains(fmt.Sprint(body["error"]), c.says)) {
			t.Errorf("%s %.60s…: %d %v, want %d about %s", c.path, c.body, code, body, c.code, c.says)
		}
	}

	// The export: a CSV attachment named for the day, which imports again (the whole
	// catalogue, with its ranges and categories) with nothing to change.
	r := httptest.NewRequest("GET", "/api/admin/catalogue/export?file=products", nil)
	r.Header.Set("Authorization", "Bearer "+tok)
	r.Header.Set(csrf.HeaderName, s.c.token)
	r.AddCookie(s.c.cook)
	w := httptest.NewRecorder()
	s.c.h.ServeHTTP(w, r)
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/csv") ||
		w.Header().Get("Content-Disposition") != `attachment; filename="catalogue-products-`+time.Now().In(london).Format(time.DateOnly)+`.csv"` {
		t.Fatalf("export: %d %v", w.Code, w.Header())
	}
	products, structure := w.Body.String(), s.exportCSV("categories")
	if rows, err := csv.NewReader(strings.NewReader(products)).ReadAll(); err != nil || len(rows) != len(s.cat.Products)+2 {
		t.Fatalf("export has %d rows (%v), want a header and %d products", len(rows), err, len(s.cat.Products)+1)
	}
	again := map[string]any{"token": tok, "products": map[string]string{"name": "catalogue-products.csv", "text": products},
		"categories": map[string]string{"name": "catalogue-categories.csv", "text": structure}, "full": true}
	b, _ := json.Marshal(again)
	code, body = s.c.post("/api/admin/catalogue/check", string(b), nil)
	if p := planOf(t, body); code != 200 || count(p, "unchanged") != len(s.cat.Products)+1 || count(p, "new")+count(p, "changed")+count(p, "discontinued")+
		count(p, "new_ranges")+count(p, "changed_ranges")+count(p, "new_categories")+count(p, "changed_categories") != 0 {
		t.Fatalf("the export checked again: %d %v", code, body)
	}
	if code, body := s.c.post("/api/admin/catalogue/check", strings.Replace(string(b), "catalogue-categories.csv", "categories.txt", 1), nil); code != 400 {
		t.Fatalf("a categories file named .txt: %d %v", code, body)
	}
	if code, _, body := s.c.get("/api/admin/catalogue/export?file=orders", tok); code != 400 || !strings.Contains(string(body), "products or categories") {
		t.Fatalf("export of another file: %d %s", code, body)
	}
}

// TestCatalogueRoutesRefuseBuyers: a buyer's token is 403 on every catalogue route, and
// nothing is read, written or published.
func TestCatalogueRoutesRefuseBuyers(t *testing.T) {
	t.Parallel()
	s := newCatalogueShop(t, 10)
	buyer := testenv.NewUser(t)
	tok := buyer.IDToken
	file := "sku,name,category,pack_size,unit_price,vat_rate\n" + fmt.Sprintf("BUY-1,Card,%d,6,1.00,20\n", s.cat.Products[0].CategoryID)
	for _, c := range []struct {
		route string
		call  func() (int, map[string]any)
	}{
		{"check", func() (int, map[string]any) {
			return s.c.post("/api/admin/catalogue/check", importBody(tok, "a.csv", file, false, nil, ""), nil)
		}},
		{"apply", func() (int, map[string]any) {
			return s.c.post("/api/admin/catalogue/apply", importBody(tok, "a.csv", file, false, nil, strings.Repeat("a", 24)), nil)
		}},
		{"images", func() (int, map[string]any) { return s.c.upload("a.png", tok, testPNG(t, 200, color.Black)) }},
		{"export", func() (int, map[string]any) {
			code, body, _ := s.c.get("/api/admin/catalogue/export?file=products", tok)
			return code, body
		}},
	} {
		if code, body := c.call(); code != 403 || body["code"] != "staff_only" {
			t.Errorf("%s with a buyer's token: %d %v", c.route, code, body)
		}
	}
	if got, _ := s.st.ProductsBySKU(context.Background(), []string{"BUY-1"}); len(got) != 0 {
		t.Error("a buyer's apply wrote a product")
	}
	if entries, _ := os.ReadDir(s.media); len(entries) != 0 {
		t.Errorf("a buyer's upload published %d files", len(entries))
	}
}

// TestFullImportMissingTenProductsDiscontinuesThem is the acceptance test: a full
// import missing 10 products discontinues those 10; a buyer's open order holding some of
// them reads the same as before, and reordering it reports them unavailable.
func TestFullImportMissingTenProductsDiscontinuesThem(t *testing.T) {
	t.Parallel()
	s := newCatalogueShop(t, 60)
	ctx := context.Background()
	tok := s.staff.IDToken

	// A buyer orders three products, each about £40 ex VAT.
	buyer := s.buyer()
	var ordered []catalogue.Product
	for _, p := range s.cat.Products {
		packs := int((4000 + p.UnitPrice*int64(p.PackSize) - 1) / (p.UnitPrice * int64(p.PackSize)))
		if p.Stock >= 2*packs*p.PackSize && len(ordered) < 3 {
			s.set(buyer, p, packs*p.PackSize)
			ordered = append(ordered, p)
		}
	}
	code, placed := s.place(buyer, "catalogue-acceptance-1")
	if code != http.StatusCreated {
		t.Fatalf("place: %d %v", code, placed)
	}
	id := placed["id"].(string)
	code, before, _ := s.c.get("/api/orders/"+id, buyer.IDToken)
	if code != 200 || before["status"] != "placed" {
		t.Fatalf("order before: %d %v", code, before)
	}

	// The whole catalogue exported, ten rows dropped (the three ordered among them),
	// checked and applied as the whole catalogue.
	products := s.exportCSV("products")
	drop := map[string]bool{}
	for _, p := range ordered {
		drop[p.SKU] = true
	}
	for _, p := range s.cat.Products {
		if len(drop) < 10 && !drop[p.SKU] {
			drop[p.SKU] = true
		}
	}
	records, err := csv.NewReader(strings.NewReader(products)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	file := csvRows(slices.DeleteFunc(records, func(r []string) bool { return drop[r[0]] })...)
	code, body := s.c.post("/api/admin/catalogue/check", importBody(tok, "catalogue.csv", file, true, nil, ""), nil)
	if code != 200 || count(planOf(t, body), "discontinued") != 10 || count(planOf(t, body), "changed") != 0 {
		t.Fatalf("check: %d %v", code, body)
	}
	job := planOf(t, body)["job"].(string)
	code, body = s.c.post("/api/admin/catalogue/apply", importBody(tok, "catalogue.csv", file, true, nil, job), nil)
	plan := planOf(t, body)
	if code != 200 || count(plan, "discontinued") != 10 || count(plan, "unchanged") != len(s.cat.Products)-10 || count(plan, "new")+count(plan, "changed") != 0 {
		t.Fatalf("apply: %d %v", code, body)
	}
	var listed []string
	for _, c := range plan["first"].([]any) {
		if c.(map[string]any)["kind"] == catimport.KindDiscontinued {
			listed = append(listed, c.(map[string]any)["sku"].(string))
		}
	}
	if len(listed) != 10 {
		t.Fatalf("the plan lists %d discontinued products, want 10: %v", len(listed), listed)
	}
	got, err := s.st.ProductsBySKU(ctx, slices.Collect(maps.Keys(drop)))
	if err != nil {
		t.Fatal(err)
	}
	for sku := range drop {
		if !got[sku].Discontinued() {
			t.Errorf("%s is %q after the import, want discontinued", sku, got[sku].Status)
		}
	}

	// The open order reads the same, its status unchanged.
	code, after, _ := s.c.get("/api/orders/"+id, buyer.IDToken)
	if code != 200 || !reflect.DeepEqual(before, after) {
		t.Fatalf("order after the import: %d\n%v\nbefore:\n%v", code, after, before)
	}
	// Reordering it: the discontinued lines are reported unavailable, none added.
	code, re := s.c.post("/api/orders/"+id+"/reorder", fmt.Sprintf(`{"token":%q}`, buyer.IDToken), nil)
	var names []string
	for _, p := range ordered {
		names = append(names, p.Name)
	}
	var unavailable []string
	for _, n := range re["unavailable"].([]any) {
		unavailable = append(unavailable, n.(string))
	}
	slices.Sort(names)
	slices.Sort(unavailable)
	if code != 200 || !slices.Equal(unavailable, names) || len(re["added"].([]any)) != 0 {
		t.Fatalf("reorder of the order holding discontinued products: %d %v, want unavailable %v", code, re, names)
	}
}
