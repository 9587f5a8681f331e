package api

import (
	"bytes"
	"flag"
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

// TestEndpointsFileIsGenerated keeps endpoints.json (read by infra/ to make one Lambda
// and its API routes per endpoint) what routes.go declares: Endpoints() and the deploy
// facts of endpointFunctions and jobFunctions. DeploymentFromRoutes fails on an endpoint
// served without facts, or facts of no endpoint; the file must then be regenerated.
func TestEndpointsFileIsGenerated(t *testing.T) {
	t.Parallel()
	readEndpointsFile(t)
	d, err := DeploymentFromRoutes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(EncodeDeployment(d), endpointsJSON) {
		t.Error("endpoints.json is not what routes.go declares: run `cd functions && go generate ./internal/api/` and commit it")
	}
	served := map[string]bool{}
	for _, e := range Endpoints(unitDeps(t)) {
		served[e.Name] = true
	}
	if len(d.Endpoints) != len(served) {
		t.Errorf("endpoints.json has %d endpoints, routes.go serves %d names", len(d.Endpoints), len(served))
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

// updateDocs makes TestDocsListEveryEndpoint rewrite the table instead of failing on a
// difference: go test ./internal/api -run TestDocsListEveryEndpoint -update
var updateDocs = flag.Bool("update", false, "rewrite the endpoint table of docs/api.md from routes.go and endpoints.json")

// The endpoint table of docs/api.md lies between these lines.
const (
	docsTableStart = "<!-- endpoint table: generated from routes.go and endpoints.json by go test ./internal/api -run TestDocsListEveryEndpoint -update -->"
	docsTableEnd   = "<!-- end of endpoint table -->"
)

// TestDocsListEveryEndpoint keeps docs/api.md's table of every endpoint, its routes and
// whether it has the CSRF secret equal to routes.go (the list) and endpoints.json (the
// deployment), so a reader of the docs sees the whole surface and a new endpoint cannot
// be left out of them.
func TestDocsListEveryEndpoint(t *testing.T) {
	file := readEndpointsFile(t)
	secret := map[string]bool{}
	for _, e := range file.Endpoints {
		secret[e.Name] = e.CSRFSecret
	}
	var names []string
	routes := map[string][]string{}
	for _, e := range Endpoints(unitDeps(t)) {
		if routes[e.Name] == nil {
			names = append(names, e.Name)
		}
		routes[e.Name] = append(routes[e.Name], "`"+e.Pattern+"`")
	}
	rows := []string{"| endpoint (its Lambda) | routes | CSRF secret |", "|---|---|---|"}
	for _, n := range names {
		yes := "no"
		if secret[n] {
			yes = "yes"
		}
		rows = append(rows, fmt.Sprintf("| `%s` | %s | %s |", n, strings.Join(routes[n], ", "), yes))
	}
	want := strings.Join(rows, "\n")

	const path = "../../../docs/api.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	from, to := strings.Index(doc, docsTableStart), strings.Index(doc, docsTableEnd)
	if from < 0 || to < from {
		t.Fatalf("docs/api.md lacks the lines %s and %s around the endpoint table", docsTableStart, docsTableEnd)
	}
	got := strings.TrimSpace(doc[from+len(docsTableStart) : to])
	if got == want {
		return
	}
	if *updateDocs {
		doc = doc[:from+len(docsTableStart)] + "\n" + want + "\n" + doc[to:]
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/api.md's endpoint table differs from routes.go and endpoints.json; rewrite it with\n"+
		"  go test ./internal/api -run TestDocsListEveryEndpoint -update\nwant:\n%s", want)
}
