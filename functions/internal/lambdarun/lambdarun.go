// Package lambdarun is the whole body of the Lambdas' mains: read the configuration from
// the environment, build the shared dependencies, and serve one /api endpoint (or, for
// notFound, a handler of its own) behind the API Gateway v2 adapter with request logging;
// and the start the scheduled jobs' Lambdas share (StartJob).
package lambdarun

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/api"
	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/publish"
	"github.com/tradeshop/functions/internal/store"
)

// EndpointVar names the environment variable that tells the one API binary (cmd/api)
// which endpoint of endpoints.json its function serves. The CDK app sets it on every
// endpoint's function (infra/lib/shop-api.ts).
const EndpointVar = "API_ENDPOINT"

// Run serves the endpoint named in API_ENDPOINT until the Lambda runtime stops the
// process. It stops at once, logging why, if the endpoint is missing or unknown or its
// configuration is incomplete: a function that cannot serve should fail its first start,
// not its first request.
func Run(getenv func(string) string) {
	log := metrics.NewLogger(os.Stdout, metrics.ConfigFromEnv(os.Getenv))
	h, err := Handler(context.Background(), getenv, log)
	if err != nil {
		log.Error("start", "endpoint", getenv(EndpointVar), "err", err)
		os.Exit(1)
	}
	Serve(log, h)
}

// Handler builds what the function of the endpoint named in API_ENDPOINT serves: that
// endpoint's routes, refusing any request that did not come through CloudFront (which
// adds the origin secret).
func Handler(ctx context.Context, getenv func(string) string, log *slog.Logger) (http.Handler, error) {
	name := getenv(EndpointVar)
	if name == "" {
		return nil, errors.New(EndpointVar + " is not set: it names the endpoint this function serves (endpoints.json)")
	}
	deps, err := api.DepsForEndpoint(ctx, getenv, log, name)
	if err != nil {
		return nil, err
	}
	if name == "search" {
		deps.Search.Warm() // build the index while the first request is on its way
	}
	if deps.Publisher, err = publisherFromEnv(ctx, getenv); err != nil {
		return nil, err
	}
	h, err := api.EndpointHandler(deps, name)
	if err != nil {
		return nil, err
	}
	guard, err := api.OriginGuardFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	return guard(h), nil
}

// PublishProjectVar names the stage's CodeBuild publish project, which the back office's
// "Publish catalogue" starts (infra/lib/publish-build.ts sets it on the functions with
// publishBuild in endpoints.json).
const PublishProjectVar = "PUBLISH_PROJECT"

// publisherFromEnv is the publisher over the CodeBuild project PUBLISH_PROJECT names,
// with the function's own credentials and region; nil without it (the endpoints then
// answer 501).
func publisherFromEnv(ctx context.Context, getenv func(string) string) (api.Publisher, error) {
	project := getenv(PublishProjectVar)
	if project == "" {
		return nil, nil
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(store.ConfigFromEnv(getenv).Region))
	if err != nil {
		return nil, fmt.Errorf("publish project %s: %w", project, err)
	}
	return publish.CodeBuild{Builds: publish.NewAWSBuilds(cfg), Project: project}, nil
}

// Serve hands h to the Lambda runtime behind the API Gateway v2 adapter, with request
// logging, until the runtime stops the process.
func Serve(log *slog.Logger, h http.Handler) {
	lambda.Start(httpadapter.NewV2(api.WithRequestLog(log, h)).ProxyWithContext)
}

// StartJob is the start every scheduled job's Lambda shares (sweepOrders, sendEmails,
// statements): its logger, the store and its configuration, and the shop's configuration.
// A job that cannot have one of them stops at once, logging why, as Run does.
func StartJob(getenv func(string) string) (*slog.Logger, *store.Store, store.Config, config.Shop) {
	log := metrics.NewLogger(os.Stdout, metrics.ConfigFromEnv(getenv))
	cfg := store.ConfigFromEnv(getenv)
	st, err := store.Open(context.Background(), cfg)
	if err == nil {
		var shop config.Shop
		if shop, err = config.Load(); err == nil {
			return log, st, cfg, shop
		}
	}
	log.Error("start", "err", err)
	os.Exit(1)
	return nil, nil, store.Config{}, config.Shop{}
}
