package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// TestPricesAddUpAgainstLocalStack: every price the buyer is shown multiplies out — a
// basket or order line is its units × the unit price charged, a pack price is the pack
// size × that unit price — and the basket keeps its line order and tells checkout how far
// it is below the minimum order.
func TestPricesAddUpAgainstLocalStack(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	cat := putSeedCatalogue(t, st, 300)
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	c := newClient(t, h)
	u := testenv.NewUser(t)

	// A Christmas product (the public 5% discount) and one without a discount.
	var xmas, plain catalogue.Product
	for _, p := range cat.Products {
		switch {
		case xmas.SKU == "" && p.RangeURLText == "wholesale-christmas" && p.UnitPrice >= 100 && p.Stock >= 25*p.PackSize:
			xmas = p
		case plain.SKU == "" && p.RangeURLText != "wholesale-christmas" && p.Stock >= 25*p.PackSize:
			plain = p
		}
	}
	if xmas.SKU == "" || plain.SKU == "" {
		t.Fatalf("the seed has no product to test with: %q %q", xmas.SKU, plain.SKU)
	}
	n := func(v any) int64 {
		f, _ := v.(float64)
		return int64(f)
	}
	getBasket := func() []map[string]any {
		t.Helper()
		code, b := c.post("/api/basket", fmt.Sprintf(`{"token":%q}`, u.IDToken), nil)
		if code != 200 {
			t.Fatalf("basket: %d %v", code, b)
		}
		var lines []map[string]any
		for _, l := range b["lines"].([]any) {
			lines = append(lines, l.(map[string]any))
		}
		return lines
	}
	checkLines := func(t *testing.T, lines []map[string]any) {
		t.Helper()
		for _, l := range lines {
			list, unit, pct := n(l["list_price"]), n(l["unit_price"]), n(l["discount_percent"])
			if n(l["quantity"])*unit != n(l["line_amount"]) || unit != list-(list*pct+50)/100 {
				t.Errorf("%v: %d units × %dp (list %dp less %d%%) is not the line's %dp", l["sku"], n(l["quantity"]), unit, list, pct, n(l["line_amount"]))
			}
		}
	}

	t.Run("own pack prices are the pack size × the buyer's unit price", func(t *testing.T) {
		code, b := c.post("/api/prices", fmt.Sprintf(`{"token":%q,"skus":[%q,%q]}`, u.IDToken, xmas.SKU, plain.SKU), nil)
		if code != 200 {
			t.Fatalf("%d %v", code, b)
		}
		for _, p := range []catalogue.Product{xmas, plain} {
			got := b["prices"].(map[string]any)[p.SKU].(map[string]any)
			unit, pack := n(got["unit_price"]), n(got["pack_price"])
			if n(got["pack_size"]) != int64(p.PackSize) || pack != int64(p.PackSize)*unit || n(got["pack_price_inc_vat"]) != pack+(pack*int64(p.VATRate)+50)/100 {
				t.Errorf("%s (pack of %d): %v", p.SKU, p.PackSize, got)
			}
		}
	})

	t.Run("basket lines are units × the unit price charged, and keep their order when a quantity changes", func(t *testing.T) {
		base := time.Now().Add(-time.Minute)
		if err := st.AddLines(ctx, u.UID, []basket.Add{{SKU: xmas.SKU, Quantity: 3 * xmas.PackSize, Limit: 10_000}}, base); err != nil {
			t.Fatal(err)
		}
		if err := st.AddLines(ctx, u.UID, []basket.Add{{SKU: plain.SKU, Quantity: plain.PackSize, Limit: 10_000}}, base.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		order := func() []string {
			var skus []string
			for _, l := range getBasket() {
				skus = append(skus, l["sku"].(string))
			}
			return skus
		}
		want := []string{plain.SKU, xmas.SKU} // newest added first
		if got := order(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("order %v, want %v", got, want)
		}
		code, b := c.post("/api/basket/set", fmt.Sprintf(`{"token":%q,"sku":%q,"quantity":%d}`, u.IDToken, xmas.SKU, 5*xmas.PackSize), nil)
		if code != 200 {
			t.Fatalf("set: %d %v", code, b)
		}
		if got := order(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("after a quantity change the order is %v, want %v", got, want)
		}
		if err := st.AddLines(ctx, u.UID, []basket.Add{{SKU: xmas.SKU, Quantity: xmas.PackSize, Limit: 10_000}}, time.Now()); err != nil {
			t.Fatal(err)
		}
		if got := order(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("after adding to a line the order is %v, want %v", got, want)
		}
		lines := getBasket()
		checkLines(t, lines)
		if n(lines[1]["discount_percent"]) != 5 || n(lines[1]["list_price"]) != xmas.UnitPrice {
			t.Fatalf("the Christmas line: %v", lines[1])
		}
	})

	t.Run("checkout says how far below the minimum order the basket is", func(t *testing.T) {
		small := testenv.NewUser(t)
		if err := st.SetLine(ctx, small.UID, plain.SKU, plain.PackSize, time.Now()); err != nil {
			t.Fatal(err)
		}
		for _, who := range []testenv.User{small, u} {
			code, info := c.post("/api/checkout", fmt.Sprintf(`{"token":%q}`, who.IDToken), nil)
			_, b := c.post("/api/basket", fmt.Sprintf(`{"token":%q}`, who.IDToken), nil)
			below := max(0, 10_000-n(b["net_ex_vat"]))
			if code != 200 || n(info["minimum_order"]) != 10_000 || n(info["below_minimum_by"]) != below {
				t.Fatalf("checkout %d %v; basket net %v", code, info, b["net_ex_vat"])
			}
			if (who == small) != (below > 0) {
				t.Fatalf("the test's baskets: net %v", b["net_ex_vat"])
			}
		}
	})

	t.Run("order lines, placed and read back, are units × the unit price charged", func(t *testing.T) {
		if err := st.SaveBilling(ctx, u.UID, store.Billing{Company: "Shop Ltd", Contact: "Pat", PaymentMethod: "proforma",
			Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
			t.Fatal(err)
		}
		code, o := c.post("/api/orders", fmt.Sprintf(`{"token":%q,"idempotency_key":"prices-add-up-0001","delivery_option":"standard","same_as_billing":true}`, u.IDToken), nil)
		if code != 201 {
			t.Fatalf("%d %v", code, o)
		}
		r := httptest.NewRequest("GET", "/api/orders/"+o["id"].(string), nil)
		r.Header.Set("Authorization", "Bearer "+u.IDToken)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var read map[string]any
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &read) != nil {
			t.Fatalf("read back: %d %s", rec.Code, rec.Body.String())
		}
		for _, order := range []map[string]any{o, read} {
			var lines []map[string]any
			for _, l := range order["lines"].([]any) {
				lines = append(lines, l.(map[string]any))
			}
			if len(lines) != 2 {
				t.Fatalf("lines %v", lines)
			}
			checkLines(t, lines)
		}
	})
}
