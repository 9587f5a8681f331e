package catimport

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
)

func TestParsePriceAsPeopleTypeIt(t *testing.T) {
	for in, want := range map[string]int64{"0.85": 85, "£1.10": 110, "2": 200, "2.5": 250, "1,250.00": 125000, "£ 0.19": 19, "10000.00": 1_000_000} {
		if got, ok := ParsePrice(in); !ok || got != want {
			t.Errorf("ParsePrice(%q) = %d %v, want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"1.234", "-1.00", "1.2.3", "abc", "", "12,34", "10001.00", "1e3", "$1.00"} {
		if got, ok := ParsePrice(in); ok {
			t.Errorf("ParsePrice(%q) = %d, want refused", in, got)
		}
	}
}

func TestGTINCheckDigit(t *testing.T) {
	for _, good := range []string{"5012345678900", "96385074", "036000291452", "10012345678902"} {
		if !gtinValid(good) {
			t.Errorf("%s refused", good)
		}
	}
	for _, bad := range []string{"5012345678901", "96385075", "036000291453"} {
		if gtinValid(bad) {
			t.Errorf("%s accepted", bad)
		}
	}
}

func problemsOf(ps []Problem) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.String())
	}
	return strings.Join(s, "\n")
}

func TestFileLevelProblems(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"p.csv", "", "p.csv: The file is empty."},
		{"p.csv", "sku,name,category,pack_size,unit_price,vat_rate,colour\n", "p.csv: line 1: The column \"colour\" is not one this import knows (sku, name, description, range, category, pack_size, unit_price, vat_rate, stock, status, image, sort_order, barcode, rrp, breaks, forward_from, order_by, forward_expected, occasion, recipient, age, style, published)."},
		{"p.csv", "sku,name,category,pack_size,vat_rate\n", "p.csv: line 1: The unit price column is missing from the header."},
		{"p.csv", "sku,SKU,name,category,pack_size,unit_price,vat_rate\n", "p.csv: line 1: The column \"SKU\" appears twice in the header."},
		{"p.csv", "sku,name,category,pack_size,unit_price,vat_rate\nA,B\xff,1,6,1.00,20\n", "p.csv: line 2: The file is not UTF-8 text; save it as \"CSV UTF-8\" and choose it again."},
		{"p.csv", "sku,name,category,pack_size,unit_price,vat_rate\nA,\"B,1,6,1.00,20\n", "p.csv: line 2: This line cannot be read as CSV: a quote (\") is not closed or stands inside an unquoted cell."},
		{"p.jsonl", "{\"sku\":\"A\"}\nnot json\n", "p.jsonl: line 2: This line is not one JSON object."},
	} {
		_, ps := readRecords(tc.name, []byte(tc.file), productColumns)
		if got := problemsOf(ps); !strings.Contains(got, tc.want) {
			t.Errorf("%q:\n got  %s\n want %s", tc.file, got, tc.want)
		}
	}
}

func TestHeaderNamesAndBOMAreForgiving(t *testing.T) {
	file := "\xef\xbb\xbfSKU,Name,Category,Pack Size,Unit-Price,VAT_rate,Stock\nab-1,Card,7,6,'=1.00,20%,\n"
	recs, ps := readRecords("p.csv", []byte(file), productColumns)
	if len(ps) != 0 || len(recs) != 1 {
		t.Fatalf("%v %v", recs, ps)
	}
	rows, p := productRows("p.csv", recs, newCategoryIndex([]catalogue.Category{{ID: 7, Slug: "cards", RangeURLText: "r"}}), map[string]bool{"r": true})
	if p.count != 1 || !strings.Contains(problemsOf(p.list), "unit price") {
		t.Fatalf("a price written as a formula should be refused as a price: %v", p.list)
	}
	_ = rows
}

func TestSafeCellsRoundTrip(t *testing.T) {
	for _, s := range []string{"=SUM(A1)", "+44 1234", "-5", "@home", "plain", "'quoted"} {
		if got := UnsafeCell(SafeCell(s)); got != s {
			t.Errorf("%q came back as %q", s, got)
		}
	}
}

// The catalogue import holds names and descriptions to the shop's one text rule (package
// text), as every other field: a character that changes how text reads without showing
// itself is a problem at its line and column, and nothing is written.
func TestFreeTextFollowsTheShopsTextRule(t *testing.T) {
	cats := newCategoryIndex([]catalogue.Category{{ID: 7, Slug: "cards", RangeURLText: "r"}})
	header := "sku,name,description,category,pack_size,unit_price,vat_rate\n"
	for _, tc := range []struct{ name, row, want string }{
		{"right-to-left override in a name", "AB-1,Card \u202eevil,,7,6,1.00,20", "p.csv: line 2: The name must not contain invisible characters such as zero-width spaces or text-direction controls."},
		{"zero-width space in a name", "AB-1,Ca\u200brd,,7,6,1.00,20", "p.csv: line 2: The name must not contain invisible characters"},
		{"left-to-right isolate in a description", "AB-1,Card,\"Fine \u2066card\",7,6,1.00,20", "p.csv: line 2: The description must not contain invisible characters"},
		{"a control character in a description", "AB-1,Card,\"Fine\x07card\",7,6,1.00,20", "p.csv: line 2: The description must not contain control characters such as tabs (line breaks are allowed)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, ps := readRecords("p.csv", []byte(header+tc.row+"\n"), productColumns)
			if len(ps) != 0 {
				t.Fatalf("read: %v", ps)
			}
			_, p := productRows("p.csv", recs, cats, map[string]bool{"r": true})
			if got := problemsOf(p.list); p.count != 1 || !strings.Contains(got, tc.want) {
				t.Fatalf("problems:\n got  %s\n want %s", got, tc.want)
			}
		})
	}
	t.Run("ranges and categories", func(t *testing.T) {
		file := "type,id,slug,name,range,group,description\nrange,,r,Range,,,\"Fine \u2066range\"\ncategory,7,cards,Ca\u200brds,r,Cards,\n"
		recs, ps := readRecords("c.csv", []byte(file), structureColumns)
		if len(ps) != 0 {
			t.Fatalf("read: %v", ps)
		}
		_, _, p := structureRows("c.csv", recs, nil)
		got := problemsOf(p.list)
		for _, want := range []string{"c.csv: line 2: The description must not contain invisible", "c.csv: line 3: The name must not contain invisible"} {
			if !strings.Contains(got, want) {
				t.Errorf("problems:\n got  %s\n want %s", got, want)
			}
		}
	})
	t.Run("clean text is kept in the shop's form", func(t *testing.T) {
		recs, _ := readRecords("p.csv", []byte(header+"AB-1,Cafe\u0301 card,\"Line one\r\nLine two\",7,6,1.00,20\n"), productColumns)
		rows, p := productRows("p.csv", recs, cats, map[string]bool{"r": true})
		if p.count != 0 || len(rows) != 1 {
			t.Fatalf("problems: %s", problemsOf(p.list))
		}
		if rows[0].Name != "Caf\u00e9 card" || rows[0].Description != "Line one\nLine two" {
			t.Errorf("name %q, description %q: want NFC and LF line breaks", rows[0].Name, rows[0].Description)
		}
	})
}

// Every problem a bad row can have is a whole sentence that names its column in staff's
// words, as every message the server sends is: it starts with a capital letter, ends with
// a full stop, and the column's label is in it.
func TestProblemsAreSentencesNamingTheirColumn(t *testing.T) {
	cats := newCategoryIndex([]catalogue.Category{
		{ID: 7, Slug: "cards", Name: "Cards", RangeURLText: "r"},
		{ID: 8, Slug: "twice", RangeURLText: "r"}, {ID: 9, Slug: "twice", RangeURLText: "r"},
	})
	ranges := map[string]bool{"r": true, "other": true}
	header := "sku,name,description,range,category,pack_size,unit_price,vat_rate,stock,status,image,sort_order,barcode,rrp,breaks\n"
	for _, tc := range []struct{ name, row, want string }{
		{"RRP not an amount", "AB-1,Card,,,7,6,1.00,20,,,,,,2.499,", `The RRP must be the shelf price of one unit in pounds inc VAT with at most 2 decimals, from 0.01 to 10000.00, such as 2.49 (found "2.499").`},
		{"RRP of nothing", "AB-1,Card,,,7,6,1.00,20,,,,,,0.00,", "The RRP must be the shelf price"},
		{"RRP too high", "AB-1,Card,,,7,6,1.00,20,,,,,,10000.01,", "The RRP must be the shelf price"},
		{"breaks without a colon", "AB-1,Card,,,7,6,1.00,20,,,,,,,6 0.90", `The breaks must be packs and a price or percentage, separated by semicolons, such as 6:0.90; 12:0.85 or 6:5%; 12:10% (found "6 0.90").`},
		{"breaks from one pack", "AB-1,Card,,,7,6,1.00,20,,,,,,,1:0.90", `Each of the breaks must start from 2 to 10000 packs (found "1:0.90").`},
		{"breaks from too many packs", "AB-1,Card,,,7,6,1.00,20,,,,,,,10001:0.90", "Each of the breaks must start from 2 to 10000 packs"},
		{"breaks of no price", "AB-1,Card,,,7,6,1.00,20,,,,,,,6:0.00", `Each of the breaks must be a unit price in pounds ex VAT with at most 2 decimals, such as 0.90, or a percentage such as 5% (found "0.00" from 6 packs).`},
		{"breaks of a bad price", "AB-1,Card,,,7,6,1.00,20,,,,,,,6:abc", "Each of the breaks must be a unit price"},
		{"breaks of 100%", "AB-1,Card,,,7,6,1.00,20,,,,,,,6:100%", `Each of the breaks must take a whole percentage from 1 to 99 off (found "100%" from 6 packs).`},
		{"breaks of 2.5%", "AB-1,Card,,,7,6,1.00,20,,,,,,,6:2.5%", "Each of the breaks must take a whole percentage"},
		{"breaks not rising", "AB-1,Card,,,7,6,1.00,20,,,,,,,12:0.90; 6:0.85", "The breaks must list their packs in rising order (6 packs comes after 12)."},
		{"breaks at one count twice", "AB-1,Card,,,7,6,1.00,20,,,,,,,6:0.90; 6:0.85", "The breaks must list their packs in rising order"},
		{"breaks not cheaper", "AB-1,Card,,,7,6,1.00,20,,,,,,,6:0.90; 12:0.90", "The breaks must each be cheaper than the one before (0.90 from 12 packs comes after 0.90)."},
		{"breaks not more off", "AB-1,Card,,,7,6,1.00,20,,,,,,,6:10%; 12:5%", "The breaks must each take more off than the one before (5% from 12 packs comes after 10%)."},
		{"breaks mixed", "AB-1,Card,,,7,6,1.00,20,,,,,,,6:0.90; 12:10%", "The breaks mix unit prices and percentages"},
		{"breaks over six", "AB-1,Card,,,7,6,1.00,20,,,,,,,2:0.99; 3:0.98; 4:0.97; 5:0.96; 6:0.95; 7:0.94; 8:0.93", "The breaks hold 7 steps; the most is 6."},
		{"breaks not below the unit price", "AB-1,Card,,,7,6,1.00,20,,,,,,,6:1.00; 12:0.90", "The breaks must be cheaper than the unit price (£1.00 from 6 packs; the unit price is £1.00)."},
		{"pack size out of range", "AB-1,Card,,,7,0,1.00,20,,,,,", `The pack size must be a whole number from 1 to 1000 (found "0").`},
		{"empty pack size", "AB-1,Card,,,7,,1.00,20,,,,,", "The pack size is empty; it must be a whole number from 1 to 1000."},
		{"empty SKU", ",Card,,,7,6,1.00,20,,,,,", "The SKU is empty."},
		{"bad SKU", "#1,Card,,,7,6,1.00,20,,,,,", "The SKU must be letters"},
		{"empty name", "AB-1,,,,7,6,1.00,20,,,,,", "The name is empty."},
		{"long name", "AB-1," + strings.Repeat("n", 151) + ",,,7,6,1.00,20,,,,,", "The name is 151 characters long; the most is 150."},
		{"tab in a name", "AB-1,\"Ca\trd\",,,7,6,1.00,20,,,,,", "The name holds a line break or tab"},
		{"empty category", "AB-1,Card,,,,6,1.00,20,,,,,", "The category is empty"},
		{"unknown category id", "AB-1,Card,,,99,6,1.00,20,,,,,", "There is no category with id 99."},
		{"unknown category slug", "AB-1,Card,,,nope,6,1.00,20,,,,,", `There is no category with slug "nope".`},
		{"ambiguous category slug", "AB-1,Card,,,twice,6,1.00,20,,,,,", `The category "twice" could be any of 2 categories`},
		{"unknown range", "AB-1,Card,,nope,7,6,1.00,20,,,,,", `There is no range "nope".`},
		{"other range", "AB-1,Card,,other,7,6,1.00,20,,,,,", "The range is other, but category Cards (7) belongs to range r."},
		{"empty unit price", "AB-1,Card,,,7,6,,20,,,,,", "The unit price is empty"},
		{"bad unit price", "AB-1,Card,,,7,6,1.234,20,,,,,", "The unit price must be an amount"},
		{"bad VAT rate", "AB-1,Card,,,7,6,1.00,17,,,,,", `The VAT rate must be 20, 5 or 0 (a percentage; found "17").`},
		{"bad stock", "AB-1,Card,,,7,6,1.00,20,-1,,,,", "The stock must be a whole number"},
		{"bad status", "AB-1,Card,,,7,6,1.00,20,,gone,,,", `The status must be active or discontinued (found "gone").`},
		{"bad media image", "AB-1,Card,,,7,6,1.00,20,,,/media/x.webp,,", `The image "/media/x.webp" is not a large picture`},
		{"bad sort order", "AB-1,Card,,,7,6,1.00,20,,,,0,", "The sort order must be a whole number"},
		{"bad barcode", "AB-1,Card,,,7,6,1.00,20,,,,,123", `The barcode must be a GTIN`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, ps := readRecords("p.csv", []byte(header+tc.row+"\n"), productColumns)
			if len(ps) != 0 {
				t.Fatalf("read: %v", ps)
			}
			_, p := productRows("p.csv", recs, cats, ranges)
			if p.count != 1 {
				t.Fatalf("want one problem, got %d: %s", p.count, problemsOf(p.list))
			}
			checkSentence(t, p.list[0], tc.want)
		})
	}
	structure := "type,id,slug,name,range,group,description,sort_order\n"
	for _, tc := range []struct{ name, rows, want string }{
		{"bad type", "shelf,,s,Shelf,,,,", `The type must be range or category (found "shelf").`},
		{"bad range slug", "range,,Bad Slug,Range,,,,", "The slug of a range must be"},
		{"range twice", "range,,r,Range,,,,\nrange,,r,Range,,,,", "The range slug r is already on line 2."},
		{"category id twice", "category,7,a,A,r,Cards,,\ncategory,7,b,B,r,Cards,,", "The category id 7 is already on line 2."},
		{"bad category id", "category,x,a,A,r,Cards,,", "The id must be a whole number from 1 to 999999"},
		{"bad category slug", "category,7,A_B,A,r,Cards,,", "The slug of a category must be"},
		{"empty range", "category,7,a,A,,Cards,,", "The range is empty"},
		{"unknown range", "category,7,a,A,nope,Cards,,", `There is no range "nope" in this file or the shop.`},
		{"empty menu group", "category,7,a,A,r,,,", "The menu group is empty."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, ps := readRecords("c.csv", []byte(structure+tc.rows+"\n"), structureColumns)
			if len(ps) != 0 {
				t.Fatalf("read: %v", ps)
			}
			_, _, p := structureRows("c.csv", recs, map[string]bool{"r": true})
			if p.count != 1 {
				t.Fatalf("want one problem, got %d: %s", p.count, problemsOf(p.list))
			}
			checkSentence(t, p.list[0], tc.want)
		})
	}
	for _, tc := range []struct{ name, file, want string }{
		{"missing column", "sku,name,category,pack_size,vat_rate\n", "The unit price column is missing from the header."},
		{"too many cells", "sku,name,category,pack_size,unit_price,vat_rate\nA,B,7,6,1.00,20,x\n", "This line has 7 cells but the header has 6 columns."},
		{"JSON field of the wrong type", "{\"sku\":\"A\",\"name\":\"B\",\"category\":7,\"pack_size\":[6],\"unit_price\":1,\"vat_rate\":20}\n", "The pack size must be a string or a number."},
		{"JSON field missing", "{\"sku\":\"A\",\"name\":\"B\",\"category\":7,\"unit_price\":1,\"vat_rate\":20}\n", "The pack size is missing from this line."},
		{"unknown JSON field", "{\"sku\":\"A\",\"name\":\"B\",\"category\":7,\"pack_size\":6,\"unit_price\":1,\"vat_rate\":20,\"colour\":\"red\"}\n", `The field "colour" is not one this import knows`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "p.csv"
			if strings.HasPrefix(tc.file, "{") {
				name = "p.jsonl"
			}
			_, ps := readRecords(name, []byte(tc.file), productColumns)
			if len(ps) == 0 {
				t.Fatal("want a problem, got none")
			}
			for _, p := range ps {
				checkSentence(t, p, "")
			}
			checkSentence(t, ps[0], tc.want)
		})
	}
}

// checkSentence fails unless p's message holds want, starts with a capital letter, ends
// with a full stop and names p's column.
func checkSentence(t *testing.T, p Problem, want string) {
	t.Helper()
	m := p.Message
	if !strings.Contains(m, want) {
		t.Errorf("message %q, want it to hold %q", m, want)
	}
	if r, _ := utf8.DecodeRuneInString(m); !unicode.IsUpper(r) || !strings.HasSuffix(m, ".") {
		t.Errorf("message %q is not a whole sentence", m)
	}
	if p.Column != "" && !strings.Contains(strings.ToLower(m), strings.ToLower(p.Column)) {
		t.Errorf("message %q does not name its column %q", m, p.Column)
	}
}

// The rrp and breaks columns read what staff type, and export writes the same text back.
func TestRRPAndBreaksRead(t *testing.T) {
	t.Parallel()
	cats := newCategoryIndex([]catalogue.Category{{ID: 7, Slug: "cards", RangeURLText: "r"}})
	header := "sku,name,category,pack_size,unit_price,vat_rate,rrp,breaks\n"
	for _, tc := range []struct {
		name, rrp, breaks string
		wantRRP           int64
		wantBreaks        pricing.Ladder
		written           string
	}{
		{"none", "", "", 0, nil, ""},
		{"unit prices", "£2.49", "6:0.90; 12:0.85", 249, pricing.Ladder{{From: 6, Price: 90}, {From: 12, Price: 85}}, "6:0.90; 12:0.85"},
		{"percentages", "2.5", "6:5%;12:10%", 250, pricing.Ladder{{From: 6, Percent: 5}, {From: 12, Percent: 10}}, "6:5%; 12:10%"},
		{"spaces and a last semicolon", "1,000", " 6 : 0.9 ; 12 : £0.85 ; ", 100000, pricing.Ladder{{From: 6, Price: 90}, {From: 12, Price: 85}}, "6:0.90; 12:0.85"},
		{"six breaks", "", "2:0.99; 3:0.98; 4:0.97; 5:0.96; 6:0.95; 7:0.94", 0,
			pricing.Ladder{{From: 2, Price: 99}, {From: 3, Price: 98}, {From: 4, Price: 97}, {From: 5, Price: 96}, {From: 6, Price: 95}, {From: 7, Price: 94}},
			"2:0.99; 3:0.98; 4:0.97; 5:0.96; 6:0.95; 7:0.94"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			recs, ps := readRecords("p.csv", []byte(header+"AB-1,Card,7,6,1.00,20,\""+tc.rrp+"\",\""+tc.breaks+"\"\n"), productColumns)
			if len(ps) != 0 {
				t.Fatalf("read: %v", ps)
			}
			rows, p := productRows("p.csv", recs, cats, map[string]bool{"r": true})
			if p.count != 0 || len(rows) != 1 {
				t.Fatalf("problems: %s", problemsOf(p.list))
			}
			if rows[0].RRP != tc.wantRRP || !slices.Equal(rows[0].Breaks, tc.wantBreaks) {
				t.Errorf("RRP %d, breaks %v; want %d, %v", rows[0].RRP, rows[0].Breaks, tc.wantRRP, tc.wantBreaks)
			}
			if got := FormatBreaks(rows[0].Breaks); got != tc.written {
				t.Errorf("written back as %q, want %q", got, tc.written)
			}
		})
	}
}

// An exported products file holds the RRP and the breaks, and reads back to the same.
func TestExportWritesRRPAndBreaks(t *testing.T) {
	t.Parallel()
	p := catalogue.Product{SKU: "AB-1", Name: "Card", CategoryID: 7, RangeURLText: "r", PackSize: 6, UnitPrice: 100, VATRate: 20,
		RRP: 249, Breaks: pricing.Ladder{{From: 6, Price: 90}, {From: 12, Price: 85}}}
	var b strings.Builder
	if err := WriteProducts(&b, []catalogue.Product{p, {SKU: "AB-2", Name: "Plain", CategoryID: 7, RangeURLText: "r", PackSize: 6, UnitPrice: 100, VATRate: 20}}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasSuffix(lines[0], ",barcode,rrp,breaks,forward_from,order_by,forward_expected,occasion,recipient,age,style,published") || !strings.HasSuffix(lines[1], ",2.49,6:0.90; 12:0.85,,,,,,,,") || !strings.HasSuffix(lines[2], ",,,,,,,,,,") {
		t.Fatalf("export:\n%s", b.String())
	}
	recs, ps := readRecords("p.csv", []byte(b.String()), productColumns)
	if len(ps) != 0 {
		t.Fatalf("read: %v", ps)
	}
	rows, prob := productRows("p.csv", recs, newCategoryIndex([]catalogue.Category{{ID: 7, Slug: "cards", RangeURLText: "r"}}), map[string]bool{"r": true})
	if prob.count != 0 || rows[0].RRP != 249 || !slices.Equal(rows[0].Breaks, p.Breaks) || rows[1].RRP != 0 || rows[1].Breaks != nil {
		t.Fatalf("read back: %+v %s", rows, problemsOf(prob.list))
	}
}

// The plan's review names a changed RRP and changed breaks as staff write them.
func TestDiffNamesRRPAndBreaks(t *testing.T) {
	t.Parallel()
	a := catalogue.Product{SKU: "AB-1", UnitPrice: 100}
	b := a
	b.RRP, b.Breaks = 249, pricing.Ladder{{From: 6, Percent: 5}}
	got := diff(a, b)
	want := []FieldChange{{"RRP", "", "2.49"}, {"breaks", "", "6:5%"}}
	if !slices.Equal(got, want) {
		t.Errorf("diff = %v, want %v", got, want)
	}
	if d := diff(b, b); len(d) != 0 {
		t.Errorf("diff of a product with itself = %v", d)
	}
}

// ParseBreaks as the price group import uses it: a category's or range's breaks are
// percentages, and without a list price only the breaks themselves are compared.
func TestParseBreaksForGroups(t *testing.T) {
	t.Parallel()
	if _, err := ParseBreaks("6:0.90", 0, false); err == nil || !strings.Contains(err.Error(), "The breaks here must be percentages off") {
		t.Errorf("a unit price for a category: %v", err)
	}
	if l, err := ParseBreaks("6:5%; 12:10%", 0, false); err != nil || len(l) != 2 {
		t.Errorf("percentages for a category: %v %v", l, err)
	}
	if l, err := ParseBreaks("6:5.00; 12:4.00", 0, true); err != nil || len(l) != 2 {
		t.Errorf("unit prices without a list price: %v %v", l, err)
	}
	if l, err := ParseBreaks("  ", 100, true); err != nil || l != nil {
		t.Errorf("an empty cell: %v %v", l, err)
	}
}

// A row without an rrp or breaks cell keeps the product's own; an empty cell removes them.
// A kept table must still be cheaper than the row's unit price.
func TestMissingRRPAndBreaksColumnsKeepTheProducts(t *testing.T) {
	t.Parallel()
	cats := newCategoryIndex([]catalogue.Category{{ID: 7, Slug: "cards", RangeURLText: "r"}})
	old := catalogue.Product{SKU: "AB-1", RRP: 249, Breaks: pricing.Ladder{{From: 6, Price: 90}}}
	for _, tc := range []struct {
		name, file string
		rrp        int64
		breaks     pricing.Ladder
	}{
		{"no columns", "sku,name,category,pack_size,unit_price,vat_rate\nAB-1,Card,7,6,1.00,20\n", 249, old.Breaks},
		{"empty cells", "sku,name,category,pack_size,unit_price,vat_rate,rrp,breaks\nAB-1,Card,7,6,1.00,20,,\n", 0, nil},
		{"a JSON line without the fields", `{"sku":"AB-1","name":"Card","category":7,"pack_size":6,"unit_price":"1.00","vat_rate":20}` + "\n", 249, old.Breaks},
		{"a JSON line with empty fields", `{"sku":"AB-1","name":"Card","category":7,"pack_size":6,"unit_price":"1.00","vat_rate":20,"rrp":"","breaks":null}` + "\n", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			name := "p.csv"
			if strings.HasPrefix(tc.file, "{") {
				name = "p.jsonl"
			}
			recs, ps := readRecords(name, []byte(tc.file), productColumns)
			rows, p := productRows(name, recs, cats, map[string]bool{"r": true})
			if len(ps) != 0 || p.count != 0 || len(rows) != 1 {
				t.Fatalf("problems %v %s", ps, problemsOf(p.list))
			}
			got := productOf(rows[0], media.Images{}, old, true)
			if got.RRP != tc.rrp || !slices.Equal(got.Breaks, tc.breaks) {
				t.Errorf("RRP %d breaks %v, want %d %v", got.RRP, got.Breaks, tc.rrp, tc.breaks)
			}
		})
	}
	recs, _ := readRecords("p.csv", []byte("sku,name,category,pack_size,unit_price,vat_rate\nAB-1,Card,7,6,0.90,20\n"), productColumns)
	rows, _ := productRows("p.csv", recs, cats, map[string]bool{"r": true})
	p := keptBreaksProblems("p.csv", rows, []store.ImportProduct{{Product: old}})
	if p.count != 1 {
		t.Fatalf("a unit price at the kept break: %s", problemsOf(p.list))
	}
	checkSentence(t, p.list[0], "The unit price 0.90 is not above the product's breaks (6:0.90), which this file leaves as they are")
}

// The forward columns read ISO dates and whole units; three empty cells clear the marking,
// a file without the columns keeps it, and a bad date or an order-by date after the
// delivery date is a row problem naming its column.
func TestForwardColumns(t *testing.T) {
	t.Parallel()
	cats := newCategoryIndex([]catalogue.Category{{ID: 7, Slug: "cards", RangeURLText: "r"}})
	old := catalogue.Product{SKU: "AB-1", Forward: &catalogue.Forward{DeliveryFrom: "2027-10-01", OrderBy: "2027-07-31", Expected: 100}}
	header := "sku,name,category,pack_size,unit_price,vat_rate,forward_from,order_by,forward_expected\n"
	for _, tc := range []struct {
		name, file string
		want       *catalogue.Forward
		problem    string // a sentence's start; "" for none
	}{
		{"marked", header + "AB-1,Card,7,6,1.00,20,2027-09-01,2027-06-30,\"1,200\"\n", &catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-06-30", Expected: 1200}, ""},
		{"no expected units", header + "AB-1,Card,7,6,1.00,20,2027-09-01,2027-09-01,\n", &catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-09-01"}, ""},
		{"three empty cells clear it", header + "AB-1,Card,7,6,1.00,20,,,\n", nil, ""},
		{"no columns keep it", "sku,name,category,pack_size,unit_price,vat_rate\nAB-1,Card,7,6,1.00,20\n", old.Forward, ""},
		{"a JSON line without the fields keeps it", `{"sku":"AB-1","name":"Card","category":7,"pack_size":6,"unit_price":"1.00","vat_rate":20}` + "\n", old.Forward, ""},
		{"a JSON line", `{"sku":"AB-1","name":"Card","category":7,"pack_size":6,"unit_price":"1.00","vat_rate":20,"forward_from":"2027-09-01","order_by":"2027-06-30","forward_expected":50}` + "\n", &catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-06-30", Expected: 50}, ""},
		{"a bad date", header + "AB-1,Card,7,6,1.00,20,01/09/2027,2027-06-30,\n", nil, `The forward from date must be a date written yyyy-mm-dd, such as 2027-09-01 (found "01/09/2027").`},
		{"no such day", header + "AB-1,Card,7,6,1.00,20,2027-09-01,2027-02-30,\n", nil, `The order-by date must be a date written yyyy-mm-dd`},
		{"order by after delivery", header + "AB-1,Card,7,6,1.00,20,2027-09-01,2027-09-02,\n", nil, "The order-by date 2027-09-02 is after the forward from date 2027-09-01"},
		{"a date missing", header + "AB-1,Card,7,6,1.00,20,2027-09-01,,10\n", nil, "The order-by date is empty; a forward product needs both"},
		{"units not whole", header + "AB-1,Card,7,6,1.00,20,2027-09-01,2027-06-30,2.5\n", nil, "The forward expected units must be a whole number from 0 to"},
		{"units negative", header + "AB-1,Card,7,6,1.00,20,2027-09-01,2027-06-30,-1\n", nil, "The forward expected units must be a whole number from 0 to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			name := "p.csv"
			if strings.HasPrefix(tc.file, "{") {
				name = "p.jsonl"
			}
			recs, ps := readRecords(name, []byte(tc.file), productColumns)
			if len(ps) != 0 {
				t.Fatalf("read: %v", ps)
			}
			rows, p := productRows(name, recs, cats, map[string]bool{"r": true})
			if tc.problem != "" {
				if p.count != 1 || len(rows) != 0 {
					t.Fatalf("want one problem, got %s (rows %v)", problemsOf(p.list), rows)
				}
				checkSentence(t, p.list[0], tc.problem)
				return
			}
			if p.count != 0 || len(rows) != 1 {
				t.Fatalf("problems: %s", problemsOf(p.list))
			}
			got := productOf(rows[0], media.Images{}, old, true).Forward
			if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("forward %+v, want %+v", got, tc.want)
			}
		})
	}
}

// An exported products file holds the forward marking and reads back to the same; the
// plan's review names a changed marking.
func TestExportAndDiffOfForward(t *testing.T) {
	t.Parallel()
	p := catalogue.Product{SKU: "AB-1", Name: "Card", CategoryID: 7, RangeURLText: "r", PackSize: 6, UnitPrice: 100, VATRate: 20,
		Forward: &catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-06-30", Expected: 600}}
	var b strings.Builder
	if err := WriteProducts(&b, []catalogue.Product{p}); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(b.String(), "\n"); !strings.HasSuffix(lines[1], ",2027-09-01,2027-06-30,600,,,,,") {
		t.Fatalf("export:\n%s", b.String())
	}
	recs, ps := readRecords("p.csv", []byte(b.String()), productColumns)
	rows, prob := productRows("p.csv", recs, newCategoryIndex([]catalogue.Category{{ID: 7, Slug: "cards", RangeURLText: "r"}}), map[string]bool{"r": true})
	if len(ps) != 0 || prob.count != 0 || rows[0].Forward == nil || *rows[0].Forward != *p.Forward {
		t.Fatalf("read back: %+v %v %s", rows, ps, problemsOf(prob.list))
	}
	plain := p
	plain.Forward = nil
	want := []FieldChange{{"forward", "", "from 2027-09-01, order by 2027-06-30, 600 expected"}}
	if got := diff(plain, p); !slices.Equal(got, want) {
		t.Errorf("diff = %v, want %v", got, want)
	}
}

// The facet columns read ids or labels in any case, separated by |, ; or ,; a blank cell
// clears the facet and a file without the column keeps the product's; the published
// column reads an ISO date, and a blank cell (or none) keeps the product's. A value the
// vocabulary does not hold is a row problem naming the column and the allowed ids.
func TestFacetAndPublishedColumns(t *testing.T) {
	t.Parallel()
	cats := newCategoryIndex([]catalogue.Category{{ID: 7, Slug: "cards", RangeURLText: "r"}})
	old := catalogue.Product{SKU: "AB-1", Published: "2026-01-05",
		Facets: catalogue.Facets{Occasion: []string{"birthday"}, Recipient: []string{"mum"}, Age: []string{"50"}, Style: []string{"pastel"}}}
	header := "sku,name,category,pack_size,unit_price,vat_rate,occasion,recipient,age,style,published\n"
	for _, tc := range []struct {
		name, file string
		want       catalogue.Facets
		published  string
		problem    string // a sentence's start; "" for none
	}{
		{"every facet", header + "AB-1,Card,7,6,1.00,20,Anniversary|birthday,For Her; DAD,\"18, 21\",gold foil,2026-10-01\n",
			catalogue.Facets{Occasion: []string{"birthday", "anniversary"}, Recipient: []string{"her", "dad"}, Age: []string{"18", "21"}, Style: []string{"gold-foil"}}, "2026-10-01", ""},
		{"blank cells clear the facets and keep the date", header + "AB-1,Card,7,6,1.00,20,,,,,\n", catalogue.Facets{}, old.Published, ""},
		{"no columns keep them", "sku,name,category,pack_size,unit_price,vat_rate\nAB-1,Card,7,6,1.00,20\n", old.Facets, old.Published, ""},
		{"one column changes one facet", "sku,name,category,pack_size,unit_price,vat_rate,style\nAB-1,Card,7,6,1.00,20,humour\n",
			catalogue.Facets{Occasion: old.Facets.Occasion, Recipient: old.Facets.Recipient, Age: old.Facets.Age, Style: []string{"humour"}}, old.Published, ""},
		{"a JSON line with lists", `{"sku":"AB-1","name":"Card","category":7,"pack_size":6,"unit_price":"1.00","vat_rate":20,"occasion":["Wedding","engagement"],"recipient":"couple","age":null,"published":"2026-09-30"}` + "\n",
			catalogue.Facets{Occasion: []string{"wedding", "engagement"}, Recipient: []string{"couple"}, Style: old.Facets.Style}, "2026-09-30", ""},
		{"an unknown occasion", header + "AB-1,Card,7,6,1.00,20,birthday|bday,,,,\n", catalogue.Facets{}, "", `The occasion "bday" is not one the shop knows; write any of birthday, christmas,`},
		{"an unknown age", header + "AB-1,Card,7,6,1.00,20,,,19,,\n", catalogue.Facets{}, "", `The age "19" is not one the shop knows; write any of 1, 2, 3,`},
		{"a bad date", header + "AB-1,Card,7,6,1.00,20,,,,,01/10/2026\n", catalogue.Facets{}, "", `The published date must be a date written yyyy-mm-dd, such as 2026-10-01, or empty to keep the product's (found "01/10/2026").`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			name := "p.csv"
			if strings.HasPrefix(tc.file, "{") {
				name = "p.jsonl"
			}
			recs, ps := readRecords(name, []byte(tc.file), productColumns)
			if len(ps) != 0 {
				t.Fatalf("read: %v", ps)
			}
			rows, p := productRows(name, recs, cats, map[string]bool{"r": true})
			if tc.problem != "" {
				if p.count != 1 || len(rows) != 0 {
					t.Fatalf("want one problem, got %s (rows %v)", problemsOf(p.list), rows)
				}
				checkSentence(t, p.list[0], tc.problem)
				return
			}
			if p.count != 0 || len(rows) != 1 {
				t.Fatalf("problems: %s", problemsOf(p.list))
			}
			got := productOf(rows[0], media.Images{}, old, true)
			if !reflect.DeepEqual(got.Facets, tc.want) || got.Published != tc.published {
				t.Errorf("facets %+v published %q, want %+v %q", got.Facets, got.Published, tc.want, tc.published)
			}
		})
	}
}

// A JSON line's list is read only for the facets, and only of strings.
func TestJSONListsOnlyForFacets(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		`{"sku":"AB-1","name":["Card"],"category":7,"pack_size":6,"unit_price":"1.00","vat_rate":20}`,
		`{"sku":"AB-1","name":"Card","category":7,"pack_size":6,"unit_price":"1.00","vat_rate":20,"age":[18]}`,
	} {
		if _, ps := readRecords("p.jsonl", []byte(line+"\n"), productColumns); len(ps) == 0 || !strings.Contains(ps[0].Message, "must be a string or a number") {
			t.Errorf("%s: %v", line, ps)
		}
	}
}

// An exported products file holds the facets and the published date and reads back to
// the same; the plan's review names each changed facet and the date.
func TestExportAndDiffOfFacets(t *testing.T) {
	t.Parallel()
	p := catalogue.Product{SKU: "AB-1", Name: "Card", CategoryID: 7, RangeURLText: "r", PackSize: 6, UnitPrice: 100, VATRate: 20, Published: "2026-10-01",
		Facets: catalogue.Facets{Occasion: []string{"birthday", "anniversary"}, Age: []string{"18"}, Style: []string{"gold-foil"}}}
	var b strings.Builder
	if err := WriteProducts(&b, []catalogue.Product{p}); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(b.String(), "\n"); !strings.HasSuffix(lines[1], ",birthday|anniversary,,18,gold-foil,2026-10-01") {
		t.Fatalf("export:\n%s", b.String())
	}
	recs, ps := readRecords("p.csv", []byte(b.String()), productColumns)
	rows, prob := productRows("p.csv", recs, newCategoryIndex([]catalogue.Category{{ID: 7, Slug: "cards", RangeURLText: "r"}}), map[string]bool{"r": true})
	if len(ps) != 0 || prob.count != 0 {
		t.Fatalf("read back: %v %s", ps, problemsOf(prob.list))
	}
	if got := productOf(rows[0], media.Images{}, catalogue.Product{}, false); !reflect.DeepEqual(got.Facets, p.Facets) || got.Published != p.Published {
		t.Fatalf("read back %+v %q", got.Facets, got.Published)
	}
	plain := p
	plain.Facets, plain.Published = catalogue.Facets{Occasion: []string{"birthday"}}, ""
	want := []FieldChange{{"occasion", "birthday", "birthday|anniversary"}, {"age", "", "18"}, {"style", "", "gold-foil"}, {"published", "", "2026-10-01"}}
	if got := diff(plain, p); !slices.Equal(got, want) {
		t.Errorf("diff = %v, want %v", got, want)
	}
}

// A product holding a value the vocabulary no longer has is refused while the file
// keeps that facet (no column for it).
func TestKeptFacetsMustStillBeKnown(t *testing.T) {
	t.Parallel()
	cats := newCategoryIndex([]catalogue.Category{{ID: 7, Slug: "cards", RangeURLText: "r"}})
	old := catalogue.Product{SKU: "AB-1", Facets: catalogue.Facets{Occasion: []string{"retired-value"}, Style: []string{"pastel"}}}
	for _, tc := range []struct {
		file string
		want int
	}{
		{"sku,name,category,pack_size,unit_price,vat_rate\nAB-1,Card,7,6,1.00,20\n", 1},
		{"sku,name,category,pack_size,unit_price,vat_rate,occasion\nAB-1,Card,7,6,1.00,20,birthday\n", 0},
	} {
		recs, _ := readRecords("p.csv", []byte(tc.file), productColumns)
		rows, _ := productRows("p.csv", recs, cats, map[string]bool{"r": true})
		p := keptFacetsProblems("p.csv", rows, []store.ImportProduct{{Product: old}})
		if p.count != tc.want {
			t.Fatalf("%q: %s", tc.file, problemsOf(p.list))
		}
		if p.count == 1 {
			checkSentence(t, p.list[0], `The product holds the occasion retired-value, which is no longer one the shop knows`)
		}
	}
}
