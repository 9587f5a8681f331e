// Command catalogue imports the shop's catalogue from a file and exports it again
// (docs/catalogue-import.md):
//
//	catalogue import FILE [-categories FILE] [-images DIR] [-full] [-dry-run]
//	catalogue export [-out FILE] [-categories-out FILE]
//
// Like the seed, it writes only to a local store (DYNAMODB_ENDPOINT on a loopback
// address) unless -allow-aws says a deployed table is meant; pictures go to -media (a
// folder) or, with MEDIA_BUCKET set, to that bucket's media/ prefix.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/store"
)

const usage = `usage:
  catalogue import FILE [-categories FILE] [-images DIR] [-full] [-dry-run] [-media DIR] [-allow-aws]
  catalogue export [-out FILE] [-categories-out FILE]

import   validates FILE (CSV with a header row, or JSON lines) and every row in it, prints the
         difference against the table, and writes it (not with -dry-run). Nothing is written
         if any row has a problem. -full: FILE is the whole catalogue, so a product missing
         from it is discontinued. -categories: ranges and categories from a second file.
         -images: the folder the image column's file names are in.
export   writes the catalogue as the same CSV (to standard output, or -out FILE), and the
         ranges and categories with -categories-out FILE.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	code, err := run(ctx, os.Args[1:], os.Stdout, os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalogue:", err)
	}
	os.Exit(code)
}

// run answers the exit code: 0 done, 1 failed (or the file has problems), 2 usage.
func run(ctx context.Context, args []string, out io.Writer, getenv func(string) string) (int, error) {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(out, usage)
		if len(args) == 0 {
			return 2, nil
		}
		return 0, nil
	}
	switch args[0] {
	case "import":
		return runImport(ctx, args[1:], out, getenv)
	case "export":
		return runExport(ctx, args[1:], out, getenv)
	}
	return 2, fmt.Errorf("unknown command %q\n%s", args[0], usage)
}

// parse reads flags wherever they stand among the arguments, answering the others.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// importTimeout is each DynamoDB call's deadline when STORE_TIMEOUT_MS is not set: an
// import reads and writes the whole catalogue, not a buyer's request, so it waits
// longer than the API's 3 s for a busy store.
const importTimeout = 30 * time.Second

// storeConfig is the store's configuration for the command: the longer per-call deadline,
// and the batch tools' patience (a call not answered in time is sent again, for up to
// STORE_BATCH_BUDGET_MS), which it tells of on out.
func storeConfig(getenv func(string) string, out io.Writer) store.Config {
	var mu sync.Mutex
	cfg := store.BatchConfigFromEnv(getenv, func(r store.Retry) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, "catalogue: %s\n", r)
	})
	if getenv("STORE_TIMEOUT_MS") == "" {
		cfg.Timeout = importTimeout
	}
	return cfg
}

func openStore(ctx context.Context, getenv func(string) string, out io.Writer, allowAWS bool) (*store.Store, error) {
	cfg := storeConfig(getenv, out)
	if err := store.CheckLocal(cfg, allowAWS, "the catalogue"); err != nil {
		return nil, err
	}
	return store.Open(ctx, cfg)
}

func runImport(ctx context.Context, args []string, out io.Writer, getenv func(string) string) (int, error) {
	fs := flag.NewFlagSet("catalogue import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	structure := fs.String("categories", "", "ranges and categories file")
	images := fs.String("images", "", "folder of the pictures the image column names")
	full := fs.Bool("full", false, "the file is the whole catalogue: discontinue products missing from it")
	dry := fs.Bool("dry-run", false, "print the difference; write nothing")
	defaultMedia := getenv("MEDIA_DIR")
	if defaultMedia == "" {
		defaultMedia = ".local/media"
	}
	mediaDir := fs.String("media", defaultMedia, "folder pictures are published to (without MEDIA_BUCKET; default MEDIA_DIR or .local/media)")
	allowAWS := fs.Bool("allow-aws", false, "write to AWS DynamoDB (no DYNAMODB_ENDPOINT, or one that is not loopback)")
	files, err := parse(fs, args)
	if err != nil || len(files) != 1 {
		if err == nil {
			err = errors.New("name one products file")
		}
		return 2, fmt.Errorf("%v\n%s", err, usage)
	}
	in := catimport.Input{ProductsName: filepath.Base(files[0]), Full: *full}
	if in.Products, err = os.ReadFile(files[0]); err != nil {
		return 1, err
	}
	if *structure != "" {
		in.StructureName = filepath.Base(*structure)
		if in.Structure, err = os.ReadFile(*structure); err != nil {
			return 1, err
		}
	}
	st, err := openStore(ctx, getenv, out, *allowAWS)
	if err != nil {
		return 1, err
	}
	if *images != "" {
		if fi, err := os.Stat(*images); err != nil || !fi.IsDir() {
			return 1, fmt.Errorf("-images %s is not a folder", *images)
		}
		var ms media.Store = catimport.DryRun{}
		if !*dry {
			if ms, err = mediaStore(ctx, getenv, *mediaDir); err != nil {
				return 1, err
			}
		}
		in.Images = catimport.FolderImages(*images, ms)
	}

	start := time.Now()
	var pl *catimport.Plan
	if *dry {
		pl, err = catimport.Check(ctx, st, in)
	} else {
		pl, err = catimport.Apply(ctx, st, in, catimport.ApplyOptions{By: who(), Progress: progressLine(out)})
	}
	var bad *catimport.Invalid
	if errors.As(err, &bad) {
		for _, p := range bad.Problems {
			fmt.Fprintln(os.Stderr, p.String())
		}
		if bad.Count > len(bad.Problems) {
			fmt.Fprintf(os.Stderr, "… and %d more\n", bad.Count-len(bad.Problems))
		}
		return 1, err
	}
	if pl != nil {
		printPlan(out, in, pl)
	}
	if err != nil {
		if !*dry {
			fmt.Fprintln(out, "catalogue: the import stopped part-way; run the same command again to finish it")
		}
		return 1, err
	}
	switch {
	case *dry:
		fmt.Fprintln(out, "catalogue: dry run: nothing was written")
	case pl.Nothing():
		fmt.Fprintf(out, "catalogue: nothing to change (%.1fs)\n", time.Since(start).Seconds())
	default:
		fmt.Fprintf(out, "catalogue: applied in %.1fs; publish it with scripts/release (docs/catalogue-import.md \"Publishing\")\n", time.Since(start).Seconds())
	}
	return 0, nil
}

// mediaStore is where pictures are published: the media bucket named by MEDIA_BUCKET,
// else the folder.
func mediaStore(ctx context.Context, getenv func(string) string, dir string) (media.Store, error) {
	if bucket := getenv("MEDIA_BUCKET"); bucket != "" {
		cfg, err := config.LoadDefaultConfig(ctx)
		if err != nil {
			return nil, err
		}
		return media.NewS3Store(s3.NewFromConfig(cfg), bucket, "media/"), nil
	}
	return media.NewDirStore(dir), nil
}

func who() orders.Staff {
	name := "someone"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	return orders.Staff{UID: "command-line", Email: name + " (scripts/catalogue)"}
}

// progressLine prints how far the writes are, every tenth or every 2 seconds.
func progressLine(out io.Writer) func(catimport.Progress) {
	last, lastTenth := time.Now(), -1
	return func(p catimport.Progress) {
		if p.Phase != "writing" || p.Total == 0 {
			return
		}
		tenth := p.Done * 10 / p.Total
		if tenth == lastTenth && time.Since(last) < 2*time.Second && p.Done != p.Total {
			return
		}
		last, lastTenth = time.Now(), tenth
		fmt.Fprintf(out, "catalogue: writing %d of %d products (%d%%)\n", p.Done, p.Total, p.Done*100/p.Total)
	}
}

func printPlan(out io.Writer, in catimport.Input, pl *catimport.Plan) {
	fmt.Fprintf(out, "catalogue: %s: %d rows", in.ProductsName, pl.Rows)
	if pl.Full {
		fmt.Fprint(out, " (the whole catalogue: products not in it are discontinued)")
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "  new %d, changed %d, discontinued %d, unchanged %d\n", pl.New, pl.Changed, pl.Discontinued, pl.Unchanged)
	if in.StructureName != "" {
		fmt.Fprintf(out, "  ranges: %d new, %d changed; categories: %d new, %d changed\n",
			pl.NewRanges, pl.ChangedRanges, pl.NewCategories, pl.ChangedCategories)
	}
	if len(pl.First) == 0 {
		return
	}
	fmt.Fprintln(out, "  first changes:")
	for _, c := range pl.First {
		where := "        "
		if c.Line > 0 {
			where = fmt.Sprintf("line %-3d", c.Line)
		}
		var fields []string
		for _, f := range c.Fields {
			fields = append(fields, fmt.Sprintf("%s %s → %s", f.Field, orNone(f.Before), orNone(f.After)))
		}
		detail := ""
		if len(fields) > 0 {
			detail = ": " + strings.Join(fields, "; ")
		}
		fmt.Fprintf(out, "    %s %-14s %s %s%s\n", where, c.SKU, c.Kind, c.Name, detail)
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

func runExport(ctx context.Context, args []string, out io.Writer, getenv func(string) string) (int, error) {
	fs := flag.NewFlagSet("catalogue export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	file := fs.String("out", "", "products CSV file (default: standard output)")
	structure := fs.String("categories-out", "", "ranges and categories CSV file")
	rest, err := parse(fs, args)
	if err != nil || len(rest) > 0 {
		return 2, fmt.Errorf("export takes no file names but -out and -categories-out\n%s", usage)
	}
	st, err := store.Open(ctx, storeConfig(getenv, os.Stderr))
	if err != nil {
		return 1, err
	}
	ranges, cats, products, err := st.Catalogue(ctx)
	if err != nil {
		return 1, err
	}
	w := out
	if *file != "" {
		f, err := os.Create(*file)
		if err != nil {
			return 1, err
		}
		defer f.Close()
		w = f
	}
	if err := catimport.WriteProducts(w, products); err != nil {
		return 1, err
	}
	if *structure != "" {
		f, err := os.Create(*structure)
		if err != nil {
			return 1, err
		}
		defer f.Close()
		if err := catimport.WriteStructure(f, ranges, cats); err != nil {
			return 1, err
		}
	}
	if *file != "" {
		fmt.Fprintf(out, "catalogue: wrote %d products to %s\n", len(products), *file)
	}
	return 0, nil
}
