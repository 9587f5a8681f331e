package pricegroups

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
)

// testCatalogue has two products (list £1.00 and £2.50), two categories (101 and 102,
// and two more that share a slug) and one range.
func testCatalogue() Catalogue {
	return NewCatalogue(
		[]catalogue.Range{{URLText: "wholesale_greeting_cards"}},
		[]catalogue.Category{{ID: 101, Slug: "birthday-cards"}, {ID: 102, Slug: "age-cards"}, {ID: 201, Slug: "bags"}, {ID: 202, Slug: "bags"}},
		[]store.ImportProduct{{Product: catalogue.Product{SKU: "GC101-00001", UnitPrice: 100}}, {Product: catalogue.Product{SKU: "GC101-00002", UnitPrice: 250}}})
}

const header = "applies_to,code,price,discount_percent,breaks\n"

func TestReadRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		file string
		want pricing.Rules
	}{
		{"the contract's example", header + "product,GC101-00001,0.80,,6:0.75; 12:0.70\ncategory,101,,10,\nrange,wholesale_greeting_cards,,,12:5%\n",
			pricing.Rules{Prices: map[string]int64{"product:GC101-00001": 80}, Discounts: map[string]int{"category:101": 10},
				Breaks: map[string]pricing.Ladder{"product:GC101-00001": {{From: 6, Price: 75}, {From: 12, Price: 70}}, "range:wholesale_greeting_cards": {{From: 12, Percent: 5}}}}},
		{"a header named loosely, a BOM, columns in another order and some left out", "\xef\xbb\xbfCode, Applies-To ,Discount Percent\r\nGC101-00002,Product,15%\r\n",
			pricing.Rules{Discounts: map[string]int{"product:GC101-00002": 15}}},
		{"a category by its slug, a range in capitals, blank lines", header + "\ncategory,age-cards,,5,\n\nrange,WHOLESALE_GREETING_CARDS,,100,\n",
			pricing.Rules{Discounts: map[string]int{"category:102": 5, "range:wholesale_greeting_cards": 100}}},
		{"breaks below the group's own price", header + "product,GC101-00001,0.80,,6:0.79\n",
			pricing.Rules{Prices: map[string]int64{"product:GC101-00001": 80}, Breaks: map[string]pricing.Ladder{"product:GC101-00001": {{From: 6, Price: 79}}}}},
		{"no rows: an empty group", header, pricing.Rules{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, probs, n := Read([]byte(tc.file), testCatalogue())
			if n != 0 || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Read = %+v, %v (%d); want %+v", got, probs, n, tc.want)
			}
		})
	}
}

func TestReadProblems(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		file string
		want Problem
	}{
		{"empty", "", Problem{0, "", "The file is empty; it needs a header row (applies_to,code,price,discount_percent,breaks)."}},
		{"not UTF-8", header + "product,GC\xff,,5,\n", Problem{0, "", "The file is not UTF-8 text; save it as \"CSV UTF-8\" and choose it again."}},
		{"an unknown column", "applies_to,code,colour\n", Problem{1, "colour", `The column "colour" is not one a price group file has (applies_to, code, price, discount_percent, breaks).`}},
		{"a column twice", "applies_to,code,Code\n", Problem{1, "Code", `The column "Code" appears twice in the header.`}},
		{"no code column", "applies_to,price\n", Problem{1, "code", "The code column is missing from the header."}},
		{"a quote not closed", header + "product,\"GC101-00001,0.80\n", Problem{2, "", "This line cannot be read as CSV: a quote (\") is not closed or stands inside an unquoted cell."}},
		{"too many cells", header + "product,GC101-00001,0.80,,,x\n", Problem{2, "", "This line has 6 cells but the header has 5 columns."}},
		{"applies to nothing known", header + "brand,x,,5,\n", Problem{2, "applies to", `The applies to must be product, category or range (found "brand").`}},
		{"no such product", header + "product,GC999,,5,\n", Problem{2, "code", `There is no product with SKU "GC999".`}},
		{"a product without a code", header + "product,,,5,\n", Problem{2, "code", "The code is empty; give the product's SKU."}},
		{"no such category", header + "category,999,,5,\n", Problem{2, "code", `There is no category "999".`}},
		{"a slug two categories share", header + "category,bags,,5,\n", Problem{2, "code", `The category "bags" could be any of 2 categories with that slug; give the numeric id instead.`}},
		{"no such range", header + "range,xmas,,5,\n", Problem{2, "code", `There is no range "xmas".`}},
		{"a key twice", header + "category,101,,5,\ncategory,birthday-cards,,6,\n", Problem{3, "code", "The category birthday-cards is on line 2 already; give each one row."}},
		{"a row that sets nothing", header + "product,GC101-00001,,,\n", Problem{2, "", "The row sets no price, discount percent or breaks; give at least one, or leave the row out."}},
		{"a price for a category", header + "category,101,0.50,,\n", Problem{2, "price", "A price is only for a product; give a category a discount percent or percent breaks instead."}},
		{"a price that is not one", header + "product,GC101-00001,0.805,,\n", Problem{2, "price", `The price must be an amount in pounds ex VAT with at most 2 decimals, such as 0.80 (found "0.805").`}},
		{"a price of nothing", header + "product,GC101-00001,0.00,,\n", Problem{2, "price", `The price must be an amount in pounds ex VAT with at most 2 decimals, such as 0.80 (found "0.00").`}},
		{"a price at the list price", header + "product,GC101-00001,1.00,,\n", Problem{2, "price", "The price 1.00 must be below the list price 1.00."}},
		{"a discount of 0", header + "category,101,,0,\n", Problem{2, "discount percent", `The discount percent must be a whole number from 1 to 100 (found "0").`}},
		{"a discount over 100", header + "category,101,,101,\n", Problem{2, "discount percent", `The discount percent must be a whole number from 1 to 100 (found "101").`}},
		{"a discount in decimals", header + "category,101,,2.5,\n", Problem{2, "discount percent", `The discount percent must be a whole number from 1 to 100 (found "2.5").`}},
		{"breaks that are not", header + "category,101,,,6\n", Problem{2, "breaks", `The breaks must be packs and a price or percentage, separated by semicolons, such as 6:0.90; 12:0.85 or 6:5%; 12:10% (found "6").`}},
		{"unit price breaks for a range", header + "range,wholesale_greeting_cards,,,6:0.50\n", Problem{2, "breaks", `The breaks here must be percentages off, such as 6:5%; 12:10% (a unit price is for one product).`}},
		{"breaks at the list price", header + "product,GC101-00001,,,6:1.00\n", Problem{2, "breaks", "The breaks must be cheaper than the unit price (£1.00 from 6 packs; the unit price is £1.00)."}},
		{"breaks above the group's price", header + "product,GC101-00002,0.80,,6:0.90\n", Problem{2, "breaks", "The breaks must be cheaper than the unit price (£0.90 from 6 packs; the unit price is £0.80)."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rules, probs, n := Read([]byte(tc.file), testCatalogue())
			if n != 1 || len(probs) != 1 || probs[0] != tc.want {
				t.Fatalf("problems %+v (%d), want %+v", probs, n, tc.want)
			}
			if !reflect.DeepEqual(rules, pricing.Rules{}) {
				t.Errorf("a file with problems made rules %+v", rules)
			}
		})
	}
}

// Every bad row is listed, by line, up to MaxProblems; the count says how many there were.
func TestReadListsAtMostMaxProblems(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(header)
	for i := range 250 {
		fmt.Fprintf(&b, "product,NOPE-%d,,5,\n", i)
	}
	_, probs, n := Read([]byte(b.String()), testCatalogue())
	if n != 250 || len(probs) != MaxProblems || probs[0].Line != 2 || probs[MaxProblems-1].Line != MaxProblems+1 {
		t.Fatalf("%d problems, %d listed, first on line %d", n, len(probs), probs[0].Line)
	}
}

// A file whose rules are over the store's limit is refused as a whole, saying why.
func TestReadRefusesRulesOverTheLimit(t *testing.T) {
	t.Parallel()
	var products []store.ImportProduct
	var b strings.Builder
	b.WriteString(header)
	for i := range 6000 {
		sku := fmt.Sprintf("SKU-%06d", i)
		products = append(products, store.ImportProduct{Product: catalogue.Product{SKU: sku, UnitPrice: 10000}})
		fmt.Fprintf(&b, "product,%s,99.99,50,2:99.98; 3:99.97; 4:99.96; 5:99.95; 6:99.94; 7:99.93\n", sku)
	}
	_, probs, n := Read([]byte(b.String()), NewCatalogue(nil, nil, products))
	if n != 1 || probs[0].Line != 0 || !strings.Contains(probs[0].Message, "the most a group may hold is 350000 (about 5,000 rows)") {
		t.Fatalf("problems %+v", probs)
	}
}

// The export writes the columns in order, rows sorted (products, categories by number,
// ranges), and reads back to the same rules.
func TestWriteRoundTrips(t *testing.T) {
	t.Parallel()
	rules := pricing.Rules{
		Prices:    map[string]int64{"product:GC101-00002": 200, "product:GC101-00001": 80},
		Discounts: map[string]int{"category:102": 5, "category:101": 10, "range:wholesale_greeting_cards": 3},
		Breaks:    map[string]pricing.Ladder{"product:GC101-00001": {{From: 6, Price: 75}, {From: 12, Price: 70}}, "category:102": {{From: 12, Percent: 5}}},
	}
	var out bytes.Buffer
	if err := Write(&out, rules); err != nil {
		t.Fatal(err)
	}
	want := header + "product,GC101-00001,0.80,,6:0.75; 12:0.70\nproduct,GC101-00002,2.00,,\ncategory,101,,10,\ncategory,102,,5,12:5%\nrange,wholesale_greeting_cards,,3,\n"
	if out.String() != want {
		t.Fatalf("export:\n%s\nwant:\n%s", out.String(), want)
	}
	back, probs, _ := Read(out.Bytes(), testCatalogue())
	if len(probs) > 0 || !reflect.DeepEqual(back, rules) {
		t.Fatalf("read back %+v %v", back, probs)
	}
	var empty bytes.Buffer
	if err := Write(&empty, pricing.Rules{}); err != nil || empty.String() != header {
		t.Fatalf("empty export %q %v", empty.String(), err)
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	now := pricing.Rules{Prices: map[string]int64{"product:A": 80}, Discounts: map[string]int{"category:1": 10, "category:2": 5, "range:r": 3},
		Breaks: map[string]pricing.Ladder{"product:A": {{From: 6, Price: 75}}}}
	next := pricing.Rules{Prices: map[string]int64{"product:A": 80}, Discounts: map[string]int{"category:1": 10, "category:2": 6, "category:3": 1},
		Breaks: map[string]pricing.Ladder{"product:A": {{From: 6, Price: 74}}}}
	if a, c, r := Diff(now, next); a != 1 || c != 2 || r != 1 {
		t.Fatalf("added %d changed %d removed %d, want 1 2 1", a, c, r)
	}
	if a, c, r := Diff(now, now); a+c+r != 0 {
		t.Fatalf("the same rules: %d %d %d", a, c, r)
	}
}

func TestIDsAndNames(t *testing.T) {
	t.Parallel()
	for id, ok := range map[string]bool{"independents": true, "garden-centres": true, "a": true, strings.Repeat("a", 40): true,
		"": false, "Independents": false, "garden centres": false, "garden_centres": false, "-garden": false, "garden-": false, strings.Repeat("a", 41): false} {
		if ValidID(id) != ok || (IDProblem(id) == "") != ok {
			t.Errorf("ValidID(%q) = %v", id, !ok)
		}
	}
	for name, want := range map[string]string{" Independents ": "", "": "Name is required.", strings.Repeat("x", 61): "Name must be at most 60 characters.",
		"Two\nlines": "Name must not contain control characters such as tabs or line breaks."} {
		if clean, msg := CleanName(name); msg != want || (want == "" && clean != "Independents") {
			t.Errorf("CleanName(%q) = %q, %q", name, clean, msg)
		}
	}
}
