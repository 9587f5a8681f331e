package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/testenv"
)

// One add of the most lines the API takes is one UpdateItem: its expressions stay
// within DynamoDB's 4 KB, and a line over its limit refuses the whole add.
func TestAddLinesWritesTheLargestAddInOneUpdate(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	var adds []basket.Add
	for i := range basket.MaxAddLines {
		adds = append(adds, basket.Add{SKU: fmt.Sprintf("GC%03d-%05d", 100+i, 10000+i), Quantity: 6, Limit: 12})
	}
	if err := st.AddLines(ctx, "u1", adds, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.AddLines(ctx, "u1", adds, time.Now()); err != nil {
		t.Fatal(err)
	}
	b, err := st.Basket(ctx, "u1")
	if err != nil || len(b.Lines) != basket.MaxAddLines || b.Lines[0].Quantity != 12 || b.Version != 2 {
		t.Fatalf("basket after two adds: %d lines, version %d, %v", len(b.Lines), b.Version, err)
	}
	err = st.AddLines(ctx, "u1", adds, time.Now())
	var full *basket.LineFullError
	if !errorsAs(err, &full) {
		t.Fatalf("a third add passes every line's limit: %v", err)
	}
	if again, _ := st.Basket(ctx, "u1"); again.Version != 2 || again.Lines[0].Quantity != 12 {
		t.Fatalf("a refused add wrote: version %d", again.Version)
	}
}

func errorsAs(err error, target any) bool { return err != nil && errors.As(err, target) }
