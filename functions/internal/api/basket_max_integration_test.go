package api

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/testenv"
)

// A full basket (basket.MaxLines lines) answers a new line with a 409 saying so, on
// every path that adds one; a line already there still changes.
func TestFullBasketRefusesANewLine(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	var products []catalogue.Product
	for i := range basket.MaxLines + 2 {
		products = append(products, catalogue.Product{SKU: fmt.Sprintf("FB%03d-%05d", i%1000, i), Slug: fmt.Sprintf("full-%d", i),
			Name: fmt.Sprintf("Full basket product %d", i), CategoryID: 1, RangeURLText: "full", PackSize: 1, UnitPrice: 100, VATRate: 20, Stock: 1000})
	}
	if err := st.PutCatalogue(ctx, nil, nil, products, nil); err != nil {
		t.Fatal(err)
	}
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	c := newClient(t, h)
	u := testenv.NewUser(t)
	for i := 0; i < basket.MaxLines; i += basket.MaxAddLines {
		var adds []basket.Add
		for _, p := range products[i:min(i+basket.MaxAddLines, basket.MaxLines)] {
			adds = append(adds, basket.Add{SKU: p.SKU, Quantity: 1, Limit: 1000})
		}
		if err := st.AddLines(ctx, u.UID, adds, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	extra, old := products[basket.MaxLines], products[0]
	want := "Your basket holds the most lines it can (500): remove a line, or place an order, before adding another product."
	for _, tc := range []struct{ path, body string }{
		{"/api/basket/add", fmt.Sprintf(`{"token":%q,"sku":%q,"quantity":1}`, u.IDToken, extra.SKU)},
		{"/api/basket/set", fmt.Sprintf(`{"token":%q,"sku":%q,"quantity":1}`, u.IDToken, extra.SKU)},
		{"/api/basket/addMany", fmt.Sprintf(`{"token":%q,"lines":[{"sku":%q,"quantity":1},{"sku":%q,"quantity":1}]}`, u.IDToken, old.SKU, extra.SKU)},
	} {
		code, body := c.post(tc.path, tc.body, nil)
		if code != http.StatusConflict || body["error"] != want {
			t.Fatalf("%s: %d %v, want 409 %q", tc.path, code, body, want)
		}
	}
	if code, body := c.post("/api/basket/add", fmt.Sprintf(`{"token":%q,"sku":%q,"quantity":1}`, u.IDToken, old.SKU), nil); code != http.StatusOK {
		t.Fatalf("a line already there: %d %v", code, body)
	}
	if b, _ := st.Basket(ctx, u.UID); len(b.Lines) != basket.MaxLines {
		t.Fatalf("%d lines", len(b.Lines))
	}
}

// A reorder into a full basket names the lines that did not fit as such, not as
// "no longer available".
func TestReorderIntoAFullBasket(t *testing.T) {
	t.Parallel()
	s := newPagingShop(t)
	u, ids := s.buyer(1)
	for i := 0; i < basket.MaxLines; i += basket.MaxAddLines {
		var adds []basket.Add
		for j := i; j < min(i+basket.MaxAddLines, basket.MaxLines); j++ {
			adds = append(adds, basket.Add{SKU: fmt.Sprintf("RF%03d-%05d", j%1000, j), Quantity: 1, Limit: 1000})
		}
		if err := s.st.AddLines(context.Background(), u.UID, adds, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	code, body := s.c.post("/api/orders/"+ids[0]+"/reorder", fmt.Sprintf(`{"token":%q}`, u.IDToken), nil)
	if code != http.StatusOK || fmt.Sprint(body["basket_full"]) != "["+s.p.Name+"]" || fmt.Sprint(body["unavailable"]) != "[]" {
		t.Fatalf("%d %v", code, body)
	}
}
