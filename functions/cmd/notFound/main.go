// Command notFound is CloudFront's fallback origin and the HTTP API's default route:
// a page S3 does not have gets the current build's 404 page (a bare 404 for crawlers),
// an /api path no endpoint serves gets a JSON 404.
//
// Environment: SITE_BUCKET (the site bucket), NOT_FOUND_KEY (default site/404.html,
// which the release stores with Content-Encoding: gzip: the page is decoded before it is
// served), AWS_REGION (set by Lambda).
package main

import (
	"context"
	"net/http"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/tradeshop/functions/internal/api"
	"github.com/tradeshop/functions/internal/lambdarun"
	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/notfound"
)

func main() {
	log := metrics.NewLogger(os.Stdout, metrics.ConfigFromEnv(os.Getenv))
	bucket := os.Getenv("SITE_BUCKET")
	key := os.Getenv("NOT_FOUND_KEY")
	if key == "" {
		key = "site/404.html"
	}
	cfg, err := config.LoadDefaultConfig(context.Background())
	if bucket == "" || err != nil {
		log.Error("start", "endpoint", "notFound", "err", err, "SITE_BUCKET", bucket)
		os.Exit(1)
	}
	page := &notfound.S3Page{Client: s3.NewFromConfig(cfg), Bucket: bucket, Key: key, MaxAge: time.Minute, Now: time.Now}
	mux := http.NewServeMux()
	mux.Handle("/api/", api.UnknownEndpoint())
	mux.Handle("/", notfound.Handler(log, page))
	lambdarun.Serve(log, mux)
}
