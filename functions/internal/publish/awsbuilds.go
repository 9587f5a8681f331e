package publish

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// AWSBuilds is Builds over CodeBuild's and CloudWatch Logs' JSON APIs, each call signed
// with SigV4 by the SDK's signer. The module has no CodeBuild or CloudWatch Logs client
// of the SDK (the project adds no modules for four calls), so the calls are made here:
// each is one POST of a JSON body naming the operation in X-Amz-Target.
type AWSBuilds struct {
	Credentials aws.CredentialsProvider
	Region      string
	// HTTP sends the calls (default http.DefaultClient).
	HTTP *http.Client
	// Endpoint replaces https://{service}.{region}.amazonaws.com (tests).
	Endpoint func(service string) string
	// Now is the signing time (default time.Now).
	Now func() time.Time
}

// NewAWSBuilds is AWSBuilds with cfg's credentials and region (the function's role).
func NewAWSBuilds(cfg aws.Config) *AWSBuilds {
	return &AWSBuilds{Credentials: cfg.Credentials, Region: cfg.Region}
}

var _ Builds = (*AWSBuilds)(nil)

// The two APIs: the signing name, the X-Amz-Target prefix.
var (
	codeBuildAPI = jsonAPI{service: "codebuild", target: "CodeBuild_20161006."}
	logsAPI      = jsonAPI{service: "logs", target: "Logs_20140328."}
)

type jsonAPI struct{ service, target string }

// apiError is an error answer of an AWS JSON API: its type (the exception's name) and
// message.
type apiError struct {
	Type    string
	Message string
	Status  int
}

func (e *apiError) Error() string { return fmt.Sprintf("%s (%d): %s", e.Type, e.Status, e.Message) }

// epochSeconds is a time as the JSON APIs write it: seconds since 1970, with a fraction.
type epochSeconds float64

func (s *epochSeconds) time() *time.Time {
	if s == nil || *s == 0 {
		return nil
	}
	sec, frac := math.Modf(float64(*s))
	t := time.Unix(int64(sec), int64(frac*1e9)).UTC()
	return &t
}

type envVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Type  string `json:"type,omitempty"`
}

// wireBuild is CodeBuild's Build object, the fields read.
type wireBuild struct {
	ID           string        `json:"id"`
	BuildStatus  string        `json:"buildStatus"`
	CurrentPhase string        `json:"currentPhase"`
	StartTime    *epochSeconds `json:"startTime"`
	EndTime      *epochSeconds `json:"endTime"`
	Environment  struct {
		EnvironmentVariables []envVar `json:"environmentVariables"`
	} `json:"environment"`
	Logs struct {
		GroupName  string `json:"groupName"`
		StreamName string `json:"streamName"`
	} `json:"logs"`
}

func (w wireBuild) build() Build {
	b := Build{ID: w.ID, Status: w.BuildStatus, CurrentPhase: w.CurrentPhase, StartTime: w.StartTime.time(), EndTime: w.EndTime.time(),
		Env: map[string]string{}, LogGroup: w.Logs.GroupName, LogStream: w.Logs.StreamName}
	for _, v := range w.Environment.EnvironmentVariables {
		if v.Type == "" || v.Type == "PLAINTEXT" {
			b.Env[v.Name] = v.Value
		}
	}
	return b
}

// StartBuild is CodeBuild's StartBuild with env as plain-text overrides.
func (a *AWSBuilds) StartBuild(ctx context.Context, project string, env map[string]string) (Build, error) {
	in := struct {
		ProjectName string   `json:"projectName"`
		Env         []envVar `json:"environmentVariablesOverride,omitempty"`
	}{ProjectName: project}
	for k, v := range env {
		in.Env = append(in.Env, envVar{Name: k, Value: v, Type: "PLAINTEXT"})
	}
	var out struct {
		Build wireBuild `json:"build"`
	}
	err := a.call(ctx, codeBuildAPI, "StartBuild", in, &out)
	var ae *apiError
	if errors.As(err, &ae) && ae.Type == "AccountLimitExceededException" {
		return Build{}, fmt.Errorf("%w: %s", ErrBuildLimit, ae.Message)
	}
	if err != nil {
		return Build{}, err
	}
	return out.Build.build(), nil
}

// LatestBuild is ListBuildsForProject's first id (newest first), read by BatchGetBuilds.
func (a *AWSBuilds) LatestBuild(ctx context.Context, project string) (Build, error) {
	var list struct {
		IDs []string `json:"ids"`
	}
	if err := a.call(ctx, codeBuildAPI, "ListBuildsForProject", map[string]string{"projectName": project, "sortOrder": "DESCENDING"}, &list); err != nil {
		return Build{}, err
	}
	if len(list.IDs) == 0 {
		return Build{}, ErrNoBuild
	}
	var got struct {
		Builds []wireBuild `json:"builds"`
	}
	if err := a.call(ctx, codeBuildAPI, "BatchGetBuilds", map[string][]string{"ids": list.IDs[:1]}, &got); err != nil {
		return Build{}, err
	}
	if len(got.Builds) == 0 {
		return Build{}, fmt.Errorf("build %s: not found", list.IDs[0])
	}
	return got.Builds[0].build(), nil
}

// LastLogLines is GetLogEvents from the stream's end: its last n events, each split into
// lines, the last n of those.
func (a *AWSBuilds) LastLogLines(ctx context.Context, group, stream string, n int) ([]string, error) {
	in := struct {
		Group         string `json:"logGroupName"`
		Stream        string `json:"logStreamName"`
		Limit         int    `json:"limit"`
		StartFromHead bool   `json:"startFromHead"`
	}{group, stream, n, false}
	var out struct {
		Events []struct {
			Message string `json:"message"`
		} `json:"events"`
	}
	if err := a.call(ctx, logsAPI, "GetLogEvents", in, &out); err != nil {
		return nil, err
	}
	var lines []string
	for _, e := range out.Events {
		for l := range strings.SplitSeq(strings.TrimRight(e.Message, "\r\n"), "\n") {
			lines = append(lines, strings.TrimRight(l, "\r"))
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines, nil
}

// call POSTs in as op's JSON body, signed, and decodes the answer into out; an error
// answer is an *apiError.
func (a *AWSBuilds) call(ctx context.Context, api jsonAPI, op string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("%s %s: %w", api.service, op, err)
	}
	url := fmt.Sprintf("https://%s.%s.amazonaws.com/", api.service, a.Region)
	if a.Endpoint != nil {
		url = a.Endpoint(api.service)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s %s: %w", api.service, op, err)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", api.target+op)
	creds, err := a.Credentials.Retrieve(ctx)
	if err != nil {
		return fmt.Errorf("%s %s: credentials: %w", api.service, op, err)
	}
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	sum := sha256.Sum256(body)
	if err := v4.NewSigner().SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), api.service, a.Region, now()); err != nil {
		return fmt.Errorf("%s %s: sign: %w", api.service, op, err)
	}
	client := a.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", api.service, op, err)
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", api.service, op, err)
	}
	if res.StatusCode != http.StatusOK {
		var e struct {
			Type    string `json:"__type"`
			Message string `json:"message"`
			Upper   string `json:"Message"`
		}
		_ = json.Unmarshal(answer, &e)
		// The type may be written as the exception's full name: "com.amazonaws…#Name".
		t := e.Type[strings.LastIndex(e.Type, "#")+1:]
		return fmt.Errorf("%s %s: %w", api.service, op, &apiError{Type: t, Message: e.Message + e.Upper, Status: res.StatusCode})
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("%s %s: the answer: %w", api.service, op, err)
	}
	return nil
}
