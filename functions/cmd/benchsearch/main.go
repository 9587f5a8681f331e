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
	repeat := flag.Int("repeat", 1, "times each query runs; its fastest time counts (above 1 on a busy machine, so time slices lent to other work are not read as search latency)")
	flag.Parse()
	if *repeat < 1 {
		fmt.Fprintln(os.Stderr, "benchsearch: -repeat must be at least 1")
		os.Exit(2)
	}
	for _, s := range strings.Split(*sizes, ",") {
		size, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchsearch: bad size", s)
			os.Exit(2)
		}
		if err := measure(size, *n, *repeat); err != nil {
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

// buyerPhrases are queries as buyers type them, which go through stop words,
// plural folding and synonyms (docs/search.md); they are timed on a line of their
// own so the main mix stays comparable with earlier figures.
var buyerPhrases = []string{
	"birthday cards for him", "birthday cards for her", "xmas cards", "bday card", "wholesale christmas cards",
	"mens birthday cards", "18th birthday", "cards", "stationery", "mothers day cards", "party bags", "glasses",
}

func measure(size, n, repeat int) error {
	c, err := seed.Generate(size)
	if err != nil {
		return err
	}
	t0 := time.Now()
	ix := search.Build(c.Products, c.Categories, c.Ranges)
	build := time.Since(t0)
	buyer := make([]search.Request, n)
	for i := range buyer {
		buyer[i] = search.Request{Query: buyerPhrases[i%len(buyerPhrases)]}
	}
	fastest := ""
	if repeat > 1 {
		fastest = fmt.Sprintf(" (fastest of %d runs each)", repeat)
	}
	lat, err := timeQueries(ix, queries(c, n), repeat)
	if err != nil {
		return err
	}
	fmt.Printf("search %d products: index build %.2fs; %d queries p50 %.2fms p99 %.2fms max %.2fms%s\n",
		size, build.Seconds(), n, ms(lat.p50), ms(lat.p99), ms(lat.max), fastest)
	if lat, err = timeQueries(ix, buyer, repeat); err != nil {
		return err
	}
	fmt.Printf("search %d products, buyer phrases: %d queries p50 %.2fms p99 %.2fms max %.2fms%s\n",
		size, n, ms(lat.p50), ms(lat.p99), ms(lat.max), fastest)
	return nil
}

type latencies struct{ p50, p99, max time.Duration }

// timeQueries runs each query repeat times (after a warm-up) and answers the
// percentiles of each query's fastest time.
func timeQueries(ix *search.Index, qs []search.Request, repeat int) (latencies, error) {
	ctx := context.Background()
	for _, q := range qs[:min(50, len(qs))] { // warm up
		if _, err := ix.Search(ctx, q); err != nil {
			return latencies{}, err
		}
	}
	lat := make([]time.Duration, len(qs))
	for r := range repeat {
		for i, q := range qs {
			s := time.Now()
			if _, err := ix.Search(ctx, q); err != nil {
				return latencies{}, err
			}
			if d := time.Since(s); r == 0 || d < lat[i] {
				lat[i] = d
			}
		}
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(float64(len(lat))*p))] }
	return latencies{pct(0.50), pct(0.99), lat[len(lat)-1]}, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
