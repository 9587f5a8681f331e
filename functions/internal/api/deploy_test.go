package api

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
)

// TestDepsForEndpointInTheCloud starts endpoints as their Lambdas do in production: one
// deployed without CSRF_SECRET starts, with a protector that has no secret; one that
// checks tokens refuses to start without it.
func TestDepsForEndpointInTheCloud(t *testing.T) {
	t.Parallel()
	env := map[string]string{"STAGE": "production", "FIREBASE_PROJECT_ID": "tradeshop-production", "TABLE_NAME": "t",
		"AWS_REGION": "eu-west-2", "FIREBASE_KEYS_URL": "http://127.0.0.1:1/keys"}
	getenv := func(k string) string { return env[k] }
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	d, err := DepsForEndpoint(context.Background(), getenv, log, "search")
	if err != nil {
		t.Fatalf("search without CSRF_SECRET: %v", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("search's protector signed a token: it must have no secret")
			}
		}()
		d.CSRF.Issue()
	}()
	if _, err := DepsForEndpoint(context.Background(), getenv, log, "basketAdd"); err == nil || !strings.Contains(err.Error(), "CSRF_SECRET") {
		t.Errorf("basketAdd without CSRF_SECRET: %v, want a refusal to start", err)
	}
	env["CSRF_SECRET"] = strings.Repeat("k", 40)
	if d, err := DepsForEndpoint(context.Background(), getenv, log, "basketAdd"); err != nil || d.CSRF.Issue() == "" {
		t.Errorf("basketAdd with CSRF_SECRET: %v", err)
	}
	if _, err := DepsForEndpoint(context.Background(), getenv, log, "nope"); err == nil {
		t.Error("an endpoint endpoints.json does not list started")
	}
}

// TestEveryFunctionHasAGroup holds routes.go to the endpoint groups the metrics, the
// alarms and the dashboard gather endpoints under (docs/operations.md).
func TestEveryFunctionHasAGroup(t *testing.T) {
	groups := []string{"catalogue", "basket", "orders", "account", "admin", "errors", "payments"}
	for _, f := range endpointFunctions {
		if !slices.Contains(groups, f.Group) {
			t.Errorf("endpoint %s has group %q, not one of %v", f.Name, f.Group, groups)
		}
	}
	for _, f := range jobFunctions {
		if f.Group != "jobs" {
			t.Errorf("job %s has group %q, not jobs", f.Name, f.Group)
		}
	}
}
