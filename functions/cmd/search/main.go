// Command search is the Lambda behind GET /api/search. It only
// wires: configuration from the environment, then the shared handler behind the API
// Gateway v2 adapter.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/tradeshop/functions/internal/api"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	ctx := context.Background()
	deps, err := api.DepsFromEnv(ctx, os.Getenv, log)
	if err != nil {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	if p, ok := deps.Search.(interface{ Warm() }); ok {
		p.Warm() // build the index while the first request is still on its way
	}
	h, err := api.EndpointHandler(deps, "search")
	if err != nil {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	lambda.Start(httpadapter.NewV2(api.WithRequestLog(log, h)).ProxyWithContext)
}
