package pages

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/apitypes"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"

	"github.com/tradeshop/functions/internal/seed"
)

func TestBuildCoversEveryPage(t *testing.T) {
	t.Parallel()
	c, err := seed.Generate(seed.DefaultProducts)
	if err != nil {
		t.Fatal(err)
	}
	s := Build(c.Ranges, c.Categories, c.Products)

	if len(s.Ranges) != 7 || len(s.Menu.Ranges) != 7 {
		t.Fatalf("ranges: %d pages, %d menu links", len(s.Ranges), len(s.Menu.Ranges))
	}
	if len(s.Categories) != len(c.Categories) {
		t.Fatalf("category pages %d, categories %d", len(s.Categories), len(c.Categories))
	}
	// The seed's categories are in header order, so its menu is the spec's.
	var groups []string
	for _, g := range s.Menu.Groups {
		groups = append(groups, g.Name)
	}
	if !slices.Equal(groups, seed.Groups) {
		t.Fatalf("menu groups %q, want the header's %q", groups, seed.Groups)
	}
	total := 0
	for path, p := range s.Categories {
		if path != p.Category.Path || p.Range.URLText != p.Category.RangeURLText {
			t.Fatalf("category page %s inconsistent", path)
		}
		for i := 1; i < len(p.Products); i++ {
			if p.Products[i-1].Name > p.Products[i].Name {
				t.Fatalf("category %s not sorted by name", path)
			}
		}
		total += len(p.Products)
	}
	if total != len(c.Products) {
		t.Fatalf("category pages list %d products, catalogue has %d", total, len(c.Products))
	}
	for path, r := range s.Ranges {
		if len(r.Featured) != featuredPerRange || len(r.Categories) == 0 {
			t.Fatalf("range %s: %d featured, %d categories", path, len(r.Featured), len(r.Categories))
		}
		for _, f := range r.Featured {
			if !f.InStock {
				t.Fatalf("range %s features out-of-stock %s", path, f.SKU)
			}
		}
	}
	if len(s.Products) != len(c.Products) {
		t.Fatalf("product pages %d, products %d", len(s.Products), len(c.Products))
	}
	for path, p := range s.Products {
		if path != p.Product.Path || p.Category.ID != 0 && p.Category.Path == "" || len(p.Related) == 0 {
			t.Fatalf("product page %s: %+v", path, p)
		}
		for _, r := range p.Related {
			if r.SKU == p.Product.SKU || !r.InStock {
				t.Fatalf("product %s relates to itself or to out-of-stock %s", p.Product.SKU, r.SKU)
			}
		}
	}
	if s.Home.Products != len(c.Products) {
		t.Fatalf("home counts %d products", s.Home.Products)
	}
}

func TestStockState(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		stock, pack int
		want        string
	}{{0, 6, "out-of-stock"}, {5, 6, "out-of-stock"}, {6, 6, "low-stock"}, {65, 6, "low-stock"}, {66, 6, "in-stock"}} {
		if got := StockState(catalogue.Product{Stock: tc.stock, PackSize: tc.pack}); got != tc.want {
			t.Errorf("stock %d pack %d: %s, want %s", tc.stock, tc.pack, got, tc.want)
		}
	}
}

// shelf is a small catalogue: one range, two categories (each in its own menu group),
// products with and without sort orders and statuses.
func shelf() ([]catalogue.Range, []catalogue.Category, []catalogue.Product) {
	ranges := []catalogue.Range{{URLText: "wholesale_cards", Name: "Cards", Order: 1}}
	cats := []catalogue.Category{
		{ID: 101, Slug: "birthday", Name: "Birthday", Group: "Occasions", RangeURLText: "wholesale_cards", Order: 1},
		{ID: 150, Slug: "garden", Name: "Garden", Group: "Garden", RangeURLText: "wholesale_cards", Order: 2},
	}
	p := func(sku, name string, cat, sortOrder int, status string) catalogue.Product {
		return catalogue.Product{SKU: sku, Slug: catalogue.Slugify(name + " " + sku), Name: name, CategoryID: cat,
			RangeURLText: "wholesale_cards", PackSize: 6, UnitPrice: 50, VATRate: 20, Stock: 600, SortOrder: sortOrder, Status: status}
	}
	products := []catalogue.Product{
		p("GC101-00001", "Apple", 101, 0, catalogue.StatusActive),
		p("GC101-00002", "Banana", 101, 2, ""),
		p("GC101-00003", "Cherry", 101, 1, catalogue.StatusActive),
		p("GC101-00004", "Apple", 101, 0, ""),
		p("GC101-00005", "Aardvark", 101, 0, catalogue.StatusDiscontinued),
		p("GC101-00006", "Damson", 101, 2, catalogue.StatusActive),
		p("GC101-00007", "Zebra", 101, 0, ""),
		p("GC101-00008", "Yak", 101, 3, catalogue.StatusDiscontinued),
		p("GC150-00001", "Trowel", 150, 0, catalogue.StatusDiscontinued),
		p("GC150-00002", "Spade", 150, 0, ""),
	}
	return ranges, cats, products
}

func skus(cards []ProductCard) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.SKU
	}
	return out
}

// TestBuildLeavesOutDiscontinued: a discontinued product has no page and is in no list,
// count, featured or related product; one without a status is active.
func TestBuildLeavesOutDiscontinued(t *testing.T) {
	t.Parallel()
	ranges, cats, products := shelf()
	given := slices.Clone(products)
	s := Build(ranges, cats, products)
	if !slices.EqualFunc(products, given, catalogue.Product.Equal) {
		t.Fatal("Build changed the products it was given")
	}
	gone := map[string]bool{}
	for _, p := range products {
		if p.Discontinued() {
			gone[p.SKU] = true
			if _, ok := s.Products[catalogue.ProductPath(p)]; ok {
				t.Errorf("discontinued %s has a page", p.SKU)
			}
		}
	}
	if len(s.Products) != len(products)-len(gone) || s.Home.Products != len(products)-len(gone) {
		t.Fatalf("%d product pages, home counts %d; want %d", len(s.Products), s.Home.Products, len(products)-len(gone))
	}
	var lists [][]ProductCard
	for _, c := range s.Categories {
		lists = append(lists, c.Products)
	}
	for _, r := range s.Ranges {
		lists = append(lists, r.Featured)
		if r.Range.Products != 7 {
			t.Errorf("range %s counts %d products, want 7", r.Range.Path, r.Range.Products)
		}
	}
	for _, p := range s.Products {
		lists = append(lists, p.Related)
	}
	for _, l := range lists {
		for _, c := range l {
			if gone[c.SKU] {
				t.Fatalf("discontinued %s is listed", c.SKU)
			}
		}
	}
	counts := map[int]int{}
	for _, g := range s.Menu.Groups {
		for _, c := range g.Categories {
			counts[c.ID] = c.Products
		}
	}
	if counts[101] != 6 || counts[150] != 1 {
		t.Fatalf("menu counts %v, want 6 and 1 active products", counts)
	}
	if s.Menu.Ranges[0].Products != 7 {
		t.Fatalf("menu range counts %d, want 7", s.Menu.Ranges[0].Products)
	}
}

// TestCategoryShelfOrder: products with a sort order come first, lowest first (name, then
// SKU, between equal ones), then the rest by name, then SKU; related products are the
// neighbours in that order.
func TestCategoryShelfOrder(t *testing.T) {
	t.Parallel()
	ranges, cats, products := shelf()
	s := Build(ranges, cats, products)
	page := s.Categories["/outlet/section/birthday/101/"]
	want := []string{"GC101-00003", "GC101-00002", "GC101-00006", "GC101-00001", "GC101-00004", "GC101-00007"}
	if got := skus(page.Products); !slices.Equal(got, want) {
		t.Fatalf("category lists %v, want %v", got, want)
	}
	banana := s.Products[catalogue.ProductPath(products[1])]
	if got := skus(banana.Related); !slices.Equal(got, []string{"GC101-00006", "GC101-00003", "GC101-00001", "GC101-00004", "GC101-00007"}) {
		t.Fatalf("related of GC101-00002: %v", got)
	}
}

// TestMenuGroupsFollowTheCatalogue: the menu's groups come in the order of their first
// categories (Category.Order, not the order given), and a new group needs no code: it
// gets its place, its page and its counts from the data.
func TestMenuGroupsFollowTheCatalogue(t *testing.T) {
	t.Parallel()
	ranges, cats, products := shelf()
	s := Build(ranges, cats, products)
	if len(s.Menu.Groups) != 2 || s.Menu.Groups[0].Name != "Occasions" || s.Menu.Groups[1].Name != "Garden" {
		t.Fatalf("groups %+v", s.Menu.Groups)
	}
	swapped := slices.Clone(cats)
	swapped[0].Order, swapped[1].Order = 2, 1
	if g := Build(ranges, swapped, products).Menu.Groups; len(g) != 2 || g[0].Name != "Garden" || g[1].Name != "Occasions" {
		t.Fatalf("groups with Garden's category first: %+v", g)
	}
	garden := s.Menu.Groups[1].Categories
	if len(garden) != 1 || garden[0].ID != 150 || garden[0].Products != 1 {
		t.Fatalf("Garden group %+v", garden)
	}
	page, ok := s.Categories[garden[0].Path]
	if !ok || len(page.Products) != 1 || page.Range.URLText != "wholesale_cards" {
		t.Fatalf("Garden page %+v", page)
	}
	spade := s.Products[catalogue.ProductPath(products[9])]
	if spade.Category.Path != garden[0].Path || spade.Category.Group != "Garden" {
		t.Fatalf("Spade's category %+v", spade.Category)
	}
}

// TestPayloadTypesKeepTheWireRules holds the snapshot's files to the /api answers' rules
// (docs/api.md "The wire contract").
func TestPayloadTypesKeepTheWireRules(t *testing.T) {
	t.Parallel()
	for _, problem := range apitypes.WireProblems(PayloadTypes()...) {
		t.Error(problem)
	}
}

// A card carries the RRP and the margin it leaves at the list price; a product page the
// public break table at list prices, one row from 1 pack and one per break.
func TestRRPMarginAndBreakTable(t *testing.T) {
	t.Parallel()
	p := catalogue.Product{SKU: "GC101-00001", Slug: "apple-gc101-00001", Name: "Apple", CategoryID: 101, RangeURLText: "wholesale_cards",
		PackSize: 6, UnitPrice: 95, VATRate: 20, Stock: 600, RRP: 249,
		Breaks: pricing.Ladder{{From: 6, Price: 90}, {From: 12, Price: 85}}}
	c := Card(p)
	// RRP £2.49 inc VAT is £2.075 ex VAT: (207.5 − 95) ÷ 207.5 = 54.2%.
	if c.RRP == nil || *c.RRP != 249 || c.Margin == nil || *c.Margin != (MarginAnswer{RRP: 249, Tenths: 542}) {
		t.Fatalf("card RRP %v margin %+v", c.RRP, c.Margin)
	}
	if plain := Card(catalogue.Product{SKU: "X", PackSize: 6, UnitPrice: 95, VATRate: 20}); plain.RRP != nil || plain.Margin != nil {
		t.Fatalf("a card without an RRP: %+v", plain)
	}
	five, eleven := 5, 11
	want := []BreakRowAnswer{
		{FromPacks: 1, ToPacks: &five, UnitPrice: 95, PackPrice: 570, Margin: &MarginAnswer{RRP: 249, Tenths: 542}},
		{FromPacks: 6, ToPacks: &eleven, UnitPrice: 90, PackPrice: 540, Margin: &MarginAnswer{RRP: 249, Tenths: 566}},
		{FromPacks: 12, UnitPrice: 85, PackPrice: 510, Margin: &MarginAnswer{RRP: 249, Tenths: 590}},
	}
	got := Detail(p).Breaks
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("break table:\n got  %s\n want %s", rowsText(got), rowsText(want))
	}
	pct := p
	pct.RRP, pct.Breaks = 0, pricing.Ladder{{From: 10, Percent: 5}}
	// 95p less 5% (4.75p, rounded half up to 5p) is 90p; no RRP, no margin.
	if got := Detail(pct).Breaks; len(got) != 2 || got[1].UnitPrice != 90 || got[1].ToPacks != nil || got[0].Margin != nil {
		t.Fatalf("percent break table %s", rowsText(got))
	}
	if got := Detail(catalogue.Product{SKU: "X", PackSize: 6, UnitPrice: 95}).Breaks; got == nil || len(got) != 0 {
		t.Fatalf("no breaks should be [], got %#v", got)
	}
}

func rowsText(rows []BreakRowAnswer) string {
	var b strings.Builder
	for _, r := range rows {
		to := "up"
		if r.ToPacks != nil {
			to = strconv.Itoa(*r.ToPacks)
		}
		fmt.Fprintf(&b, "[%d–%s %d %d %+v] ", r.FromPacks, to, r.UnitPrice, r.PackPrice, r.Margin)
	}
	return b.String()
}
