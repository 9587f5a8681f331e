// Command benchimport measures the catalogue import (docs/PERFORMANCE.md "Catalogue
// import"): a file of N product rows (the seed catalogue written as the import's CSV) is
// checked and applied to a table holding only the ranges and categories, then a second
// file changing every price is checked and applied, then that file again. It creates
// the table TABLE_NAME (a local store only) and deletes it at the end. It prints one line
// per figure.
package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/store"
)

func main() {
	n := flag.Int("products", 50000, "product rows in the file")
	flag.Parse()
	if err := run(context.Background(), *n); err != nil {
		fmt.Fprintln(os.Stderr, "benchimport:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, n int) error {
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.Timeout = 30 * time.Second // as cmd/catalogue: a whole-catalogue job, not a buyer's request
	if err := store.CheckLocal(cfg, false, "the benchmark's table"); err != nil {
		return err
	}
	st, err := store.Open(ctx, cfg)
	if err != nil {
		return err
	}
	if _, err := st.EnsureTable(ctx); err != nil {
		return err
	}
	defer func() { _ = st.DeleteTable(context.Background()) }()
	cat, err := seed.Generate(n)
	if err != nil {
		return err
	}
	if err := st.PutCatalogue(ctx, cat.Ranges, cat.Categories, nil, nil); err != nil {
		return err
	}
	var file bytes.Buffer
	if err := catimport.WriteProducts(&file, cat.Products); err != nil {
		return err
	}
	by := orders.Staff{UID: "bench", Email: "bench"}

	step := func(label string, in catimport.Input) error {
		t0 := time.Now()
		pl, err := catimport.Check(ctx, st, in)
		if err != nil {
			return err
		}
		check := time.Since(t0)
		t1 := time.Now()
		if _, err := catimport.Apply(ctx, st, in, catimport.ApplyOptions{By: by}); err != nil {
			return err
		}
		fmt.Printf("import %d rows, %s: check %.1fs apply %.1fs (new %d, changed %d, unchanged %d)\n",
			pl.Rows, label, check.Seconds(), time.Since(t1).Seconds(), pl.New, pl.Changed, pl.Unchanged)
		return nil
	}
	first := catimport.Input{ProductsName: "bench.csv", Products: file.Bytes()}
	if err := step("into an empty table", first); err != nil {
		return err
	}
	// Every price up 5p: the unit price is the 7th column from the end of each row.
	rows, err := csv.NewReader(bytes.NewReader(file.Bytes())).ReadAll()
	if err != nil {
		return err
	}
	for _, cells := range rows[1:] {
		cells[len(cells)-7] = bumpPrice(cells[len(cells)-7])
	}
	var prices bytes.Buffer
	w := csv.NewWriter(&prices)
	if err := w.WriteAll(rows); err != nil {
		return err
	}
	changed := catimport.Input{ProductsName: "prices.csv", Products: prices.Bytes()}
	if err := step("every price changed", changed); err != nil {
		return err
	}
	return step("the same file again", changed)
}

func bumpPrice(s string) string {
	var pounds, pence int64
	fmt.Sscanf(s, "%d.%d", &pounds, &pence)
	return catimport.FormatPrice(pounds*100 + pence + 5)
}
