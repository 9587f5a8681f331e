package api

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/schema"
)

func readEndpointsFile(t *testing.T) Deployment {
	t.Helper()
	raw, err := os.ReadFile("endpoints.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, endpointsJSON) {
		t.Fatal("endpoints.json changed after this test binary was built")
	}
	file, err := ReadDeployment()
	if err != nil {
		t.Fatal(err)
	}
	return file
}

// grantActions are the DynamoDB actions a grant may name: reads and single-item writes
// (a transaction's items are checked as these), and a batch write (the catalogue
// import's new products, ranges and categories), never Scan.
var grantActions = []string{"GetItem", "BatchGetItem", "Query", "PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem", "BatchWriteItem"}

// TestEndpointsFileGrantsAreWellFormed checks what the CDK app turns into IAM
// statements: known actions; a table grant always limited to key patterns that start with
// a fixed prefix; an index grant only a Query of an index the table has.
func TestEndpointsFileGrantsAreWellFormed(t *testing.T) {
	t.Parallel()
	file := readEndpointsFile(t)
	tbl, err := schema.Load()
	if err != nil {
		t.Fatal(err)
	}
	indexes := map[string]bool{}
	for _, ix := range tbl.CreateTableInput("t").GlobalSecondaryIndexes {
		indexes[*ix.IndexName] = true
	}
	fixedPrefix := regexp.MustCompile(`^[A-Z]+(#[A-Z]+)*(#\*)?$`)
	for _, f := range slices.Concat(file.Endpoints, file.Jobs) {
		if f.TimeoutSeconds != 0 && (f.TimeoutSeconds < 1 || f.TimeoutSeconds > 29) {
			t.Errorf("%s: timeoutSeconds %d must be from 1 to 29 (API Gateway gives up at 30 s)", f.Name, f.TimeoutSeconds)
		}
		for i, g := range f.Access {
			where := fmt.Sprintf("%s access[%d]", f.Name, i)
			if len(g.Actions) == 0 {
				t.Errorf("%s: no actions", where)
			}
			for _, a := range g.Actions {
				if !slices.Contains(grantActions, a) {
					t.Errorf("%s: action %q is not one of %v", where, a, grantActions)
				}
			}
			if g.Index != "" {
				if !indexes[g.Index] || !slices.Equal(g.Actions, []string{"Query"}) || len(g.Keys) > 0 {
					t.Errorf("%s: an index grant is a Query of an index of the table (%v), with no keys", where, slices.Sorted(maps.Keys(indexes)))
				}
				continue
			}
			if len(g.Keys) == 0 {
				t.Errorf("%s: a table grant needs its key patterns (dynamodb:LeadingKeys)", where)
			}
			for _, k := range g.Keys {
				if !fixedPrefix.MatchString(k) {
					t.Errorf("%s: key pattern %q must be a fixed prefix, optionally followed by #*", where, k)
				}
			}
		}
	}
}

// TestEndpointsFileMatchesRoutes keeps endpoints.json (read by infra/ to make one Lambda
// and its API routes per endpoint) equal to the Endpoints the Go code serves.
func TestEndpointsFileMatchesRoutes(t *testing.T) {
	t.Parallel()
	file := readEndpointsFile(t)
	deployed := map[string]DeployedFunction{}
	for _, e := range file.Endpoints {
		if _, dup := deployed[e.Name]; dup {
			t.Errorf("endpoints.json lists %s twice", e.Name)
		}
		deployed[e.Name] = e
	}

	served := map[string][]string{}
	for _, e := range Endpoints(unitDeps(t)) {
		served[e.Name] = append(served[e.Name], e.Pattern)
	}
	for name, patterns := range served {
		d, ok := deployed[name]
		if !ok {
			t.Errorf("endpoint %s (%v) is served but missing from endpoints.json, so it would not be deployed", name, patterns)
			continue
		}
		if !slices.Equal(slices.Sorted(slices.Values(d.Routes)), slices.Sorted(slices.Values(patterns))) {
			t.Errorf("endpoint %s: endpoints.json routes %v, routes.go serves %v", name, d.Routes, patterns)
		}
	}
	for name := range deployed {
		if _, ok := served[name]; !ok {
			t.Errorf("endpoints.json lists %s, which routes.go does not serve", name)
		}
	}
}

// unitDeps is the least Deps that builds every endpoint, for tests that call none of them
// against storage.
func unitDeps(t *testing.T) Deps {
	t.Helper()
	p, err := csrf.New([]byte(strings.Repeat("u", 32)))
	if err != nil {
		t.Fatal(err)
	}
	return Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), CSRF: p}
}
