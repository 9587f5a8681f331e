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
