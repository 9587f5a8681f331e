package apicalls

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Targets of issue 19 ("Round trips"): the most DynamoDB calls one request may make, by
// endpoint and the request's words in Endpoints (any request of the endpoint when what is
// ""). docs/PERFORMANCE.md "Round trips" says why set and remove are 3, not 2.
var targets = []struct {
	endpoint, what string
	most           int
}{
	{"basketAdd", "", 2},
	{"basketAddMany", "", 2},
	{"basketSet", "", 3},
	{"basketRemove", "", 3},
	{"shoppingCartSmall", "", 3},
	{"basket", "", 2},
	{"checkout", "", 2},
	{"getProfile", "a returning buyer's profile", 1},
	{"prices", "", 1},
	{"skus", "", 1},
	{"listingStock", "In stock now on a category page", 1},
	{"recommended", "", 2 + basketCategoriesMost},
	{"reorder", "", 3},
	{"listBasket", "", 3},
	{"orders", "places the 20-line order, with the coupon", 6},
}

// basketCategoriesMost is the most categories a recommendation reads (api's
// basketCategories).
const basketCategoriesMost = 4

// TestRoundTrips makes one request to every route and holds each counted request to its
// target; then, at baskets of 1, 20 and 90 lines (90: still one batch read of the
// products and one order transaction, so any call per line or per category shows), holds
// the requests whose cost could grow with the basket to the same count at every size.
func TestRoundTrips(t *testing.T) {
	if os.Getenv("DYNAMODB_ENDPOINT") == "" || os.Getenv("FIREBASE_AUTH_EMULATOR_HOST") == "" {
		t.Skip("DYNAMODB_ENDPOINT and FIREBASE_AUTH_EMULATOR_HOST are not set: the test needs the local stack (run scripts/test)")
	}
	t.Parallel()
	b, err := Open(context.Background(), os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	rows, err := b.Endpoints()
	if err != nil {
		t.Fatal(err)
	}
	if missing := b.Missing(rows); len(missing) > 0 {
		t.Errorf("no request made to %s: add one to Endpoints", strings.Join(missing, ", "))
	}
	for _, tg := range targets {
		seen := false
		for _, r := range rows {
			if r.Endpoint != tg.endpoint || (tg.what != "" && r.What != tg.what) {
				continue
			}
			seen = true
			if r.Count.Total > tg.most {
				t.Errorf("%s (%s): %d DynamoDB calls (%s), the most it may make is %d", r.Route, r.What, r.Count.Total, r.Count.Breakdown(), tg.most)
			}
		}
		if !seen {
			t.Errorf("no request of %s %q was counted", tg.endpoint, tg.what)
		}
	}

	sizes := []int{1, 20, 90}
	growth, err := b.Growth(sizes)
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]map[int]GrowthRow{}
	for _, r := range growth {
		if at[r.Endpoint] == nil {
			at[r.Endpoint] = map[int]GrowthRow{}
		}
		at[r.Endpoint][r.Lines] = r
	}
	for endpoint, bySize := range at {
		// A recommendation reads one category per newest line until it has 4: from 20
		// lines on (20 categories) it may not grow.
		from := 1
		if endpoint == "recommended" {
			from = 20
		}
		first := bySize[from]
		for _, n := range sizes {
			if r := bySize[n]; n > from && r.Count.Total != first.Count.Total {
				t.Errorf("%s grows with the basket: %s at %d lines (%d categories), %s at %d lines (%d categories)", endpoint,
					calls(first), from, first.Categories, calls(r), n, r.Categories)
			}
		}
	}
	for _, r := range growth {
		for _, tg := range targets {
			if tg.endpoint == r.Endpoint && tg.what == "" && r.Count.Total > tg.most {
				t.Errorf("%s at %d lines: %s, the most it may make is %d", r.Endpoint, r.Lines, calls(r), tg.most)
			}
		}
	}
}

// TestPricingWithAGroupCostsNoMoreCalls holds issue 37's target (item 5): a 500-line
// basket priced at its breaks for a buyer in a price group, once the group cache is warm,
// makes no more DynamoDB calls than for a buyer without one (and one Query more when the
// cache is cold).
func TestPricingWithAGroupCostsNoMoreCalls(t *testing.T) {
	if os.Getenv("DYNAMODB_ENDPOINT") == "" || os.Getenv("FIREBASE_AUTH_EMULATOR_HOST") == "" {
		t.Skip("DYNAMODB_ENDPOINT and FIREBASE_AUTH_EMULATOR_HOST are not set: the test needs the local stack (run scripts/test)")
	}
	t.Parallel()
	b, err := Open(context.Background(), os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	rows, err := b.Pricing()
	if err != nil {
		t.Fatal(err)
	}
	without := map[string]PricingRow{}
	for _, r := range rows {
		if r.Buyer == "no price group" {
			without[r.Endpoint] = r
		}
	}
	for _, r := range rows {
		w, ok := without[r.Endpoint]
		if !ok {
			t.Fatalf("no figure without a price group for %s", r.Endpoint)
		}
		t.Logf("%s, %d lines, %s: %d calls (%s), median %v", r.Endpoint, r.Lines, r.Buyer, r.Count.Total, r.Count.Breakdown(), r.Median)
		if r.Buyer == ColdCache {
			// A cold cache reads the groups once: one Query more.
			if r.Count.Total > w.Count.Total+1 {
				t.Errorf("%s with a cold group cache: %d calls (%s), without a group %d", r.Endpoint, r.Count.Total, r.Count.Breakdown(), w.Count.Total)
			}
			continue
		}
		if r.Count.Total > w.Count.Total {
			t.Errorf("%s with a price group (warm cache): %d calls (%s), without one %d (%s)", r.Endpoint, r.Count.Total, r.Count.Breakdown(),
				w.Count.Total, w.Count.Breakdown())
		}
	}
}

func calls(r GrowthRow) string {
	return fmt.Sprintf("%d calls (%s)", r.Count.Total, r.Count.Breakdown())
}
