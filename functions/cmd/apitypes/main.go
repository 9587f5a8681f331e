// Command apitypes writes the site's TypeScript types of the /api answers and of the
// snapshot's files (site/lib/api-types.ts) from the Go types registered for them
// (internal/api answers.go, pages.PayloadTypes), so the site never holds a hand-written
// copy of a wire shape.
//
//	go run ./cmd/apitypes -o ../site/lib/api-types.ts   (go generate ./internal/api/ runs it)
//	go run ./cmd/apitypes -check ../site/lib/api-types.ts
//
// With -check it writes nothing and exits 1 when the file differs from what it would
// write: the static suite's staleness check (scripts/test.mjs).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/tradeshop/functions/internal/api"
	"github.com/tradeshop/functions/internal/apitypes"
	"github.com/tradeshop/functions/internal/pages"
)

func main() {
	out := flag.String("o", "", "write the TypeScript to this file")
	check := flag.String("check", "", "compare this file with what would be written; exit 1 if it differs")
	flag.Parse()
	ts, err := apitypes.TypeScript(append(api.AnswerTypes(), pages.PayloadTypes()...))
	if err != nil {
		fmt.Fprintln(os.Stderr, "apitypes:", err)
		os.Exit(1)
	}
	switch {
	case *check != "":
		have, err := os.ReadFile(*check)
		if err != nil || !bytes.Equal(have, ts) {
			fmt.Fprintf(os.Stderr, "apitypes: %s is not what the Go answer types make: run `cd functions && go generate ./internal/api/` and commit it\n", *check)
			os.Exit(1)
		}
	case *out != "":
		if err := os.WriteFile(*out, ts, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "apitypes:", err)
			os.Exit(1)
		}
	default:
		os.Stdout.Write(ts)
	}
}
