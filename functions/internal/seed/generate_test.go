package seed

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

func TestGenerateIsDeterministicAndExact(t *testing.T) {
	t.Parallel()
	a, err := Generate(DefaultProducts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(DefaultProducts)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs gave different catalogues")
	}
	if len(a.Products) != DefaultProducts {
		t.Fatalf("got %d products, want %d", len(a.Products), DefaultProducts)
	}
}

func TestLargerCatalogueContainsSmaller(t *testing.T) {
	t.Parallel()
	small, _ := Generate(500)
	big, _ := Generate(5000)
	bySKU := map[string]catalogue.Product{}
	for _, p := range big.Products {
		bySKU[p.SKU] = p
	}
	for _, p := range small.Products {
		if got, ok := bySKU[p.SKU]; !ok || !got.Equal(p) {
			t.Fatalf("product %s differs between sizes", p.SKU)
		}
	}
}

func TestCatalogueRules(t *testing.T) {
	t.Parallel()
	c, _ := Generate(DefaultProducts)

	wantRanges := []string{"wholesale_greeting_cards", "wholesale-christmas", "wholesale_gift_wrap",
		"wholesale_partyware", "wholesale_balloons", "wholesale_giftware", "wholesale_stationery"}
	var got []string
	for _, r := range c.Ranges {
		got = append(got, r.URLText)
	}
	if !reflect.DeepEqual(got, wantRanges) {
		t.Fatalf("ranges %v", got)
	}

	groups := map[string]bool{}
	ids, slugs := map[int]bool{}, map[string]bool{}
	rangeOK := map[string]bool{}
	for _, r := range wantRanges {
		rangeOK[r] = true
	}
	for _, cat := range c.Categories {
		groups[cat.Group] = true
		if ids[cat.ID] || slugs[cat.Slug] {
			t.Fatalf("category id or slug repeated: %+v", cat)
		}
		ids[cat.ID], slugs[cat.Slug] = true, true
		if !rangeOK[cat.RangeURLText] {
			t.Fatalf("category %s in unknown range %s", cat.Name, cat.RangeURLText)
		}
	}
	for _, g := range Groups {
		if !groups[g] {
			t.Fatalf("menu group %q has no category", g)
		}
	}

	perCat := map[int]int{}
	skus, pslugs := map[string]bool{}, map[string]bool{}
	for _, p := range c.Products {
		perCat[p.CategoryID]++
		if skus[p.SKU] || pslugs[p.Slug] {
			t.Fatalf("sku or slug repeated: %s", p.SKU)
		}
		skus[p.SKU], pslugs[p.Slug] = true, true
		if p.PackSize <= 0 || p.UnitPrice <= 0 || p.Stock < 0 || p.Stock%p.PackSize != 0 {
			t.Fatalf("bad pack, price or stock: %+v", p)
		}
		if p.CategoryID == 120 && p.UnitPrice != 19 {
			t.Fatalf("value card %s costs %dp, want 19p", p.SKU, p.UnitPrice)
		}
		if !strings.HasPrefix(p.SmallImg, "/media/") || !strings.HasPrefix(p.LargeImg, "/media/") {
			t.Fatalf("images: %s %s", p.SmallImg, p.LargeImg)
		}
	}
	for _, cat := range c.Categories {
		if perCat[cat.ID] == 0 {
			t.Fatalf("category %s has no products", cat.Name)
		}
	}
}

func TestGenerateBounds(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, -1, MaxProducts + 1} {
		if _, err := Generate(n); err == nil {
			t.Fatalf("Generate(%d) accepted", n)
		}
	}
}

func TestProductSVG(t *testing.T) {
	t.Parallel()
	c, _ := Generate(10)
	p := c.Products[0]
	svg := string(ProductSVG(p, ImageSizes.Large))
	if !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, `width="640"`) {
		t.Fatalf("svg: %.80s", svg)
	}
	if string(ProductSVG(p, 640)) != svg {
		t.Fatal("image not deterministic")
	}
}

// Every seed product has a believable RRP inc VAT on a shop's price point; the first
// four age balloons have public breaks the pricing rule accepts, of both kinds; the rest
// have none.
func TestRRPsAndBreaks(t *testing.T) {
	t.Parallel()
	c, _ := Generate(DefaultProducts)
	withBreaks := map[string]bool{}
	for _, p := range c.Products {
		incVAT := float64(p.UnitPrice) * float64(100+p.VATRate) / 100
		if ratio := float64(p.RRP) / incVAT; ratio < 1.75 || ratio > 2.9 {
			t.Errorf("%s: RRP %d is %.2f times the unit price with VAT (%d ex VAT)", p.SKU, p.RRP, ratio, p.UnitPrice)
		}
		if end := p.RRP % 100; end != 25 && end != 49 && end != 50 && end != 75 && end != 99 {
			t.Errorf("%s: RRP %d is not on a price point", p.SKU, p.RRP)
		}
		if len(p.Breaks) > 0 {
			withBreaks[p.SKU] = true
			if problem := p.Breaks.Check(p.UnitPrice, true); problem != "" || p.CategoryID != breaksCategory {
				t.Errorf("%s (category %d): breaks %v: %s", p.SKU, p.CategoryID, p.Breaks, problem)
			}
		}
	}
	want := map[string]bool{"BL603-00001": true, "BL603-00002": true, "BL603-00003": true, "BL603-00004": true}
	if !reflect.DeepEqual(withBreaks, want) {
		t.Errorf("products with breaks %v, want %v", withBreaks, want)
	}
	if c.Products[0].SKU != "GC101-00001" || c.Products[0].UnitPrice != 50 {
		t.Errorf("the first product is %s at %d: list prices must not move", c.Products[0].SKU, c.Products[0].UnitPrice)
	}
}

// The seed's one price group: Independents, a category discount and a product's fixed
// price (below its list price) with percent breaks, all of which the pricing rule takes.
func TestPriceGroups(t *testing.T) {
	t.Parallel()
	c, _ := Generate(DefaultProducts)
	groups := PriceGroups(c, time.Unix(0, 0))
	if len(groups) != 1 || groups[0].ID != "independents" || groups[0].Name != "Independents" || groups[0].Version != 1 {
		t.Fatalf("groups %+v", groups)
	}
	r := groups[0].Rules
	list := map[string]int64{}
	for _, p := range c.Products {
		list["product:"+p.SKU] = p.UnitPrice
	}
	if len(r.Discounts) != 1 || len(r.Prices) != 1 || len(r.Breaks) != 1 {
		t.Fatalf("rules %+v", r)
	}
	for k, price := range r.Prices {
		if price <= 0 || price >= list[k] {
			t.Errorf("%s: group price %d against list %d", k, price, list[k])
		}
		if problem := r.Breaks[k].Check(price, true); problem != "" {
			t.Errorf("%s: %s", k, problem)
		}
	}
	if _, err := pricing.NewTerms(pricing.Rules{}, &groups[0], ""); err != nil {
		t.Error(err)
	}
}
