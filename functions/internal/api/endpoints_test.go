package api

import (
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/csrf"
)

// deployedEndpoint is one entry of endpoints.json, the list the CDK app deploys.
type deployedEndpoint struct {
	Name   string   `json:"name"`
	Routes []string `json:"routes"`
	Table  string   `json:"table"`
}

// endpointsFile is endpoints.json: the endpoints and the DynamoDB operations of each
// table level (the CDK app grants exactly those).
type endpointsFile struct {
	TableLevels map[string][]string `json:"tableLevels"`
	Endpoints   []deployedEndpoint  `json:"endpoints"`
}

func readEndpointsFile(t *testing.T) endpointsFile {
	t.Helper()
	raw, err := os.ReadFile("endpoints.json")
	if err != nil {
		t.Fatal(err)
	}
	var file endpointsFile
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatalf("endpoints.json: %v", err)
	}
	return file
}

// TestEndpointsFileMatchesRoutes keeps endpoints.json (read by infra/ to make one Lambda
// and its API routes per endpoint) equal to the Endpoints the Go code serves.
func TestEndpointsFileMatchesRoutes(t *testing.T) {
	t.Parallel()
	file := readEndpointsFile(t)
	if !slices.Equal(slices.Sorted(maps.Keys(file.TableLevels)), []string{"none", "read", "readwrite"}) {
		t.Errorf("endpoints.json tableLevels %v, want none, read and readwrite", slices.Sorted(maps.Keys(file.TableLevels)))
	}
	deployed := map[string]deployedEndpoint{}
	for _, e := range file.Endpoints {
		if _, dup := deployed[e.Name]; dup {
			t.Errorf("endpoints.json lists %s twice", e.Name)
		}
		if _, ok := file.TableLevels[e.Table]; !ok {
			t.Errorf("endpoints.json: %s has table %q, want one of tableLevels", e.Name, e.Table)
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
