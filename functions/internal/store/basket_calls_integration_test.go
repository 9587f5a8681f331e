package store_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/aws/smithy-go/middleware"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/callcount"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// countedStore is a fresh table through a store whose every call c counts.
func countedStore(t *testing.T) (*store.Store, *callcount.Counter) {
	t.Helper()
	base := testenv.Store(t)
	c := callcount.New()
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName, cfg.APIOptions = base.TableName(), []func(*middleware.Stack) error{c.Middleware}
	st, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return st, c
}

func held(b basket.Basket) map[string]int {
	out := map[string]int{}
	for _, l := range b.Lines {
		out[l.SKU] = l.Quantity
	}
	return out
}

// A basket write given the basket as a read found it makes no read of its own, and
// answers the basket after it. When the basket changed since that read in a way the
// write's conditions see (a line there that the read did not have, another version under
// a large add), the condition fails and the next attempt works from the item the failure
// handed back: every unit still counts, the line count stays right, and no attempt reads
// the basket. A change the conditions do not need to see (an add to another line) costs
// nothing.
func TestBasketWritesWorkFromTheBasketTheyAreGiven(t *testing.T) {
	t.Parallel()
	st, c := countedStore(t)
	ctx := context.Background()
	add := func(sku string, q int) basket.Add { return basket.Add{SKU: sku, Quantity: q, Limit: 600} }
	check := func(what string, got basket.Basket, err error, want map[string]int, calls string) {
		t.Helper()
		n := c.Take()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if fmt.Sprint(held(got)) != fmt.Sprint(want) || n.Breakdown() != calls {
			t.Errorf("%s: basket %v in %s, want %v in %s", what, held(got), n.Breakdown(), want, calls)
		}
		if count, kept, err := st.LineCountForTest(ctx, "u1"); err != nil || !kept || count != len(want) {
			t.Errorf("%s: line count %d (kept %t), want %d: %v", what, count, kept, len(want), err)
		}
		c.Take()
	}

	found, err := st.BasketAndProducts(ctx, "u1", nil, false) // no basket yet
	if err != nil {
		t.Fatal(err)
	}
	c.Take()
	after, err := st.AddLinesTo(ctx, "u1", []basket.Add{add("A", 6)}, time.Now(), &found.Basket)
	check("an add to the basket read", after, err, map[string]int{"A": 6}, "UpdateItem 1")
	next, err := st.AddLinesTo(ctx, "u1", []basket.Add{add("A", 6), add("B", 6)}, time.Now(), &after)
	check("an add to the basket the last write answered", next, err, map[string]int{"A": 12, "B": 6}, "UpdateItem 1")

	// Stale: the basket read before another tab's add of A.
	if err := st.AddLines(ctx, "u1", []basket.Add{add("A", 6)}, time.Now()); err != nil {
		t.Fatal(err)
	}
	c.Take()
	stale := after // A: 6 and nothing else, before two adds
	got, err := st.AddLinesTo(ctx, "u1", []basket.Add{add("C", 6)}, time.Now(), &stale)
	check("an add to a stale basket whose conditions still hold", got, err, map[string]int{"A": 18, "B": 6, "C": 6}, "UpdateItem 1")
	got, err = st.AddLinesTo(ctx, "u1", []basket.Add{add("A", 6), add("B", 6)}, time.Now(), &stale)
	check("an add to a stale basket (B is there)", got, err, map[string]int{"A": 24, "B": 12, "C": 6}, "UpdateItem 2")
	got, err = st.SetLineIn(ctx, "u1", "B", 18, time.Now(), &stale)
	check("a set in a stale basket (B is there)", got, err, map[string]int{"A": 24, "B": 18, "C": 6}, "UpdateItem 2")
	got, err = st.SetLineIn(ctx, "u1", "D", 12, time.Now(), &stale)
	check("a set of a new line in a stale basket", got, err, map[string]int{"A": 24, "B": 18, "C": 6, "D": 12}, "UpdateItem 1")
	got, err = st.RemoveLineFrom(ctx, "u1", "B", time.Now(), &stale)
	check("a remove from a stale basket (B is there)", got, err, map[string]int{"A": 24, "C": 6, "D": 12}, "UpdateItem 2")

	// More lines than one UpdateItem takes: one put of the basket as read, or as the failed
	// put found it.
	var many []basket.Add
	want := map[string]int{"A": 30, "C": 6, "D": 12}
	for i := range 90 {
		sku := fmt.Sprintf("M%03d", i)
		many = append(many, add(sku, 6))
		want[sku] = 6
	}
	many = append(many, add("A", 6))
	got, err = st.AddLinesTo(ctx, "u1", many, time.Now(), &stale)
	check("a large add to a stale basket", got, err, want, "PutItem 2")
	for _, a := range many {
		want[a.SKU] += 6
	}
	got, err = st.AddLinesTo(ctx, "u1", many, time.Now(), &got)
	check("a large add to the basket the last put answered", got, err, want, "PutItem 1")
	// Without a basket given, a write reads it first (the callers that have not read it).
	got, err = st.SetLineIn(ctx, "u1", "A", 6, time.Now(), nil)
	want["A"] = 6
	check("a set with no basket given", got, err, want, "GetItem 1, UpdateItem 1")
	if b, err := st.Basket(ctx, "u1"); err != nil || fmt.Sprint(held(b)) != fmt.Sprint(want) || b.Version != got.Version {
		t.Errorf("the basket as stored: %v version %d, the write answered version %d: %v", held(b), b.Version, got.Version, err)
	}
}
