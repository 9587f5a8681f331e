// Command benchcalls prints the DynamoDB calls one request to each /api endpoint makes,
// counted by a middleware on the SDK's stack (package callcount), not estimated
// (scripts/bench calls; docs/PERFORMANCE.md "Round trips"). It needs the DynamoDB Local
// of DYNAMODB_ENDPOINT (it works on a table of its own, created and deleted) and the Auth
// emulator of FIREBASE_AUTH_EMULATOR_HOST, and calls the real handlers in-process
// (package apicalls):
//
//	cd functions && DYNAMODB_ENDPOINT=http://127.0.0.1:8000 FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099 \
//	    go run ./cmd/benchcalls -sizes 1,20,200
//
// It prints three Markdown tables: every route with the calls of one realistic request (a
// buyer with a 20-line basket in 20 categories, a coupon and a saved list; the back
// office as staff), then the requests that could grow with the basket at each size, then
// the requests that price a 500-line basket with every line at a quantity break, for a
// buyer without a price group and for one in a group once its cache is warm, with the
// calls and the median time of five requests (issue 37, item 5).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/tradeshop/functions/internal/apicalls"
	"github.com/tradeshop/functions/internal/callcount"
)

func main() {
	sizes := flag.String("sizes", "1,20,200", "basket sizes (lines) of the growth table, comma separated")
	flag.Parse()
	if err := run(context.Background(), *sizes); err != nil {
		fmt.Fprintln(os.Stderr, "benchcalls:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, sizes string) error {
	ns, err := callcount.Sizes(sizes, "basket size")
	if err != nil {
		return err
	}
	b, err := apicalls.Open(ctx, os.Getenv)
	if err != nil {
		return err
	}
	defer b.Close()
	rows, err := b.Endpoints()
	if err != nil {
		return err
	}
	if missing := b.Missing(rows); len(missing) > 0 {
		return fmt.Errorf("no request made to %s", strings.Join(missing, ", "))
	}
	fmt.Println("| endpoint | request | calls | by operation |")
	fmt.Println("|---|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %s | `%s`: %s | %d | %s |\n", r.Endpoint, r.Route, r.What, r.Count.Total, breakdown(r.Count))
	}
	growth, err := b.Growth(ns)
	if err != nil {
		return err
	}
	fmt.Println()
	fmt.Println("| request | lines | categories | calls | by operation |")
	fmt.Println("|---|---|---|---|---|")
	for _, r := range growth {
		fmt.Printf("| %s: %s | %d | %d | %d | %s |\n", r.Endpoint, r.What, r.Lines, r.Categories, r.Count.Total, breakdown(r.Count))
	}
	pricing, err := b.Pricing()
	if err != nil {
		return err
	}
	fmt.Println()
	fmt.Println("| pricing request | lines | buyer | lines the group priced | calls | by operation | median ms |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, r := range pricing {
		fmt.Printf("| %s: %s | %d | %s | %d | %d | %s | %.1f |\n", r.Endpoint, r.What, r.Lines, r.Buyer, r.GroupLines, r.Count.Total, breakdown(r.Count),
			float64(r.Median.Microseconds())/1000)
	}
	return nil
}

// breakdown is the calls by operation, and the HTTP attempts when retries made more.
func breakdown(c callcount.Count) string {
	if c.Attempts != c.Total {
		return fmt.Sprintf("%s (%d attempts)", c.Breakdown(), c.Attempts)
	}
	return c.Breakdown()
}
