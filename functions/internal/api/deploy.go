package api

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"

	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/store"
)

// endpointsJSON is endpoints.json: the /api surface as the cloud deploys it, with each
// endpoint's table grants and whether it gets the CSRF secret (the CDK app reads the same
// file; endpoints_test.go keeps it equal to routes.go and access_integration_test.go keeps
// its grants true).
//
//go:embed endpoints.json
var endpointsJSON []byte

// Grant is one IAM statement on the table: Actions (DynamoDB operation names) on items
// whose partition key matches one of Keys (IAM StringLike patterns on
// dynamodb:LeadingKeys), or, with Index, a read of that index (catalogue reads: no key
// condition, the index holds only catalogue items).
type Grant struct {
	Actions []string `json:"actions"`
	Keys    []string `json:"keys,omitempty"`
	Index   string   `json:"index,omitempty"`
}

// DeployedFunction is one function of endpoints.json: an /api endpoint (with routes) or
// a scheduled job.
type DeployedFunction struct {
	Name       string   `json:"name"`
	Routes     []string `json:"routes,omitempty"`
	CSRFSecret bool     `json:"csrfSecret"`
	Access     []Grant  `json:"access"`
	MemoryMB   int      `json:"memoryMB,omitempty"`
	// TimeoutSeconds is the function's timeout (default 10; at most 29, under API
	// Gateway's 30 s).
	TimeoutSeconds int `json:"timeoutSeconds,omitempty"`
	// MediaBucket: the function publishes product pictures to the media bucket
	// (MEDIA_BUCKET; objects under media/products/).
	MediaBucket bool `json:"mediaBucket,omitempty"`
}

// Deployment is endpoints.json.
type Deployment struct {
	Endpoints []DeployedFunction `json:"endpoints"`
	Jobs      []DeployedFunction `json:"jobs"`
}

// ReadDeployment parses endpoints.json as built into this binary.
func ReadDeployment() (Deployment, error) {
	var d Deployment
	if err := json.Unmarshal(endpointsJSON, &d); err != nil {
		return d, fmt.Errorf("endpoints.json: %w", err)
	}
	return d, nil
}

// DepsForEndpoint builds the Deps of the Lambda serving endpoint name. Only the
// endpoints that check or issue CSRF tokens are deployed with CSRF_SECRET (endpoints.json
// "csrfSecret"), and csrf.FromEnv refuses to start without it in staging and production;
// every other endpoint gets csrf.Disabled(), which panics if it is ever used, so an
// endpoint that needs the secret and was not given it fails loudly. Every other Dep is as
// DepsFromEnv builds it.
func DepsForEndpoint(ctx context.Context, getenv func(string) string, log *slog.Logger, name string) (Deps, error) {
	d, err := ReadDeployment()
	if err != nil {
		return Deps{}, err
	}
	i := slices.IndexFunc(d.Endpoints, func(e DeployedFunction) bool { return e.Name == name })
	if i < 0 {
		return Deps{}, fmt.Errorf("endpoints.json has no endpoint %q", name)
	}
	protector := csrf.Disabled()
	if d.Endpoints[i].CSRFSecret {
		if protector, err = csrf.FromEnv(getenv); err != nil {
			return Deps{}, err
		}
	}
	st, err := store.Open(ctx, store.ConfigFromEnv(getenv))
	if err != nil {
		return Deps{}, err
	}
	return depsWith(ctx, getenv, log, st, protector)
}
