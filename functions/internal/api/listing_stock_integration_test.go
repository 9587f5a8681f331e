package api

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/tradeshop/functions/internal/catalogue"
)

// TestListingStockNamesWhatIsNotInStock: POST /api/listing-stock answers the SKUs of a
// category's (or a range's, through its categories) active products that are out of
// stock or on pre-order, never an in-stock or low one or a discontinued one; an unknown
// category or range is 404, an empty one [], neither or both 400 naming the fields, and
// no token 401.
func TestListingStockNamesWhatIsNotInStock(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	if err := s.st.PutCatalogue(ctx, []catalogue.Range{{URLText: "ls_cards", Name: "Listing Cards", Order: 1}},
		[]catalogue.Category{
			{ID: 501, Slug: "ls-birthday", Name: "Birthday", RangeURLText: "ls_cards", Order: 1},
			{ID: 502, Slug: "ls-wedding", Name: "Wedding", RangeURLText: "ls_cards", Order: 2},
			{ID: 503, Slug: "ls-empty", Name: "Empty", RangeURLText: "ls_cards", Order: 3},
		}, nil, nil); err != nil {
		t.Fatal(err)
	}
	put := func(p catalogue.Product) catalogue.Product {
		t.Helper()
		if err := s.st.PutCatalogue(ctx, nil, nil, []catalogue.Product{p}, nil); err != nil {
			t.Fatal(err)
		}
		return p
	}
	inStock := s.inCategory(501, "Plenty Card")
	low := s.inCategory(501, "Low Card")
	low.Stock = 3 * low.PackSize
	put(low)
	out := s.inCategory(501, "Sold Out Card")
	out.Stock = low.PackSize - 1 // less than a pack is out of stock
	put(out)
	forward := s.inCategory(501, "Forward Card")
	forward.Forward = &catalogue.Forward{DeliveryFrom: "2099-09-01", OrderBy: "2099-06-30"}
	put(forward)
	gone := s.inCategory(501, "Discontinued Card")
	gone.Stock, gone.Status = 0, catalogue.StatusDiscontinued
	put(gone)
	wedding := s.inCategory(502, "Sold Out Wedding Card")
	wedding.Stock = 0
	put(wedding)
	s.inCategory(502, "Plenty Wedding Card")
	u := s.buyer()

	ask := func(body string) (int, map[string]any) {
		return s.c.post("/api/listing-stock", body, nil)
	}
	sorted := func(skus ...string) []string { slices.Sort(skus); return skus }
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"category", fmt.Sprintf(`{"token":%q,"category":501}`, u.IDToken), sorted(out.SKU, forward.SKU)},
		{"range", fmt.Sprintf(`{"token":%q,"range":"ls_cards"}`, u.IDToken), sorted(out.SKU, forward.SKU, wedding.SKU)},
		{"empty category", fmt.Sprintf(`{"token":%q,"category":503}`, u.IDToken), []string{}},
	} {
		code, body := ask(tc.body)
		got := []string{}
		list, ok := body["not_in_stock"].([]any)
		for _, v := range list {
			got = append(got, v.(string))
		}
		if code != 200 || !ok || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %d %v, want not_in_stock %v (in stock %s and low %s left out)", tc.name, code, body, tc.want, inStock.SKU, low.SKU)
		}
	}

	for _, tc := range []struct {
		name, body string
		code       int
		problems   []string
	}{
		{"unknown category", fmt.Sprintf(`{"token":%q,"category":999}`, u.IDToken), 404, nil},
		{"unknown range", fmt.Sprintf(`{"token":%q,"range":"ls_nothing"}`, u.IDToken), 404, nil},
		{"neither", fmt.Sprintf(`{"token":%q}`, u.IDToken), 400, []string{"category", "range"}},
		{"both", fmt.Sprintf(`{"token":%q,"category":501,"range":"ls_cards"}`, u.IDToken), 400, []string{"category", "range"}},
		{"not a category id", fmt.Sprintf(`{"token":%q,"category":0}`, u.IDToken), 400, []string{"category"}},
		{"not a range", fmt.Sprintf(`{"token":%q,"range":"No Such Range!"}`, u.IDToken), 400, []string{"range"}},
		{"no token", `{"category":501}`, 401, nil},
		{"a bad token", `{"token":"not-a-token","category":501}`, 401, nil},
	} {
		code, body := ask(tc.body)
		problems, _ := body["problems"].(map[string]any)
		var named []string
		for k := range problems {
			named = append(named, k)
		}
		slices.Sort(named)
		if code != tc.code || !slices.Equal(named, tc.problems) || body["error"] == nil {
			t.Errorf("%s: %d %v, want %d naming %v", tc.name, code, body, tc.code, tc.problems)
		}
	}
}
