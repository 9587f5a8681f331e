package lambdarun

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/codebuild"

	"github.com/tradeshop/functions/internal/publish"
)

// TestHandlerServesTheEndpointItIsTold starts the one API binary's handler as the cloud
// does: it serves the endpoint API_ENDPOINT names, behind the origin guard, and refuses to
// start without a name or with one endpoints.json does not list.
func TestHandlerServesTheEndpointItIsTold(t *testing.T) {
	t.Parallel()
	base := map[string]string{"STAGE": "production", "FIREBASE_PROJECT_ID": "tradeshop-production", "TABLE_NAME": "t",
		"AWS_REGION": "eu-west-2", "FIREBASE_KEYS_URL": "http://127.0.0.1:1/keys", "ORIGIN_SECRET": strings.Repeat("o", 40)}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, tc := range []struct {
		endpoint string
		refusal  string // "" when the function starts
	}{
		{"", "API_ENDPOINT is not set"},
		{"nope", `no endpoint "nope"`},
		{"basketAdd", "CSRF_SECRET"}, // it checks tokens, so it must be given the secret
		{"getProfile", ""},
	} {
		t.Run(tc.endpoint, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{EndpointVar: tc.endpoint}
			for k, v := range base {
				env[k] = v
			}
			h, err := Handler(context.Background(), func(k string) string { return env[k] }, log)
			if tc.refusal != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refusal) {
					t.Fatalf("started with %v, want a refusal naming %q", err, tc.refusal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Without the origin secret the request never reaches the endpoint.
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/getProfile", strings.NewReader(`{}`)))
			if w.Code != http.StatusForbidden {
				t.Errorf("a request without the origin secret: %d, want 403", w.Code)
			}
			// Another endpoint's route is not this function's.
			r := httptest.NewRequest(http.MethodPost, "/api/basket", strings.NewReader(`{}`))
			r.Header.Set("X-Origin-Verify", base["ORIGIN_SECRET"])
			w = httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusNotFound {
				t.Errorf("another endpoint's route: %d, want 404", w.Code)
			}
		})
	}
}

// TestPublisherFromEnv: a function given PUBLISH_PROJECT publishes through that CodeBuild
// project; one without has no publisher (the endpoints answer 501).
func TestPublisherFromEnv(t *testing.T) {
	t.Parallel()
	env := map[string]string{"AWS_REGION": "eu-west-2"}
	getenv := func(k string) string { return env[k] }
	if p, err := publisherFromEnv(context.Background(), getenv); p != nil || err != nil {
		t.Errorf("without %s: %v, %v; want no publisher", PublishProjectVar, p, err)
	}
	env[PublishProjectVar] = "Publish-abc"
	p, err := publisherFromEnv(context.Background(), getenv)
	if err != nil {
		t.Fatal(err)
	}
	cb, ok := p.(publish.CodeBuild)
	if !ok || cb.Project != "Publish-abc" {
		t.Fatalf("publisher %#v, want publish.CodeBuild of Publish-abc", p)
	}
	b, ok := cb.Builds.(*publish.AWSBuilds)
	if !ok {
		t.Fatalf("builds %#v, want AWSBuilds", cb.Builds)
	}
	if c, ok := b.CodeBuild.(*codebuild.Client); !ok || c.Options().Region != "eu-west-2" {
		t.Errorf("CodeBuild client %#v, want one in eu-west-2", b.CodeBuild)
	}
}
