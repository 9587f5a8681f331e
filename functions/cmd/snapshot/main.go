// Command snapshot reads the catalogue from DynamoDB and writes the build's input:
// catalogue.json (the header menu and counts) and one _payload.json per prerendered
// page under pages/, at the page's own path, with a _filter.json (the listing's filter
// index, package listing) beside each category and range page's. Next.js renders each page from its
// payload, and the build copies the payloads into the export beside the HTML.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/apitypes"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/listing"
	"github.com/tradeshop/functions/internal/pages"
	"github.com/tradeshop/functions/internal/store"
)

func main() {
	out := flag.String("out", "builds/snapshot", "folder to write the snapshot to (replaced)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *out); err != nil {
		fmt.Fprintln(os.Stderr, "snapshot:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out string) error {
	start := time.Now()
	st, err := store.Open(ctx, store.ConfigFromEnv(os.Getenv))
	if err != nil {
		return err
	}
	ranges, cats, products, err := st.Catalogue(ctx)
	if err != nil {
		return err
	}
	if len(ranges) == 0 {
		return fmt.Errorf("table %s has no catalogue; run the seed first", st.TableName())
	}
	site := pages.Build(ranges, cats, products) // the menu in the catalogue's own order
	// Each category and range page's sort and filter controls, and its filter index.
	indexes := listing.Site(&site, cats, products, catalogue.LondonDate(time.Now()))

	// Write into a fresh folder, then swap it in, so a failed run leaves the old one.
	tmp := out + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	var paths []string
	put := func(pagePath string, v any) error {
		paths = append(paths, pagePath)
		return writeJSON(filepath.Join(tmp, "pages", filepath.FromSlash(strings.TrimPrefix(pagePath, "/")), "_payload.json"), v)
	}
	if err := put("/", site.Home); err != nil {
		return err
	}
	for p, data := range site.Ranges {
		if err := put(p, data); err != nil {
			return err
		}
	}
	for p, data := range site.Categories {
		if err := put(p, data); err != nil {
			return err
		}
	}
	for p, idx := range indexes {
		if err := writeJSON(filepath.Join(tmp, "pages", filepath.FromSlash(strings.TrimPrefix(p, "/")), listing.IndexFile), idx); err != nil {
			return err
		}
	}
	productPaths := make([]string, 0, len(site.Products))
	for p, data := range site.Products {
		if err := put(p, data); err != nil {
			return err
		}
		productPaths = append(productPaths, p)
	}
	slices.Sort(paths)
	slices.Sort(productPaths)
	err = writeJSON(filepath.Join(tmp, "catalogue.json"), pages.CatalogueFile{
		GeneratedAt: apitypes.UnixMillisOf(time.Now()), Products: site.Home.Products, Menu: site.Menu,
		Pages: paths, ProductPaths: productPaths,
	})
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	fmt.Printf("snapshot: %d ranges, %d categories, %d products (%d shown, %d discontinued) -> %d page payloads in %s (%.1fs)\n",
		len(ranges), len(cats), len(products), site.Home.Products, len(products)-site.Home.Products, len(paths), out, time.Since(start).Seconds())
	return nil
}

func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return os.WriteFile(path, b, 0o644)
}
