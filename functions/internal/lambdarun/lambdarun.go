// Package lambdarun is the whole body of every Lambda's main: read the configuration
// from the environment, build the shared dependencies, and serve the one named /api
// endpoint behind the API Gateway v2 adapter with request logging.
package lambdarun

import (
	"context"
	"log/slog"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/tradeshop/functions/internal/api"
)

// Run serves endpoint name until the Lambda runtime stops the process.
func Run(name string) {
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	deps, err := api.DepsForEndpoint(context.Background(), os.Getenv, log, name)
	if err != nil {
		log.Error("start", "endpoint", name, "err", err)
		os.Exit(1)
	}
	if name == "search" {
		deps.Search.Warm() // build the index while the first request is on its way
	}
	h, err := api.EndpointHandler(deps, name)
	if err != nil {
		log.Error("start", "endpoint", name, "err", err)
		os.Exit(1)
	}
	// Only requests that came through CloudFront (which adds the origin secret) are served.
	guard, err := api.OriginGuardFromEnv(os.Getenv)
	if err != nil {
		log.Error("start", "endpoint", name, "err", err)
		os.Exit(1)
	}
	Serve(log, guard(h))
}

// Serve hands h to the Lambda runtime behind the API Gateway v2 adapter, with request
// logging, until the runtime stops the process.
func Serve(log *slog.Logger, h http.Handler) {
	lambda.Start(httpadapter.NewV2(api.WithRequestLog(log, h)).ProxyWithContext)
}
