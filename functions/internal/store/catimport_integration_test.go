package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// TestCatalogueForImportReadsEveryProductOnce: the products are read in SKU ranges side
// by side; SKUs on, just below and just above each range's bounds are each read once.
func TestCatalogueForImportReadsEveryProductOnce(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	skus := []string{"0", "4ZZ", "5", "5A", "9", "A", "AZZZ-1", "E", "GC101-00001", "I", "M", "MZ", "Q", "T-9", "U", "UA", "XM901-00001", "Z", "ZZZZ"}
	var ps []catalogue.Product
	for _, sku := range skus {
		ps = append(ps, catalogue.Product{SKU: sku, Slug: "p-" + sku, Name: "Product " + sku, CategoryID: 1, RangeURLText: "r", PackSize: 1, UnitPrice: 100, VATRate: 20})
	}
	if err := st.PutCatalogue(ctx, nil, nil, ps, nil); err != nil {
		t.Fatal(err)
	}
	_, _, got, err := st.CatalogueForImport(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, p := range got {
		seen[p.SKU]++
	}
	if len(got) != len(skus) {
		t.Fatalf("read %d products, want %d: %v", len(got), len(skus), seen)
	}
	for _, sku := range skus {
		if seen[sku] != 1 {
			t.Errorf("%s read %d times", sku, seen[sku])
		}
	}
}

// An update whose answer was lost (a paused store, a timeout) and is applied again — as a
// batch tool does after an unknown outcome — changes nothing the second time: the stock
// moves once, the audit entry is there once, and the second apply is no error. Both a
// group's transaction and a lone product's update are tried.
func TestProductUpdatesAppliedTwiceMoveTheStockOnce(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	at := time.UnixMilli(1_760_000_000_000)
	var before []catalogue.Product
	var ups []store.ProductUpdate
	for _, sku := range []string{"TW-1", "TW-2", "TW-3"} {
		p := catalogue.Product{SKU: sku, Slug: "p-" + strings.ToLower(sku), Name: "Product " + sku, CategoryID: 1, RangeURLText: "r",
			PackSize: 1, UnitPrice: 100, VATRate: 20, Stock: 10, Status: catalogue.StatusActive}
		before = append(before, p)
		after := p
		after.Name, after.UnitPrice = p.Name+" (new)", 120
		ups = append(ups, store.ProductUpdate{After: after, MarkStock: true, StockDelta: 5, StockTo: 15,
			Audit: &orders.AuditEntry{At: at, By: orders.Staff{UID: "staff", Email: "staff@example.com"}, Action: "import"}})
	}
	if err := st.PutCatalogue(ctx, nil, nil, before, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		ups  []store.ProductUpdate
	}{{"a group", ups[:2]}, {"a lone product", ups[2:]}} {
		t.Run(tc.name, func(t *testing.T) {
			for try := 1; try <= 2; try++ {
				if err := st.UpdateProducts(ctx, tc.ups, "job-1", nil); err != nil {
					t.Fatalf("apply %d: %v", try, err)
				}
			}
			for _, u := range tc.ups {
				got, err := st.Product(ctx, u.After.SKU)
				if err != nil {
					t.Fatal(err)
				}
				if got.Stock != 15 || got.Name != u.After.Name || got.UnitPrice != 120 {
					t.Errorf("%s: stock %d, name %q, price %d; want 15, %q, 120", u.After.SKU, got.Stock, got.Name, got.UnitPrice, u.After.Name)
				}
				trail, err := st.Audit(ctx, store.AuditProduct+u.After.SKU)
				if err != nil {
					t.Fatal(err)
				}
				if len(trail) != 1 {
					t.Errorf("%s: %d audit entries, want 1", u.After.SKU, len(trail))
				}
			}
		})
	}
}

// A product's RRP and break table are written by the catalogue load and by an import's
// update, read back as they were, and an update without them removes them.
func TestProductRRPAndBreaksRoundTrip(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	p := catalogue.Product{SKU: "RB-1", Slug: "p-rb-1", Name: "Product RB-1", CategoryID: 1, RangeURLText: "r", PackSize: 6,
		UnitPrice: 100, VATRate: 20, Status: catalogue.StatusActive, RRP: 249,
		Breaks: pricing.Ladder{{From: 6, Price: 90}, {From: 12, Price: 85}}}
	if err := st.PutCatalogue(ctx, nil, nil, []catalogue.Product{p}, nil); err != nil {
		t.Fatal(err)
	}
	check := func(want catalogue.Product) {
		t.Helper()
		got, err := st.Product(ctx, want.SKU)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) {
			t.Fatalf("read back\n got  %+v\n want %+v", got, want)
		}
	}
	check(p)
	p.RRP, p.Breaks = 299, pricing.Ladder{{From: 10, Percent: 5}}
	if err := st.UpdateProducts(ctx, []store.ProductUpdate{{After: p}}, "job-1", nil); err != nil {
		t.Fatal(err)
	}
	check(p)
	p.RRP, p.Breaks = 0, nil
	if err := st.UpdateProducts(ctx, []store.ProductUpdate{{After: p}}, "job-2", nil); err != nil {
		t.Fatal(err)
	}
	check(p)
}

// A product's facets and published date are written by the catalogue load, by an
// import's new products and by its update, read back as they were (nil lists for none),
// and an update without them removes them; a staff stock change and a forward marking
// leave them alone.
func TestProductFacetsAndPublishedRoundTrip(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	p := catalogue.Product{SKU: "FA-1", Slug: "p-fa-1", Name: "Product FA-1", CategoryID: 1, RangeURLText: "r", PackSize: 6,
		UnitPrice: 100, VATRate: 20, Stock: 12, Status: catalogue.StatusActive, Published: "2026-10-01",
		Facets: catalogue.Facets{Occasion: []string{"birthday", "anniversary"}, Recipient: []string{"her"}}}
	fresh := p
	fresh.SKU, fresh.Slug, fresh.Facets, fresh.Published = "FA-2", "p-fa-2", catalogue.Facets{Age: []string{"18"}, Style: []string{"gold-foil"}}, "2026-11-27"
	if err := st.PutCatalogue(ctx, nil, nil, []catalogue.Product{p}, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.PutNewProducts(ctx, []catalogue.Product{fresh}, "job-0", nil); err != nil {
		t.Fatal(err)
	}
	check := func(want catalogue.Product) {
		t.Helper()
		got, err := st.Product(ctx, want.SKU)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) {
			t.Fatalf("read back\n got  %+v\n want %+v", got, want)
		}
	}
	check(p)
	check(fresh)
	p.Facets = catalogue.Facets{Age: []string{"1", "100"}, Style: []string{"humour", "cute"}}
	p.Published = "2026-11-01"
	if err := st.UpdateProducts(ctx, []store.ProductUpdate{{After: p}}, "job-1", nil); err != nil {
		t.Fatal(err)
	}
	check(p)
	if err := st.ChangeStock(ctx, store.StockChange{SKU: p.SKU, From: 12, To: 18, Audit: orders.AuditEntry{At: time.Now(), Action: "stock"}}); err != nil {
		t.Fatal(err)
	}
	p.Stock = 18
	check(p)
	p.Facets, p.Published = catalogue.Facets{}, ""
	if err := st.UpdateProducts(ctx, []store.ProductUpdate{{After: p}}, "job-2", nil); err != nil {
		t.Fatal(err)
	}
	check(p)
}

// The seed's price groups are written as the price group store reads them.
func TestPutSeedPriceGroups(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	g := pricing.Group{ID: "independents", Name: "Independents", Version: 1, UpdatedAt: time.UnixMilli(1_760_000_000_000),
		Rules: pricing.Rules{Discounts: map[string]int{"category:604": 10}}}
	if err := st.PutSeedPriceGroups(ctx, []pricing.Group{g}); err != nil {
		t.Fatal(err)
	}
	got, err := st.PriceGroup(ctx, "independents")
	if err != nil || got.Name != "Independents" || got.Version != 1 || got.Rules.Discounts["category:604"] != 10 || !got.UpdatedAt.Equal(g.UpdatedAt) {
		t.Fatalf("read back %+v %v", got, err)
	}
}
