package api

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
)

// shelfReader is a catalogue, a basket and an order history in memory.
type shelfReader struct {
	products []catalogue.Product
	cats     []catalogue.Category
	basket   []string   // SKUs, newest first
	orders   [][]string // each order's SKUs, newest order first
}

func (s shelfReader) Basket(context.Context, string) (basket.Basket, error) {
	var b basket.Basket
	for _, sku := range s.basket {
		b.Lines = append(b.Lines, basket.Line{SKU: sku, Quantity: 6})
	}
	return b, nil
}

func (s shelfReader) OrdersPage(_ context.Context, _, _ string, n int) ([]orders.Order, string, error) {
	var out []orders.Order
	for _, skus := range s.orders[:min(n, len(s.orders))] {
		var o orders.Order
		for _, sku := range skus {
			o.Lines = append(o.Lines, orders.Line{SKU: sku, Quantity: 6})
		}
		out = append(out, o)
	}
	return out, "", nil
}

func (s shelfReader) ProductsBySKU(_ context.Context, skus []string) (map[string]catalogue.Product, error) {
	out := map[string]catalogue.Product{}
	for _, p := range s.products {
		if slices.Contains(skus, p.SKU) {
			out[p.SKU] = p
		}
	}
	return out, nil
}

func (s shelfReader) Categories(context.Context) ([]catalogue.Category, error) { return s.cats, nil }

func (s shelfReader) CategoryProducts(_ context.Context, id, limit int) ([]catalogue.Product, error) {
	var out []catalogue.Product
	for _, p := range s.products {
		if p.CategoryID == id && len(out) < limit {
			out = append(out, p)
		}
	}
	return out, nil
}

// TestRecommendFromWhatTheBuyerShowed: the basket's categories first; with nothing in the
// basket to go on, those of the buyer's newest orders; with neither, the catalogue's first
// categories in menu order (Category.Order), whatever their ids.
func TestRecommendFromWhatTheBuyerShowed(t *testing.T) {
	t.Parallel()
	// Categories 30, 10 and 20, shown in that order; two products in each, the second of
	// category 20 discontinued.
	cats := []catalogue.Category{{ID: 10, Order: 2}, {ID: 20, Order: 3}, {ID: 30, Order: 1}}
	var products []catalogue.Product
	for _, c := range cats {
		for i := range 2 {
			p := catalogue.Product{SKU: fmt.Sprintf("GC%03d-%05d", c.ID, i+1), CategoryID: c.ID, PackSize: 6, Stock: 60, UnitPrice: 50}
			if c.ID == 20 && i == 1 {
				p.Status = catalogue.StatusDiscontinued
			}
			products = append(products, p)
		}
	}
	for _, tc := range []struct {
		name       string
		basket     []string
		orders     [][]string
		wantReason string
		want       []string
	}{
		{"the basket's categories, not what it holds", []string{"GC010-00001"}, [][]string{{"GC020-00001"}}, fromBasket, []string{"GC010-00002"}},
		{"an empty basket: the newest orders' categories", nil, [][]string{{"GC020-00001"}, {"GC010-00001"}}, fromOrders,
			[]string{"GC020-00001", "GC010-00001", "GC010-00002"}},
		{"a basket of a discontinued product's line goes by the orders", []string{"GC020-00002"}, [][]string{{"GC010-00002"}}, fromOrders,
			[]string{"GC010-00001", "GC010-00002"}},
		{"a new buyer: the catalogue's first categories, in menu order", nil, nil, fromCatalogue,
			[]string{"GC030-00001", "GC010-00001", "GC020-00001", "GC030-00002", "GC010-00002"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reason, picked, err := recommend(context.Background(), shelfReader{products, cats, tc.basket, tc.orders}, "u1")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range picked {
				got = append(got, c.SKU)
			}
			if reason != tc.wantReason || !slices.Equal(got, tc.want) {
				t.Fatalf("recommended %s %v, want %s %v", reason, got, tc.wantReason, tc.want)
			}
		})
	}
}
