// Command seed creates the shop's table if it is missing and loads the deterministic
// seed catalogue into it, writing each product's generated images under -media.
// Re-running it writes the same items again; -if-empty skips a table already seeded.
//
// It loads only into a local store (DYNAMODB_ENDPOINT on a loopback address) unless
// -allow-aws says a deployed table is meant: without DYNAMODB_ENDPOINT the SDK writes to
// AWS DynamoDB in AWS_REGION, which must never happen by accident (docs/infrastructure.md
// "First deploy").
//
// A call the store does not answer within STORE_TIMEOUT_MS (a busy machine) is sent again
// with back-off, for up to STORE_BATCH_BUDGET_MS (docs/local-store.md "Deadlines"), and
// the progress line says so.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/store"
)

func main() {
	products := flag.Int("products", seed.DefaultProducts, "number of products to generate (1 to 200000)")
	media := flag.String("media", ".local/media", "folder the product images are written to")
	ifEmpty := flag.Bool("if-empty", false, "do nothing if the table has already been seeded")
	allowAWS := flag.Bool("allow-aws", false, "load into AWS DynamoDB (no DYNAMODB_ENDPOINT, or one that is not loopback): a deployed table")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := store.BatchConfigFromEnv(os.Getenv, func(r store.Retry) { fmt.Printf("seed: %s\n", r) })
	err := checkTarget(cfg, *allowAWS)
	if err == nil {
		err = run(ctx, cfg, *products, *media, *ifEmpty)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		os.Exit(1)
	}
}

// checkTarget refuses a store that is not local unless allowAWS (store.CheckLocal).
func checkTarget(c store.Config, allowAWS bool) error {
	return store.CheckLocal(c, allowAWS, "the seed catalogue")
}

func run(ctx context.Context, cfg store.Config, n int, media string, ifEmpty bool) error {
	cat, err := seed.Generate(n)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, cfg)
	if err != nil {
		return err
	}
	created, err := st.EnsureTable(ctx)
	if err != nil {
		return err
	}
	if created {
		fmt.Printf("seed: created table %s\n", st.TableName())
	} else if n, err := st.BackfillStaffLists(ctx); err != nil {
		return err
	} else if n > 0 {
		fmt.Printf("seed: listed %d order(s), account(s) and coupon(s) written before the staff lists for the back office\n", n)
	}
	if ifEmpty {
		done, err := st.SeedLoaded(ctx)
		if err != nil {
			return err
		}
		if done {
			fmt.Printf("seed: table %s already seeded; skipping\n", st.TableName())
			return nil
		}
	}

	start := time.Now()
	if err := writeImages(cat, media); err != nil {
		return err
	}
	fmt.Printf("seed: wrote %d product images to %s\n", 2*len(cat.Products), media)

	seed.MarkForward(cat, time.Now())
	seed.MarkPublished(cat, time.Now())
	lastPct := -1
	err = st.PutCatalogue(ctx, cat.Ranges, cat.Categories, cat.Products, func(done, total int) {
		if pct := done * 100 / total; pct/10 != lastPct/10 {
			lastPct = pct
			fmt.Printf("seed: %3d%% (%d of %d items)\n", pct, done, total)
		}
	})
	if err != nil {
		return err
	}
	coupons := seed.Coupons(time.Now())
	if err := st.PutCoupons(ctx, coupons); err != nil {
		return err
	}
	groups := seed.PriceGroups(cat, time.Now())
	if err := st.PutSeedPriceGroups(ctx, groups); err != nil {
		return fmt.Errorf("write price groups: %w", err)
	}
	if err := st.MarkSeedLoaded(ctx, len(cat.Products)); err != nil {
		return err
	}
	fmt.Printf("seed: loaded %d ranges, %d categories, %d products, %d coupons and %d price groups into %s in %.1fs\n",
		len(cat.Ranges), len(cat.Categories), len(cat.Products), len(coupons), len(groups), st.TableName(), time.Since(start).Seconds())
	return nil
}

func writeImages(cat seed.Catalogue, media string) error {
	for _, p := range cat.Products {
		for _, img := range []struct {
			url  string
			size int
		}{{p.SmallImg, seed.ImageSizes.Small}, {p.LargeImg, seed.ImageSizes.Large}} {
			rel, ok := strings.CutPrefix(img.url, "/media/")
			if !ok || rel == "" {
				continue // no picture (an empty path): the site draws its placeholder
			}
			path := filepath.Join(media, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return fmt.Errorf("image folder: %w", err)
			}
			if err := os.WriteFile(path, seed.ProductSVG(p, img.size), 0o644); err != nil {
				return fmt.Errorf("write image: %w", err)
			}
		}
	}
	return nil
}
