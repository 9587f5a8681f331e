package catimport

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tradeshop/functions/internal/catalogue"
)

func TestParsePriceAsPeopleTypeIt(t *testing.T) {
	for in, want := range map[string]int64{"0.85": 85, "£1.10": 110, "2": 200, "2.5": 250, "1,250.00": 125000, "£ 0.19": 19, "10000.00": 1_000_000} {
		if got, ok := parsePrice(in); !ok || got != want {
			t.Errorf("parsePrice(%q) = %d %v, want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"1.234", "-1.00", "1.2.3", "abc", "", "12,34", "10001.00", "1e3", "$1.00"} {
		if got, ok := parsePrice(in); ok {
			t.Errorf("parsePrice(%q) = %d, want refused", in, got)
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
		{"p.csv", "sku,name,category,pack_size,unit_price,vat_rate,colour\n", "p.csv: line 1: The column \"colour\" is not one this import knows (sku, name, description, range, category, pack_size, unit_price, vat_rate, stock, status, image, sort_order, barcode)."},
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
		if got := unsafeCell(safeCell(s)); got != s {
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
	header := "sku,name,description,range,category,pack_size,unit_price,vat_rate,stock,status,image,sort_order,barcode\n"
	for _, tc := range []struct{ name, row, want string }{
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
