package publish

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	"github.com/aws/aws-sdk-go-v2/service/codebuild"
)

// standIn is AWSBuilds with the SDK's clients pointed at srv (endpoint answers each
// service's URL), with static credentials in eu-west-2 and no retries.
func standIn(srv *httptest.Server, endpoint func(service string) string) *AWSBuilds {
	cfg := aws.Config{Region: "eu-west-2", Credentials: credentials.NewStaticCredentialsProvider("AKID", "SECRET", ""),
		HTTPClient: srv.Client(), Retryer: func() aws.Retryer { return aws.NopRetryer{} }}
	return &AWSBuilds{
		CodeBuild: codebuild.NewFromConfig(cfg, func(o *codebuild.Options) { o.BaseEndpoint = aws.String(endpoint("codebuild")) }),
		Logs:      cloudwatchlogs.NewFromConfig(cfg, func(o *cloudwatchlogs.Options) { o.BaseEndpoint = aws.String(endpoint("logs")) }),
	}
}

// TestAWSBuildsSpeaksTheJSONAPIs checks each call of the SDK's clients against a stand-in
// of the two APIs: the operation in X-Amz-Target, a SigV4 signature for the service, the
// body, and the answer read back (including an error answer's type).
func TestAWSBuildsSpeaksTheJSONAPIs(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var calls []string
	bodies := map[string]map[string]any{}
	answers := map[string]string{
		"CodeBuild_20161006.ListBuildsForProject": `{"ids":["publish:2","publish:1"]}`,
		"CodeBuild_20161006.BatchGetBuilds": `{"builds":[{"id":"publish:2","buildStatus":"IN_PROGRESS","currentPhase":"BUILD","startTime":1795798800.5,` +
			`"environment":{"environmentVariables":[{"name":"PUBLISH_BY","value":"ann@example.com","type":"PLAINTEXT"},{"name":"SECRET","value":"arn","type":"SECRETS_MANAGER"}]},` +
			`"logs":{"groupName":"/aws/codebuild/publish","streamName":"s2"}}]}`,
		"Logs_20140328.GetLogEvents": `{"events":[{"timestamp":1,"message":"one\n"},{"timestamp":2,"message":"two\r\nthree\n"}]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target := r.Header.Get("X-Amz-Target")
		service := strings.Trim(r.URL.Path, "/")
		auth := r.Header.Get("Authorization")
		if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKID/") || !strings.Contains(auth, "/eu-west-2/"+service+"/aws4_request") {
			t.Errorf("%s: Authorization %q", target, auth)
		}
		if r.Header.Get("Content-Type") != "application/x-amz-json-1.1" {
			t.Errorf("%s: Content-Type %q", target, r.Header.Get("Content-Type"))
		}
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(b, &body)
		mu.Lock()
		calls = append(calls, target)
		bodies[target] = body
		mu.Unlock()
		if target == "CodeBuild_20161006.StartBuild" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"__type":"com.amazonaws.codebuild#AccountLimitExceededException","message":"Project-level concurrent build limit cannot exceed 1"}`)
			return
		}
		_, _ = io.WriteString(w, answers[target])
	}))
	t.Cleanup(srv.Close)
	a := standIn(srv, func(service string) string { return srv.URL + "/" + service })
	ctx := context.Background()

	b, err := a.LatestBuild(ctx, "publish")
	if err != nil {
		t.Fatal(err)
	}
	started := time.Unix(1795798800, 500_000_000).UTC()
	want := Build{ID: "publish:2", Status: "IN_PROGRESS", CurrentPhase: "BUILD", StartTime: &started, Env: map[string]string{"PUBLISH_BY": "ann@example.com"},
		LogGroup: "/aws/codebuild/publish", LogStream: "s2"}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("LatestBuild = %+v, want %+v", b, want)
	}
	lines, err := a.LastLogLines(ctx, b.LogGroup, b.LogStream, 2)
	if err != nil || !reflect.DeepEqual(lines, []string{"two", "three"}) {
		t.Errorf("LastLogLines = %q, %v", lines, err)
	}
	if _, err := a.StartBuild(ctx, "publish", map[string]string{"PUBLISH_BY": "bob@example.com"}); !errors.Is(err, ErrBuildLimit) {
		t.Errorf("StartBuild over the limit: %v, want ErrBuildLimit", err)
	}

	wantCalls := []string{"CodeBuild_20161006.ListBuildsForProject", "CodeBuild_20161006.BatchGetBuilds", "Logs_20140328.GetLogEvents", "CodeBuild_20161006.StartBuild"}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("calls %q, want %q", calls, wantCalls)
	}
	wantBodies := map[string]map[string]any{
		"CodeBuild_20161006.ListBuildsForProject": {"projectName": "publish", "sortOrder": "DESCENDING"},
		"CodeBuild_20161006.BatchGetBuilds":       {"ids": []any{"publish:2"}},
		"Logs_20140328.GetLogEvents":              {"logGroupName": "/aws/codebuild/publish", "logStreamName": "s2", "limit": 2.0, "startFromHead": false},
		"CodeBuild_20161006.StartBuild": {"projectName": "publish", "environmentVariablesOverride": []any{
			map[string]any{"name": "PUBLISH_BY", "value": "bob@example.com", "type": "PLAINTEXT"}}},
	}
	if !reflect.DeepEqual(bodies, wantBodies) {
		t.Errorf("bodies %v, want %v", bodies, wantBodies)
	}
}

func TestAWSBuildsNoBuildYet(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, `{"ids":[]}`) }))
	t.Cleanup(srv.Close)
	a := standIn(srv, func(string) string { return srv.URL })
	if _, err := a.LatestBuild(context.Background(), "publish"); !errors.Is(err, ErrNoBuild) {
		t.Errorf("LatestBuild of a project never built: %v, want ErrNoBuild", err)
	}
}
