package catimport

import (
	"strings"
	"testing"

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
		{"p.csv", "", "p.csv: is empty"},
		{"p.csv", "sku,name,category,pack_size,unit_price,vat_rate,colour\n", "p.csv: line 1, colour: is not a column this import knows (sku, name, description, range, category, pack_size, unit_price, vat_rate, stock, status, image, sort_order, barcode)"},
		{"p.csv", "sku,name,category,pack_size,vat_rate\n", "p.csv: line 1, unit price: this column is missing from the header"},
		{"p.csv", "sku,SKU,name,category,pack_size,unit_price,vat_rate\n", "p.csv: line 1, SKU: appears twice in the header"},
		{"p.csv", "sku,name,category,pack_size,unit_price,vat_rate\nA,B\xff,1,6,1.00,20\n", "p.csv: line 2: is not UTF-8 text; save the file as \"CSV UTF-8\""},
		{"p.csv", "sku,name,category,pack_size,unit_price,vat_rate\nA,\"B,1,6,1.00,20\n", "p.csv: line 2: cannot be read as CSV: a quote (\") is not closed or stands inside an unquoted cell"},
		{"p.jsonl", "{\"sku\":\"A\"}\nnot json\n", "p.jsonl: line 2: is not one JSON object"},
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
		{"right-to-left override in a name", "AB-1,Card \u202eevil,,7,6,1.00,20", "p.csv: line 2, name: must not contain invisible characters such as zero-width spaces or text-direction controls"},
		{"zero-width space in a name", "AB-1,Ca\u200brd,,7,6,1.00,20", "p.csv: line 2, name: must not contain invisible characters"},
		{"left-to-right isolate in a description", "AB-1,Card,\"Fine \u2066card\",7,6,1.00,20", "p.csv: line 2, description: must not contain invisible characters"},
		{"a control character in a description", "AB-1,Card,\"Fine\x07card\",7,6,1.00,20", "p.csv: line 2, description: must not contain control characters such as tabs (line breaks are allowed)"},
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
		for _, want := range []string{"c.csv: line 2, description: must not contain invisible", "c.csv: line 3, name: must not contain invisible"} {
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
