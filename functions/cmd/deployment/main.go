// Command deployment writes internal/api/endpoints.json, the /api surface as the cloud
// deploys it (read by the CDK app, the Lambda build script, the fault suite and the Go
// functions), from routes.go: Endpoints() for the names and routes, endpointFunctions and
// jobFunctions for each function's deploy facts.
//
//	go run ./cmd/deployment -o internal/api/endpoints.json   (go generate ./internal/api/ runs it)
//	go run ./cmd/deployment -check internal/api/endpoints.json
//
// With -check it writes nothing and exits 1 when the file differs from what it would
// write: the static suite's staleness check (scripts/test.mjs).
package main

import (
	"github.com/tradeshop/functions/internal/api"
	"github.com/tradeshop/functions/internal/genfile"
)

func main() {
	genfile.Main("deployment", "endpoints.json", "routes.go declares", func() ([]byte, error) {
		d, err := api.DeploymentFromRoutes()
		if err != nil {
			return nil, err
		}
		return api.EncodeDeployment(d), nil
	})
}
