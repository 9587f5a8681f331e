package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/store"
)

// Pricing a 500-line basket with quantity breaks for a buyer in a price group takes the
// same calls as for a buyer in none while the process's cache of the groups is warm (the
// issue's speed rule: docs/PERFORMANCE.md "Round trips"); a cold cache costs one Query
// of the groups, and a buyer in no group never reads them.
func TestPricingForABuyerInAGroupTakesNoMoreCallsWithAWarmCache(t *testing.T) {
	t.Parallel()
	st, c := countedStore(t)
	ctx := context.Background()
	cat, err := seed.Generate(600)
	if err != nil {
		t.Fatal(err)
	}
	var adds []basket.Add
	rules := pricing.Rules{Prices: map[string]int64{}, Discounts: map[string]int{}}
	for i := range cat.Products {
		p := &cat.Products[i]
		if len(adds) == basket.MaxLines || p.Discontinued() || p.Stock < p.PackSize || p.UnitPrice < 20 {
			continue
		}
		if i%3 == 0 {
			p.Breaks = pricing.Ladder{{From: 2, Percent: 5}, {From: 6, Percent: 10}}
		}
		if i%5 == 0 {
			rules.Prices["product:"+p.SKU] = p.UnitPrice - 1
		}
		rules.Discounts[fmt.Sprintf("category:%d", p.CategoryID)] = 3
		adds = append(adds, basket.Add{SKU: p.SKU, Quantity: p.PackSize, Limit: pricing.MaxLineUnits})
	}
	if len(adds) != basket.MaxLines {
		t.Fatalf("the seed gives %d lines to test with", len(adds))
	}
	if err := st.PutCatalogue(ctx, cat.Ranges, cat.Categories, cat.Products, nil); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	audit := orders.AuditEntry{At: now, By: orders.Staff{UID: "staff-1", Email: "staff@example.com"}, Action: "test"}
	if err := st.CreatePriceGroup(ctx, store.PriceGroupWrite{ID: "independents", Name: "Independents", Audit: audit}); err != nil {
		t.Fatal(err)
	}
	if err := st.ReplacePriceGroupRules(ctx, store.PriceGroupWrite{ID: "independents", Rules: rules, Seen: 1, Audit: audit}); err != nil {
		t.Fatal(err)
	}
	for _, uid := range []string{"in-group", "no-group"} {
		prof, err := st.CreateProfile(ctx, store.Profile{UID: uid, Business: "Cards " + uid, Email: uid + "@shop.test"}, now)
		if err != nil {
			t.Fatal(err)
		}
		if uid == "in-group" {
			if err := st.ChangeAccount(ctx, store.AccountChange{UID: uid, Seen: prof.UpdatedAt, PriceGroup: "independents", Audit: audit}); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.AddLines(ctx, uid, adds, now); err != nil {
			t.Fatal(err)
		}
	}
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	var took time.Duration
	price := func(uid string) (basket.Priced, string) {
		t.Helper()
		c.Take()
		start := time.Now()
		p, _, err := basket.PriceFor(ctx, st, shop, uid, now)
		took = time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		return p, c.Take().Breakdown()
	}

	_, none := price("no-group")
	st.ForgetPriceGroups()
	cold, coldCalls := price("in-group")
	warm, warmCalls := price("in-group")
	warmTook := took
	if len(warm.Lines) != basket.MaxLines || warm.Terms.Group == nil || warm.Terms.Group.ID != "independents" || warm.GoodsExVAT != cold.GoodsExVAT {
		t.Fatalf("priced %d lines for group %+v", len(warm.Lines), warm.Terms.Group)
	}
	var grouped, broken int
	for _, l := range warm.Lines {
		if l.Group == "independents" {
			grouped++
		}
		if l.Nudge != nil {
			broken++
		}
	}
	if grouped != basket.MaxLines || broken == 0 {
		t.Errorf("%d lines priced by the group, %d with a nudge", grouped, broken)
	}
	t.Logf("500 lines priced: no group %s; in a group, cold cache %s, warm %s (%v)", none, coldCalls, warmCalls, warmTook.Round(time.Millisecond))
	if warmCalls != none {
		t.Errorf("a warm cache: %s, a buyer in no group: %s; want the same", warmCalls, none)
	}
	if want := fmt.Sprintf("%s, Query 1", none); coldCalls != want && coldCalls != "Query 1, "+none {
		t.Errorf("a cold cache: %s, want %s", coldCalls, want)
	}
}
