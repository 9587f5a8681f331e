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
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/tradeshop/functions/internal/api"
)

func main() {
	out := flag.String("o", "", "write endpoints.json to this file")
	check := flag.String("check", "", "compare this file with what would be written; exit 1 if it differs")
	flag.Parse()
	d, err := api.DeploymentFromRoutes()
	if err != nil {
		fmt.Fprintln(os.Stderr, "deployment:", err)
		os.Exit(1)
	}
	file := api.EncodeDeployment(d)
	switch {
	case *check != "":
		have, err := os.ReadFile(*check)
		if err != nil || !bytes.Equal(have, file) {
			fmt.Fprintf(os.Stderr, "deployment: %s is not what routes.go declares: run `cd functions && go generate ./internal/api/` and commit it\n", *check)
			os.Exit(1)
		}
	case *out != "":
		if err := os.WriteFile(*out, file, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "deployment:", err)
			os.Exit(1)
		}
	default:
		os.Stdout.Write(file)
	}
}
