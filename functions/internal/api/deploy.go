package api

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/tradeshop/functions/internal/csrf"
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

// DepsForEndpoint builds the Deps of the Lambda serving endpoint name. An endpoint that
// neither checks nor issues CSRF tokens is deployed without CSRF_SECRET
// ("csrfSecret": false) and gets csrf.Disabled(), which panics if it is ever used;
// every other Dep is as DepsFromEnv builds it.
func DepsForEndpoint(ctx context.Context, getenv func(string) string, log *slog.Logger, name string) (Deps, error) {
	d, err := ReadDeployment()
	if err != nil {
		return Deps{}, err
	}
	for _, e := range d.Endpoints {
		if e.Name != name {
			continue
		}
		if e.CSRFSecret {
			return DepsFromEnv(ctx, getenv, log)
		}
		// DepsFromEnv insists on CSRF_SECRET in the cloud: hand it a throwaway one, then
		// replace the protector it makes with one that has no secret at all.
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		throwaway := base64.StdEncoding.EncodeToString(b)
		deps, err := DepsFromEnv(ctx, func(k string) string {
			if k == "CSRF_SECRET" {
				return throwaway
			}
			return getenv(k)
		}, log)
		if err != nil {
			return Deps{}, err
		}
		deps.CSRF = csrf.Disabled()
		return deps, nil
	}
	return Deps{}, fmt.Errorf("endpoints.json has no endpoint %q", name)
}
