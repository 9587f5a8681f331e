package api

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

func TestBasketAndCouponsAgainstLocalStack(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	cat := putSeedCatalogue(t, st, 200)
	alice, bob := testenv.NewNamedUser(t, "Alice Cards"), testenv.NewNamedUser(t, "Bob News")
	now := time.Now()
	coupons := append(seed.Coupons(now), store.StoredCoupon{Description: "Alice only", AccountUID: alice.UID,
		Coupon: pricing.Coupon{ID: "ALICE25", Kind: "percent", Percent: 25, ValidTo: now.AddDate(1, 0, 0)}})
	if err := st.PutCoupons(ctx, coupons); err != nil {
		t.Fatal(err)
	}
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	c := newClient(t, h)

	var inStock, outOfStock = cat.Products[0], cat.Products[0]
	for _, p := range cat.Products {
		if p.Stock == 0 {
			outOfStock = p
		} else if p.UnitPrice > 30 && p.Stock >= 100*p.PackSize {
			inStock = p
		}
	}
	if outOfStock.Stock != 0 {
		t.Fatal("seed has no out-of-stock product")
	}
	add := func(u testenv.User, sku string, qty int) (int, map[string]any) {
		return c.post("/api/basket/add", fmt.Sprintf(`{"token":%q,"sku":%q,"quantity":%d}`, u.IDToken, sku, qty), nil)
	}

	t.Run("bad quantities, unknown and out-of-stock SKUs are refused and write nothing", func(t *testing.T) {
		for _, tc := range []struct {
			sku    string
			qty    int
			status int
		}{
			{inStock.SKU, inStock.PackSize + 1, 400},
			{inStock.SKU, 0, 400},
			{inStock.SKU, -inStock.PackSize, 400},
			{inStock.SKU, pricing.MaxLineUnits + inStock.PackSize, 400},
			{"ZZ999-99999", 6, 404},
			{"not-a-sku", 6, 400},
			{outOfStock.SKU, outOfStock.PackSize, 409},
		} {
			code, body := add(alice, tc.sku, tc.qty)
			if code != tc.status || body["error"] == nil {
				t.Errorf("add %s x%d: %d %v, want %d", tc.sku, tc.qty, code, body, tc.status)
			}
		}
		if lines, _ := basketLines(ctx, st, alice.UID); len(lines) != 0 {
			t.Fatalf("refused adds wrote lines: %+v", lines)
		}
	})

	t.Run("add all: one bad line adds nothing; good lines all land", func(t *testing.T) {
		u := testenv.NewUser(t)
		bad := fmt.Sprintf(`{"token":%q,"lines":[{"sku":%q,"quantity":%d},{"sku":%q,"quantity":%d}]}`,
			u.IDToken, inStock.SKU, inStock.PackSize, outOfStock.SKU, outOfStock.PackSize)
		if code, b := c.post("/api/basket/addMany", bad, nil); code != 409 {
			t.Fatalf("bad batch: %d %v", code, b)
		}
		if lines, _ := basketLines(ctx, st, u.UID); len(lines) != 0 {
			t.Fatalf("a refused batch wrote %+v", lines)
		}
		other := cat.Products[1]
		if other.SKU == inStock.SKU || other.Stock < other.PackSize {
			t.Skip("seed layout changed")
		}
		good := fmt.Sprintf(`{"token":%q,"lines":[{"sku":%q,"quantity":%d},{"sku":%q,"quantity":%d}]}`,
			u.IDToken, inStock.SKU, 2*inStock.PackSize, other.SKU, other.PackSize)
		if code, b := c.post("/api/basket/addMany", good, nil); code != 200 || b["lines"] != float64(2) || len(b["changed"].([]any)) != 2 {
			t.Fatalf("good batch: %d %v", code, b)
		}
		// A single add answers the line as it is now and the basket's line count.
		code, b := add(u, other.SKU, other.PackSize)
		want := map[string]any{"lines": float64(2), "changed": []any{map[string]any{"sku": other.SKU, "quantity": float64(2 * other.PackSize)}}}
		if code != 200 || fmt.Sprint(b) != fmt.Sprint(want) {
			t.Fatalf("add: %d %v, want %v", code, b, want)
		}
	})

	t.Run("own prices apply the buyer's discounts", func(t *testing.T) {
		var xmas = cat.Products[0]
		for _, p := range cat.Products {
			if p.RangeURLText == "wholesale-christmas" && p.UnitPrice >= 100 {
				xmas = p
				break
			}
		}
		code, b := c.post("/api/prices", fmt.Sprintf(`{"token":%q,"skus":[%q,%q]}`, alice.IDToken, xmas.SKU, inStock.SKU), nil)
		prices, _ := b["prices"].(map[string]any)
		x, _ := prices[xmas.SKU].(map[string]any)
		if code != 200 || x["discount_percent"] != float64(5) || x["unit_price"] != float64(xmas.UnitPrice-(xmas.UnitPrice*5+50)/100) {
			t.Fatalf("%d %v", code, b)
		}
		if code, _ := c.post("/api/prices", fmt.Sprintf(`{"token":%q,"skus":[]}`, alice.IDToken), nil); code != 400 {
			t.Fatalf("empty skus: %d", code)
		}
	})

	t.Run("50 concurrent adds of one SKU end with the exact sum", func(t *testing.T) {
		var wg sync.WaitGroup
		for range 50 {
			wg.Go(func() {
				if code, body := add(bob, inStock.SKU, inStock.PackSize); code != 200 {
					t.Errorf("add: %d %v", code, body)
				}
			})
		}
		wg.Wait()
		lines, err := basketLines(ctx, st, bob.UID)
		if err != nil || len(lines) != 1 || lines[0].Quantity != 50*inStock.PackSize {
			t.Fatalf("lines %+v %v, want %d units", lines, err, 50*inStock.PackSize)
		}
	})

	t.Run("the full basket is priced like the pricing package prices it", func(t *testing.T) {
		if code, _ := add(alice, inStock.SKU, 2*inStock.PackSize); code != 200 {
			t.Fatal(code)
		}
		code, b := c.post("/api/basket", `{"token":"`+alice.IDToken+`"}`, nil)
		want := pricing.Price([]pricing.Line{basket.LineOf(inStock, 2*inStock.PackSize)},
			pricing.Terms{Shop: pricing.Rules{Discounts: map[string]int{"range:wholesale-christmas": 5}}}, nil, now)
		if code != 200 || b["goods_ex_vat"] != float64(want.GoodsExVAT) || b["vat"] != float64(want.VAT) || b["total_inc_vat"] != float64(want.TotalIncVAT) {
			t.Fatalf("%d %v, want %+v", code, b, want)
		}
	})

	t.Run("set and remove", func(t *testing.T) {
		code, b := c.post("/api/basket/set", fmt.Sprintf(`{"token":%q,"sku":%q,"quantity":%d}`, alice.IDToken, inStock.SKU, 3*inStock.PackSize), nil)
		if lines := b["lines"].([]any); code != 200 || lines[0].(map[string]any)["quantity"] != float64(3*inStock.PackSize) {
			t.Fatalf("set: %d %v", code, b)
		}
		code, b = c.post("/api/basket/set", fmt.Sprintf(`{"token":%q,"sku":%q,"quantity":%d}`, alice.IDToken, inStock.SKU, inStock.PackSize+1), nil)
		if code != 400 {
			t.Fatalf("set to a part pack: %d %v", code, b)
		}
		code, b = c.post("/api/basket/remove", fmt.Sprintf(`{"token":%q,"sku":%q}`, alice.IDToken, inStock.SKU), nil)
		if code != 200 || len(b["lines"].([]any)) != 0 {
			t.Fatalf("remove: %d %v", code, b)
		}
		code, b = c.post("/api/shoppingCartSmall", `{"token":"`+alice.IDToken+`"}`, nil)
		_ = b
		if code != 200 {
			t.Fatal(code)
		}
	})

	t.Run("coupons: foreign and unknown codes are 404, expired 409, a good one applies", func(t *testing.T) {
		body := func(u testenv.User, id string) string {
			return fmt.Sprintf(`{"token":%q,"active_coupon_id":%q}`, u.IDToken, id)
		}
		for _, tc := range []struct {
			path, body string
			status     int
		}{
			{"/api/updateCoupon", body(bob, "ALICE25"), 404},
			{"/api/getCoupon", body(bob, "ALICE25"), 404},
			{"/api/updateCoupon", body(bob, "NOSUCH"), 404},
			{"/api/updateCoupon", body(bob, "SUMMER20"), 409},
			{"/api/updateCoupon", body(bob, "NEXTYEAR"), 409},
			{"/api/updateCoupon", body(bob, "coupon-TRADE10"), 400},
			{"/api/getCoupon", body(alice, "ALICE25"), 200},
			{"/api/updateCoupon", body(bob, "TRADE10"), 200},
		} {
			if code, b := c.post(tc.path, tc.body, nil); code != tc.status {
				t.Errorf("%s %s: %d %v, want %d", tc.path, tc.body[len(tc.body)-20:], code, b, tc.status)
			}
		}
		p, err := st.Profile(ctx, bob.UID)
		if err != nil || p.ActiveCouponID != "coupon-TRADE10" {
			t.Fatalf("bob's active coupon %q %v", p.ActiveCouponID, err)
		}
		code, b := c.post("/api/basket", `{"token":"`+bob.IDToken+`"}`, nil)
		raw, _ := json.Marshal(b["coupon"])
		if code != 200 || b["coupon_discount"].(float64) <= 0 || string(raw) == "null" {
			t.Fatalf("coupon not applied: %d %v", code, b)
		}
		if code, _ := c.post("/api/updateCoupon", body(bob, ""), nil); code != 200 {
			t.Fatal("clearing the coupon failed")
		}
		if p, _ := st.Profile(ctx, bob.UID); p.ActiveCouponID != "" {
			t.Fatalf("coupon not cleared: %q", p.ActiveCouponID)
		}
	})
}
