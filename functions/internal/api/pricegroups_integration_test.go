package api

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// TestGroupsBreaksAndMarginsOnEveryPathAgainstLocalStack: a buyer in a price group sees
// the group's prices, named with the read's age, on /api/prices, in the basket and in a
// quick order's check; a basket line's unit price changes across a quantity break, with
// the nudge under it; a product with an RRP carries the buyer's margin. Every figure is
// the one pricing.PriceOne (or pricing.Table) makes of the same product and terms.
func TestGroupsBreaksAndMarginsOnEveryPathAgainstLocalStack(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	cat, err := seed.Generate(300)
	if err != nil {
		t.Fatal(err)
	}
	// fixed gets the group's own price; broken a break table and an RRP, in a category
	// the group takes 10% off. Neither has the public Christmas discount.
	fixedAt, brokenAt := -1, -1
	for i, p := range cat.Products {
		if len(p.Breaks) > 0 || p.RangeURLText == "wholesale-christmas" || p.UnitPrice < 50 || p.Stock < 30*p.PackSize || p.Discontinued() {
			continue
		}
		switch {
		case fixedAt < 0:
			fixedAt = i
		case brokenAt < 0 && p.CategoryID != cat.Products[fixedAt].CategoryID:
			brokenAt = i
		}
	}
	if fixedAt < 0 || brokenAt < 0 {
		t.Fatal("the seed has no products to test with")
	}
	b := &cat.Products[brokenAt]
	b.Breaks = pricing.Ladder{{From: 4, Price: b.UnitPrice - 5}, {From: 10, Price: b.UnitPrice - 10}}
	b.RRP = 3 * b.UnitPrice
	cat.Products[fixedAt].RRP = 0 // no RRP: no margin
	fixed, broken := cat.Products[fixedAt], *b
	if err := st.PutCatalogue(ctx, cat.Ranges, cat.Categories, cat.Products, nil); err != nil {
		t.Fatal(err)
	}

	now := time.Now()
	audit := orders.AuditEntry{At: now, By: orders.Staff{UID: "staff-1", Email: "staff@example.com"}, Action: "test"}
	rules := pricing.Rules{Prices: map[string]int64{"product:" + fixed.SKU: fixed.UnitPrice - 7},
		Discounts: map[string]int{fmt.Sprintf("category:%d", broken.CategoryID): 10}}
	if err := st.CreatePriceGroup(ctx, store.PriceGroupWrite{ID: "independents", Name: "Independents", Audit: audit}); err != nil {
		t.Fatal(err)
	}
	if err := st.ReplacePriceGroupRules(ctx, store.PriceGroupWrite{ID: "independents", Rules: rules, Seen: 1, Audit: audit}); err != nil {
		t.Fatal(err)
	}
	group, err := st.PriceGroup(ctx, "independents")
	if err != nil {
		t.Fatal(err)
	}
	u := testenv.NewUser(t)
	prof, err := st.CreateProfile(ctx, store.Profile{UID: u.UID, Business: "Corner Cards", Email: u.Email}, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.ChangeAccount(ctx, store.AccountChange{UID: u.UID, Seen: prof.UpdatedAt, PriceGroup: "independents", Audit: audit}); err != nil {
		t.Fatal(err)
	}

	deps := testDeps(t, st, testenv.Verifier(t))
	terms := pricing.Terms{Shop: pricing.ShopRules(deps.Shop.DefaultDiscounts, nil), Group: &group}
	c := newClient(t, NewHandler(deps))
	n := func(v any) int64 {
		f, _ := v.(float64)
		return int64(f)
	}
	obj := func(v any) map[string]any { m, _ := v.(map[string]any); return m }
	priced := func(p catalogue.Product, packs int) pricing.PricedLine {
		return pricing.PriceOne(basket.LineOf(p, packs*p.PackSize), terms)
	}
	checkGroup := func(t *testing.T, where string, ref any) {
		t.Helper()
		g := obj(ref)
		if g["id"] != "independents" || g["name"] != "Independents" || n(g["age_seconds"]) < 0 || n(g["age_seconds"]) > 60 {
			t.Errorf("%s: price_group %v, want independents", where, ref)
		}
	}
	checkMargin := func(t *testing.T, where string, got any, want *pricing.Margin) {
		t.Helper()
		m := obj(got)
		if want == nil {
			if got != nil {
				t.Errorf("%s: margin %v, want null", where, got)
			}
			return
		}
		if n(m["rrp"]) != want.RRP || n(m["tenths"]) != int64(want.Tenths) {
			t.Errorf("%s: margin %v, want %+v", where, got, *want)
		}
	}
	checkBreaks := func(t *testing.T, where string, got any, p catalogue.Product) {
		t.Helper()
		rows, _ := got.([]any)
		want := pricing.Table(basket.LineOf(p, p.PackSize), terms)
		if len(rows) != len(want) {
			t.Fatalf("%s: breaks %v, want %+v", where, got, want)
		}
		for i, w := range want {
			r := obj(rows[i])
			to := any(nil)
			if w.ToPacks > 0 {
				to = float64(w.ToPacks)
			}
			if n(r["from_packs"]) != int64(w.FromPacks) || r["to_packs"] != to || n(r["unit_price"]) != w.UnitPrice || n(r["pack_price"]) != w.PackPrice {
				t.Errorf("%s: break row %d %v, want %+v", where, i, r, w)
			}
			checkMargin(t, where, r["margin"], w.Margin)
		}
	}

	t.Run("prices: the group's price, the buyer's break table and margin", func(t *testing.T) {
		code, a := c.post("/api/prices", fmt.Sprintf(`{"token":%q,"skus":[%q,%q]}`, u.IDToken, fixed.SKU, broken.SKU), nil)
		if code != 200 {
			t.Fatalf("%d %v", code, a)
		}
		checkGroup(t, "prices", a["price_group"])
		f, br := obj(obj(a["prices"])[fixed.SKU]), obj(obj(a["prices"])[broken.SKU])
		if n(f["unit_price"]) != fixed.UnitPrice-7 || n(f["unit_price"]) != priced(fixed, 1).NetUnitPrice || len(f["breaks"].([]any)) != 0 {
			t.Errorf("the group's product: %v, want %dp a unit", f, fixed.UnitPrice-7)
		}
		checkMargin(t, "prices", f["margin"], nil)
		one := priced(broken, 1)
		if n(br["unit_price"]) != one.NetUnitPrice || n(br["discount_percent"]) != 10 {
			t.Errorf("the group's category: %v, want %+v", br, one)
		}
		checkMargin(t, "prices", br["margin"], one.Margin)
		checkBreaks(t, "prices", br["breaks"], broken)
		if rows := br["breaks"].([]any); n(obj(rows[1])["unit_price"]) != (broken.UnitPrice-5)-pricing.RoundPercent(broken.UnitPrice-5, 10) {
			t.Errorf("the 4-pack break is its price less the group's 10%%: %v", rows[1])
		}
	})

	line := func(t *testing.T, a map[string]any, sku string) map[string]any {
		t.Helper()
		for _, l := range a["lines"].([]any) {
			if obj(l)["sku"] == sku {
				return obj(l)
			}
		}
		t.Fatalf("no line of %s in %v", sku, a["lines"])
		return nil
	}
	checkLine := func(t *testing.T, where string, l map[string]any, p catalogue.Product, packs int) {
		t.Helper()
		want := priced(p, packs)
		from := any(nil)
		if want.BreakFrom > 0 {
			from = float64(want.BreakFrom)
		}
		if n(l["quantity"]) != int64(packs*p.PackSize) || n(l["base_price"]) != want.BasePrice || l["break_from"] != from ||
			n(l["break_price"]) != want.BreakPrice || n(l["unit_price"]) != want.NetUnitPrice || n(l["line_amount"]) != want.NetAmount ||
			n(l["quantity"])*n(l["unit_price"]) != n(l["line_amount"]) || l["price_group"] != "Independents" {
			t.Errorf("%s: line %v, want %+v", where, l, want)
		}
		checkMargin(t, where, l["margin"], want.Margin)
	}

	t.Run("the basket: the group's prices, the break across its packs and the nudge under it", func(t *testing.T) {
		for _, set := range []struct {
			p     catalogue.Product
			packs int
		}{{fixed, 1}, {broken, 2}} {
			if code, a := c.post("/api/basket/set", fmt.Sprintf(`{"token":%q,"sku":%q,"quantity":%d}`, u.IDToken, set.p.SKU, set.packs*set.p.PackSize), nil); code != 200 {
				t.Fatalf("set: %d %v", code, a)
			}
		}
		code, a := c.post("/api/basket", fmt.Sprintf(`{"token":%q}`, u.IDToken), nil)
		if code != 200 {
			t.Fatalf("%d %v", code, a)
		}
		checkGroup(t, "basket", a["price_group"])
		checkLine(t, "the group's product", line(t, a, fixed.SKU), fixed, 1)
		under := line(t, a, broken.SKU)
		checkLine(t, "2 packs, under the 4-pack break", under, broken, 2)
		want := priced(broken, 2).Nudge
		if nudge := obj(under["nudge"]); want == nil || n(nudge["add_packs"]) != 2 || n(nudge["unit_price"]) != want.UnitPrice || n(nudge["saving"]) != want.Saving {
			t.Errorf("the nudge: %v, want %+v", under["nudge"], want)
		}

		code, a = c.post("/api/basket/set", fmt.Sprintf(`{"token":%q,"sku":%q,"quantity":%d}`, u.IDToken, broken.SKU, 4*broken.PackSize), nil)
		if code != 200 {
			t.Fatalf("set: %d %v", code, a)
		}
		checkGroup(t, "basket/set", a["price_group"])
		at := line(t, a, broken.SKU)
		checkLine(t, "4 packs, at the break", at, broken, 4)
		if n(at["break_from"]) != 4 || n(at["unit_price"]) >= n(under["unit_price"]) || at["nudge"] != nil {
			t.Errorf("at the break the unit price falls from %v: %v", under["unit_price"], at)
		}
	})

	t.Run("quick order: the group's prices, the table, the margin and the line amount at the break", func(t *testing.T) {
		code, a := c.post("/api/skus", fmt.Sprintf(`{"token":%q,"lines":[{"sku":%q,"quantity":%d},{"sku":%q,"quantity":%d}]}`,
			u.IDToken, fixed.SKU, 3*fixed.PackSize, broken.SKU, 10*broken.PackSize), nil)
		if code != 200 {
			t.Fatalf("%d %v", code, a)
		}
		lines := a["lines"].([]any)
		for i, w := range []struct {
			p     catalogue.Product
			packs int
		}{{fixed, 3}, {broken, 10}} {
			l := obj(lines[i])
			prod, one := obj(l["product"]), priced(w.p, 1)
			if n(prod["unit_price"]) != one.NetUnitPrice || n(prod["pack_price"]) != one.NetAmount || n(l["line_amount"]) != priced(w.p, w.packs).NetAmount {
				t.Errorf("%s: %v, want one pack %+v and %d packs %dp", w.p.SKU, l, one, w.packs, priced(w.p, w.packs).NetAmount)
			}
			checkMargin(t, "skus", prod["margin"], one.Margin)
			checkBreaks(t, "skus", prod["breaks"], w.p)
		}
		if n(obj(lines[1])["line_amount"]) != int64(10*broken.PackSize)*((broken.UnitPrice-10)-pricing.RoundPercent(broken.UnitPrice-10, 10)) {
			t.Errorf("10 packs are at the 10-pack break less 10%%: %v", lines[1])
		}
	})
}
