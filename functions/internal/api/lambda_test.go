package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/tradeshop/functions/internal/auth"
)

type refuseAll struct{}

func (refuseAll) Verify(context.Context, string) (auth.Claims, error) {
	return auth.Claims{}, auth.ErrInvalidToken
}

// The Lambda wraps the very handler the edge mounts: an API Gateway v2 event goes in
// through the adapter and the handler's JSON answer comes out.
func TestLambdaAdapterServesTheSharedHandler(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := EndpointHandler(withVerifier(unitDeps(t), log, refuseAll{}), "shoppingCartSmall")
	if err != nil {
		t.Fatal(err)
	}
	adapter := httpadapter.NewV2(WithRequestLog(log, h))
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RawPath: "/api/shoppingCartSmall", Body: `{"token":"whatever"}`,
		Headers: map[string]string{"content-type": "application/json"},
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST", Path: "/api/shoppingCartSmall"},
		},
	}
	resp, err := adapter.ProxyWithContext(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	var body errorBody
	if resp.StatusCode != 401 || json.Unmarshal([]byte(resp.Body), &body) != nil || body.Error == "" {
		t.Fatalf("got %d %q", resp.StatusCode, resp.Body)
	}
	if resp.Headers["X-Request-Id"] == "" {
		t.Fatalf("no request id header: %v", resp.Headers)
	}

	if _, err := EndpointHandler(withVerifier(unitDeps(t), log, nil), "noSuchEndpoint"); err == nil {
		t.Fatal("unknown endpoint name accepted")
	}
}

func withVerifier(d Deps, log *slog.Logger, v auth.Verifier) Deps {
	d.Log, d.Verifier = log, v
	return d
}
