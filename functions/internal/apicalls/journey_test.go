package apicalls

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/api"
	"github.com/tradeshop/functions/internal/csrf"
)

// TestJourneyNamesEveryRoute checks without a database what the round-trip test checks by
// making the requests: the journey of endpoints.go has a step for every route of
// api.Endpoints (routes.go, the one list of the API), and none for a route it does not
// serve, so a new endpoint fails here until the bench counts its calls.
func TestJourneyNamesEveryRoute(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "endpoints.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	journey := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if kv, ok := n.(*ast.KeyValueExpr); ok {
			if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "route" {
				if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					route, _ := strconv.Unquote(lit.Value)
					journey[route] = true
				}
			}
		}
		return true
	})
	p, err := csrf.New([]byte(strings.Repeat("j", 32)))
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, e := range api.Endpoints(api.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), CSRF: p}) {
		served[e.Pattern] = true
		if !journey[e.Pattern] {
			t.Errorf("the journey (endpoints.go) makes no request to %s (endpoint %s): add a step for it", e.Pattern, e.Name)
		}
	}
	for _, r := range slices.Sorted(maps.Keys(journey)) {
		if !served[r] {
			t.Errorf("the journey (endpoints.go) has a step for %s, which routes.go does not serve", r)
		}
	}
}
