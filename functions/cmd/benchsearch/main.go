// Command benchsearch prints search latency (p50, p99, max) over a fixed mix of
// queries against an index of the deterministic seed catalogue, at each size given.
// scripts/bench runs it; docs/PERFORMANCE.md records its figures.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/search"
	"github.com/tradeshop/functions/internal/seed"
)

func main() {
	sizes := flag.String("products", "3000,50000", "catalogue sizes to measure, comma separated")
	n := flag.Int("queries", 1000, "queries per size")
	flag.Parse()
	for _, s := range strings.Split(*sizes, ",") {
		size, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchsearch: bad size", s)
			os.Exit(2)
		}
		if err := measure(size, *n); err != nil {
			fmt.Fprintln(os.Stderr, "benchsearch:", err)
			os.Exit(1)
		}
	}
}

// queries is a realistic mix: whole names, single words, prefixes, typos, SKUs,
// filtered searches and misses.
func queries(c seed.Catalogue, n int) []search.Request {
	r := rand.New(rand.NewPCG(7, 7))
	words := []string{"birthday", "birthdy", "christmas", "chrstmas", "balloon", "ballo", "mum", "wrap", "gift bag",
		"age 18", "sympathy", "wedding", "value", "robin", "notebook", "card", "foil", "zzqxv"}
	out := make([]search.Request, 0, n)
	for i := range n {
		p := c.Products[r.IntN(len(c.Products))]
		switch i % 6 {
		case 0:
			out = append(out, search.Request{Query: p.Name})
		case 1:
			out = append(out, search.Request{Query: strings.ToLower(p.SKU)})
		case 2, 3:
			out = append(out, search.Request{Query: words[r.IntN(len(words))]})
		case 4:
			out = append(out, search.Request{Query: words[r.IntN(len(words))], Range: p.RangeURLText})
		default:
			out = append(out, search.Request{Query: "card", CategoryID: p.CategoryID, Page: 1 + r.IntN(3)})
		}
	}
	return out
}

func measure(size, n int) error {
	c, err := seed.Generate(size)
	if err != nil {
		return err
	}
	t0 := time.Now()
	ix := search.Build(c.Products, c.Categories, c.Ranges)
	build := time.Since(t0)
	qs := queries(c, n)
	ctx := context.Background()
	for _, q := range qs[:min(50, len(qs))] { // warm up
		if _, err := ix.Search(ctx, q); err != nil {
			return err
		}
	}
	lat := make([]time.Duration, 0, n)
	for _, q := range qs {
		s := time.Now()
		if _, err := ix.Search(ctx, q); err != nil {
			return err
		}
		lat = append(lat, time.Since(s))
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(float64(len(lat))*p))] }
	fmt.Printf("search %d products: index build %.2fs; %d queries p50 %.2fms p99 %.2fms max %.2fms\n",
		size, build.Seconds(), n, ms(pct(0.50)), ms(pct(0.99)), ms(lat[len(lat)-1]))
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
