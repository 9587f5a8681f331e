package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

func skuN(i int) string { return fmt.Sprintf("MX%03d-%05d", i%1000, i) }

// fillTo adds lines skuN(from)… until the basket holds n lines, in adds of the most
// lines one add takes.
func fillTo(t *testing.T, st *store.Store, uid string, from, n int) {
	t.Helper()
	for i := from; i < n; i += basket.MaxAddLines {
		var adds []basket.Add
		for j := i; j < min(i+basket.MaxAddLines, n); j++ {
			adds = append(adds, basket.Add{SKU: skuN(j), Quantity: 1, Limit: 1000})
		}
		if err := st.AddLines(context.Background(), uid, adds, time.Now()); err != nil {
			t.Fatalf("fill %d: %v", i, err)
		}
	}
}

func lines(t *testing.T, st *store.Store, uid string) int {
	t.Helper()
	b, err := st.Basket(context.Background(), uid)
	if err != nil {
		t.Fatal(err)
	}
	n, kept, err := st.LineCountForTest(context.Background(), uid)
	if err != nil || !kept || n != len(b.Lines) {
		t.Fatalf("kept count %d (kept %v, %v), lines %d", n, kept, err, len(b.Lines))
	}
	return len(b.Lines)
}

// A basket holds basket.MaxLines lines: a new line past them is refused, by every write,
// with nothing written; lines already there still change, and a removal makes room.
func TestBasketHoldsAtMostMaxLines(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	const uid = "full"
	fillTo(t, st, uid, 0, basket.MaxLines)
	if n := lines(t, st, uid); n != basket.MaxLines {
		t.Fatalf("filled to %d lines", n)
	}
	before, _ := st.Basket(ctx, uid)

	one := []basket.Add{{SKU: skuN(basket.MaxLines), Quantity: 1, Limit: 1000}}
	mixed := []basket.Add{{SKU: skuN(0), Quantity: 1, Limit: 1000}, {SKU: skuN(basket.MaxLines + 1), Quantity: 1, Limit: 1000}}
	for name, err := range map[string]error{
		"an add of a new line":            st.AddLines(ctx, uid, one, time.Now()),
		"an add of an old and a new line": st.AddLines(ctx, uid, mixed, time.Now()),
		"a set of a new line":             st.SetLine(ctx, uid, skuN(basket.MaxLines), 5, time.Now()),
	} {
		if !errors.Is(err, basket.ErrBasketFull) {
			t.Fatalf("%s: %v, want ErrBasketFull", name, err)
		}
	}
	if after, _ := st.Basket(ctx, uid); after.Version != before.Version || len(after.Lines) != basket.MaxLines {
		t.Fatalf("a refused write wrote: version %d→%d, %d lines", before.Version, after.Version, len(after.Lines))
	}
	want := "Your basket holds the most lines it can (500): remove a line, or place an order, before adding another product."
	if basket.ErrBasketFull.Error() != want {
		t.Fatalf("message %q", basket.ErrBasketFull.Error())
	}

	// Lines already there still change.
	if err := st.AddLines(ctx, uid, []basket.Add{{SKU: skuN(0), Quantity: 2, Limit: 1000}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.SetLine(ctx, uid, skuN(1), 7, time.Now()); err != nil {
		t.Fatal(err)
	}
	// A removal (and a removal of a line that is not there) makes room for exactly one.
	if err := st.RemoveLine(ctx, uid, skuN(2), time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.RemoveLine(ctx, uid, "NOT-THERE", time.Now()); err != nil {
		t.Fatal(err)
	}
	if n := lines(t, st, uid); n != basket.MaxLines-1 {
		t.Fatalf("after a removal %d lines", n)
	}
	if err := st.SetLine(ctx, uid, skuN(basket.MaxLines), 5, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.AddLines(ctx, uid, []basket.Add{{SKU: skuN(basket.MaxLines + 2), Quantity: 1, Limit: 1000}}, time.Now()); !errors.Is(err, basket.ErrBasketFull) {
		t.Fatalf("501st line: %v", err)
	}
	if n := lines(t, st, uid); n != basket.MaxLines {
		t.Fatalf("%d lines", n)
	}
}

// Buyers adding new lines at once to a basket one line short of full: exactly one gets in.
func TestBasketMaxHoldsUnderConcurrentAdds(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	const uid = "race"
	fillTo(t, st, uid, 0, basket.MaxLines-1)
	var wg sync.WaitGroup
	errs := make([]error, 12)
	for i := range errs {
		wg.Go(func() {
			if i%2 == 0 {
				errs[i] = st.AddLines(context.Background(), uid, []basket.Add{{SKU: skuN(1000 + i), Quantity: 1, Limit: 1000}}, time.Now())
			} else {
				errs[i] = st.SetLine(context.Background(), uid, skuN(1000+i), 1, time.Now())
			}
		})
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, basket.ErrBasketFull):
			t.Fatalf("unexpected %v", err)
		}
	}
	if ok != 1 || lines(t, st, uid) != basket.MaxLines {
		t.Fatalf("%d writes got in, want 1", ok)
	}
}

// A basket without the kept count (written before it was kept) is counted from its lines
// on the next write that adds one, and keeps the count from then on.
func TestBasketWithoutKeptCountIsCounted(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	const uid = "legacy"
	fillTo(t, st, uid, 0, basket.MaxLines)
	if err := st.DropLineCountForTest(ctx, uid); err != nil {
		t.Fatal(err)
	}
	if err := st.RemoveLine(ctx, uid, skuN(3), time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, kept, _ := st.LineCountForTest(ctx, uid); kept {
		t.Fatal("a removal kept a count it could not know")
	}
	if err := st.AddLines(ctx, uid, []basket.Add{{SKU: skuN(9000), Quantity: 1, Limit: 1000}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if n := lines(t, st, uid); n != basket.MaxLines {
		t.Fatalf("%d lines", n)
	}
	if err := st.AddLines(ctx, uid, []basket.Add{{SKU: skuN(9001), Quantity: 1, Limit: 1000}}, time.Now()); !errors.Is(err, basket.ErrBasketFull) {
		t.Fatalf("501st line: %v", err)
	}
}
