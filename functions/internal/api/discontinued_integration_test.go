package api

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// discontinue marks p discontinued in the table, keeping its stock as it is now, as a
// catalogue import does; it answers p as stored.
func (s *raceShop) discontinue(p catalogue.Product) catalogue.Product {
	s.t.Helper()
	p.Stock = s.stock(p)
	p.Status = catalogue.StatusDiscontinued
	if err := s.st.PutCatalogue(context.Background(), nil, nil, []catalogue.Product{p}, nil); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// inCategory writes a product of category id with plenty of stock.
func (s *raceShop) inCategory(id int, name string) catalogue.Product {
	s.t.Helper()
	n := s.seq.Add(1)
	p := catalogue.Product{SKU: fmt.Sprintf("ZZ%03d-%05d", n%1000, n), Slug: fmt.Sprintf("race-%d", n), Name: name,
		CategoryID: id, RangeURLText: "race", PackSize: 6, UnitPrice: 100, VATRate: 20, Stock: 600}
	if err := s.st.PutCatalogue(context.Background(), nil, nil, []catalogue.Product{p}, nil); err != nil {
		s.t.Fatal(err)
	}
	return p
}

func names(list []any, key string) []string {
	var out []string
	for _, v := range list {
		out = append(out, v.(map[string]any)[key].(string))
	}
	return out
}

// TestDiscontinuedProductsAreNotSold: a discontinued product cannot be put in a basket
// (409 "… is no longer available"), a basket line of it is dropped as a line whose
// product left the catalogue is, a reorder names it unavailable, and neither the prices
// nor the recommendations answer it.
func TestDiscontinuedProductsAreNotSold(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	tok := func(u testenv.User) string { return fmt.Sprintf("%q", u.IDToken) }

	t.Run("add, addMany and set refuse it as no longer available", func(t *testing.T) {
		u := s.buyer()
		active, gone := s.product(600, 6, 100), s.discontinue(s.product(600, 6, 100))
		code, body := s.c.post("/api/basket/add", fmt.Sprintf(`{"token":%s,"sku":%q,"quantity":6}`, tok(u), gone.SKU), nil)
		if code != 409 || body["error"] != gone.Name+" is no longer available." {
			t.Fatalf("add: %d %v", code, body)
		}
		code, body = s.c.post("/api/basket/addMany", fmt.Sprintf(`{"token":%s,"lines":[{"sku":%q,"quantity":6},{"sku":%q,"quantity":6}]}`, tok(u), active.SKU, gone.SKU), nil)
		if code != 409 || !strings.HasSuffix(body["error"].(string), gone.Name+" is no longer available.") {
			t.Fatalf("addMany: %d %v", code, body)
		}
		code, body = s.c.post("/api/basket/set", fmt.Sprintf(`{"token":%s,"sku":%q,"quantity":12}`, tok(u), gone.SKU), nil)
		if code != 409 || body["error"] != gone.Name+" is no longer available." {
			t.Fatalf("set: %d %v", code, body)
		}
		if lines, _ := basketLines(ctx, s.st, u.UID); len(lines) != 0 {
			t.Fatalf("refused adds wrote %+v", lines)
		}
	})

	t.Run("a basket line of it is not listed, priced or counted", func(t *testing.T) {
		u := s.buyer()
		active, gone := s.product(600, 6, 100), s.product(600, 6, 250)
		s.set(u, active, 12)
		s.set(u, gone, 24)
		s.discontinue(gone)
		code, body := s.c.post("/api/basket", fmt.Sprintf(`{"token":%s}`, tok(u)), nil)
		if code != 200 || !slices.Equal(names(body["lines"].([]any), "sku"), []string{active.SKU}) || body["goods_ex_vat"] != float64(12*100) {
			t.Fatalf("basket: %d %v", code, body)
		}
		rec := httptest.NewRecorder()
		s.c.h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/shoppingCartSmall", strings.NewReader(fmt.Sprintf(`{"token":%s}`, tok(u)))))
		if rec.Code != 200 || strings.Contains(rec.Body.String(), gone.SKU) || !strings.Contains(rec.Body.String(), active.SKU) {
			t.Fatalf("shoppingCartSmall: %d %s", rec.Code, rec.Body.String())
		}
	})

	t.Run("a reorder names it unavailable and puts the rest back", func(t *testing.T) {
		u := s.buyer()
		active, gone := s.product(600, 6, 1000), s.product(600, 6, 1000)
		s.set(u, active, 12)
		s.set(u, gone, 12)
		code, o := s.place(u, "discontinued-reorder-1")
		if code != 201 {
			t.Fatalf("place: %d %v", code, o)
		}
		s.discontinue(gone)
		code, a := s.c.post("/api/orders/"+o["id"].(string)+"/reorder", fmt.Sprintf(`{"token":%s}`, tok(u)), nil)
		if code != 200 || !slices.Equal(toStrings(a["added"]), []string{active.Name}) || !slices.Equal(toStrings(a["unavailable"]), []string{gone.Name}) ||
			len(toStrings(a["basket_full"])) != 0 {
			t.Fatalf("reorder: %d %v", code, a)
		}
		if lines, _ := basketLines(ctx, s.st, u.UID); len(lines) != 1 || lines[0].SKU != active.SKU {
			t.Fatalf("basket after the reorder: %+v", lines)
		}
	})

	t.Run("the prices leave it out, as an unknown SKU", func(t *testing.T) {
		u := s.buyer()
		active, gone := s.product(600, 6, 100), s.discontinue(s.product(600, 6, 100))
		code, body := s.c.post("/api/prices", fmt.Sprintf(`{"token":%s,"skus":[%q,%q]}`, tok(u), active.SKU, gone.SKU), nil)
		prices, _ := body["prices"].(map[string]any)
		if code != 200 || len(prices) != 1 || prices[active.SKU] == nil {
			t.Fatalf("prices: %d %v", code, body)
		}
	})

	t.Run("recommendations never name it, nor go by a basket line of it", func(t *testing.T) {
		u := s.buyer()
		inBasket := s.inCategory(77, "Recommend A")
		gone := s.discontinue(s.inCategory(77, "Recommend B"))
		kept := s.inCategory(77, "Recommend C")
		s.discontinue(s.inCategory(77, "Recommend D"))
		s.set(u, inBasket, 6)
		code, body := s.c.post("/api/recommended", fmt.Sprintf(`{"token":%s}`, tok(u)), nil)
		if code != 200 || body["reason"] != "basket" || !slices.Equal(names(body["products"].([]any), "sku"), []string{kept.SKU}) {
			t.Fatalf("recommended: %d %v", code, body)
		}
		// A basket holding only a discontinued product's line says nothing of the buyer: a
		// buyer with no orders is shown the catalogue's first categories.
		other := s.buyer()
		lone := s.inCategory(78, "Recommend E")
		s.set(other, lone, 6)
		s.discontinue(lone)
		code, body = s.c.post("/api/recommended", fmt.Sprintf(`{"token":%s}`, tok(other)), nil)
		if code != 200 || body["reason"] != "catalogue" || slices.Contains(names(body["products"].([]any), "sku"), gone.SKU) {
			t.Fatalf("recommended from a discontinued line: %d %v", code, body)
		}
	})

	t.Run("staff still read it, with its status", func(t *testing.T) {
		staff := testenv.Staff(t, testenv.NewUser(t))
		active, gone := s.product(600, 6, 100), s.discontinue(s.product(600, 6, 100))
		for p, want := range map[string]string{active.SKU: "active", gone.SKU: "discontinued"} {
			code, body, _ := s.c.get("/api/admin/products/"+p, staff.IDToken)
			product, _ := body["product"].(map[string]any)
			if code != 200 || product["status"] != want {
				t.Fatalf("%s: %d %v, want status %s", p, code, body, want)
			}
		}
	})
}

func toStrings(v any) []string {
	list, _ := v.([]any)
	out := []string{}
	for _, s := range list {
		out = append(out, s.(string))
	}
	return out
}

// discontinuesAfterPricing is the store, except that the first time a basket's products
// are read (the basket is priced), it discontinues one of them: a catalogue import
// landing between pricing and placing.
type discontinuesAfterPricing struct {
	*store.Store
	shop *raceShop
	p    catalogue.Product
	done atomic.Bool
}

func (d *discontinuesAfterPricing) ProductsAndCoupon(ctx context.Context, uid string, skus []string, couponID string) (map[string]catalogue.Product, *basket.Coupon, error) {
	ps, c, err := d.Store.ProductsAndCoupon(ctx, uid, skus, couponID)
	if err == nil && d.done.CompareAndSwap(false, true) {
		d.shop.discontinue(d.p)
	}
	return ps, c, err
}

// TestPlacingRefusesAProductDiscontinuedMeanwhile: a product discontinued after the
// basket was priced fails its line's stock condition; the buyer is told it is no longer
// available (not that it is out of stock), nothing is written, and every unit a large
// order reserved before it is given back.
func TestPlacingRefusesAProductDiscontinuedMeanwhile(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	shop := testDeps(t, s.st, nil).Shop

	check := func(t *testing.T, u testenv.User, ps []catalogue.Product, gone catalogue.Product, lineCount int) {
		t.Helper()
		d := &discontinuesAfterPricing{Store: s.st, shop: s, p: gone}
		pl := orders.Placer{Store: d, Shop: shop, Now: time.Now, StaleAfter: orders.DefaultStaleAfter}
		_, _, err := pl.Place(ctx, orders.Request{UID: u.UID, IdempotencyKey: "discontinued-" + u.UID[:8], DeliveryOption: "standard"})
		var conflict *shoperr.ConflictError
		want := gone.Name + " is no longer available, so it has gone from your basket: check your basket and place the order again."
		if !errors.As(err, &conflict) || err.Error() != want {
			t.Fatalf("place: %T %v, want %q", err, err, want)
		}
		for _, p := range ps {
			if got := s.stock(p); got != 600 {
				t.Fatalf("%s has %d units after the refused order, want 600", p.SKU, got)
			}
		}
		if list, _ := s.st.Orders(ctx, u.UID); len(list) != 0 {
			t.Fatalf("a refused order was written: %+v", list)
		}
		if pending, _ := s.st.PendingOrders(ctx, time.Now().Add(time.Hour)); len(pending) != 0 {
			t.Fatalf("pending records left: %v", pending)
		}
		b, _ := s.st.Basket(ctx, u.UID)
		if len(b.Lines) != lineCount || b.PendingOrderID != "" {
			t.Fatalf("basket after the refused order: %d lines, pending %q", len(b.Lines), b.PendingOrderID)
		}
		// Priced again, the basket no longer has the line, and the rest can be ordered.
		code, body := s.place(u, "discontinued-again-"+u.UID[:8])
		if code != 201 || len(body["lines"].([]any)) != lineCount-1 {
			t.Fatalf("placing the rest: %d %v", code, body["error"])
		}
		if got := s.stock(gone); got != 600 {
			t.Fatalf("the discontinued product was sold: %d units left", got)
		}
	}

	t.Run("an order placed in one transaction", func(t *testing.T) {
		u := s.buyer()
		a, gone := s.product(600, 6, 1000), s.product(600, 6, 1000)
		s.set(u, a, 12)
		s.set(u, gone, 12)
		check(t, u, []catalogue.Product{a, gone}, gone, 2)
	})

	t.Run("a large order, discontinued in its last chunk", func(t *testing.T) {
		u := s.buyer()
		const lines = orders.ChunkLines + 1
		var ps []catalogue.Product
		var adds []basket.Add
		at := time.Now()
		for i := range lines {
			p := s.product(600, 6, 100)
			ps = append(ps, p)
			adds = append(adds, basket.Add{SKU: p.SKU, Quantity: 12, Limit: 10_000})
			if len(adds) == basket.MaxAddLines || i == lines-1 {
				if err := s.st.AddLines(ctx, u.UID, adds, at); err != nil {
					t.Fatal(err)
				}
				adds = nil
			}
		}
		// Lines added at one moment are ordered by SKU: the last product is the last line.
		check(t, u, ps, ps[lines-1], lines)
	})
}
