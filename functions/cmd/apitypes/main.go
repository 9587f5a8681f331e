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
	"github.com/tradeshop/functions/internal/api"
	"github.com/tradeshop/functions/internal/apitypes"
	"github.com/tradeshop/functions/internal/genfile"
	"github.com/tradeshop/functions/internal/pages"
)

func main() {
	genfile.Main("apitypes", "the TypeScript", "the Go answer types make", func() ([]byte, error) {
		return apitypes.TypeScript(append(api.AnswerTypes(), pages.PayloadTypes()...))
	})
}
