package store_test

import (
	"context"
	"testing"

	"github.com/tradeshop/functions/internal/catalogue"
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
