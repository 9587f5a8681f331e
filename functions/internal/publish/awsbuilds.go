package publish

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	"github.com/aws/aws-sdk-go-v2/service/codebuild"
	cbtypes "github.com/aws/aws-sdk-go-v2/service/codebuild/types"
)

// CodeBuildAPI is the part of the SDK's CodeBuild client a cloud publish calls.
type CodeBuildAPI interface {
	StartBuild(ctx context.Context, in *codebuild.StartBuildInput, opts ...func(*codebuild.Options)) (*codebuild.StartBuildOutput, error)
	ListBuildsForProject(ctx context.Context, in *codebuild.ListBuildsForProjectInput, opts ...func(*codebuild.Options)) (*codebuild.ListBuildsForProjectOutput, error)
	BatchGetBuilds(ctx context.Context, in *codebuild.BatchGetBuildsInput, opts ...func(*codebuild.Options)) (*codebuild.BatchGetBuildsOutput, error)
}

// LogsAPI is the part of the SDK's CloudWatch Logs client a cloud publish calls.
type LogsAPI interface {
	GetLogEvents(ctx context.Context, in *cloudwatchlogs.GetLogEventsInput, opts ...func(*cloudwatchlogs.Options)) (*cloudwatchlogs.GetLogEventsOutput, error)
}

// AWSBuilds is Builds over the SDK's CodeBuild and CloudWatch Logs clients.
type AWSBuilds struct {
	CodeBuild CodeBuildAPI
	Logs      LogsAPI
}

// NewAWSBuilds is AWSBuilds with cfg's credentials and region (the function's role).
func NewAWSBuilds(cfg aws.Config) *AWSBuilds {
	return &AWSBuilds{CodeBuild: codebuild.NewFromConfig(cfg), Logs: cloudwatchlogs.NewFromConfig(cfg)}
}

var _ Builds = (*AWSBuilds)(nil)

// buildOf is the fields of CodeBuild's Build a publish's status is made of; only
// plain-text environment variables are kept (never a secret's reference).
func buildOf(b cbtypes.Build) Build {
	out := Build{ID: aws.ToString(b.Id), Status: string(b.BuildStatus), CurrentPhase: aws.ToString(b.CurrentPhase),
		StartTime: b.StartTime, EndTime: b.EndTime, Env: map[string]string{}}
	if b.Environment != nil {
		for _, v := range b.Environment.EnvironmentVariables {
			if v.Type == "" || v.Type == cbtypes.EnvironmentVariableTypePlaintext {
				out.Env[aws.ToString(v.Name)] = aws.ToString(v.Value)
			}
		}
	}
	if b.Logs != nil {
		out.LogGroup, out.LogStream = aws.ToString(b.Logs.GroupName), aws.ToString(b.Logs.StreamName)
	}
	return out
}

// StartBuild is CodeBuild's StartBuild with env as plain-text overrides; the project's
// concurrent build limit reached is ErrBuildLimit.
func (a *AWSBuilds) StartBuild(ctx context.Context, project string, env map[string]string) (Build, error) {
	in := &codebuild.StartBuildInput{ProjectName: aws.String(project)}
	for k, v := range env {
		in.EnvironmentVariablesOverride = append(in.EnvironmentVariablesOverride,
			cbtypes.EnvironmentVariable{Name: aws.String(k), Value: aws.String(v), Type: cbtypes.EnvironmentVariableTypePlaintext})
	}
	out, err := a.CodeBuild.StartBuild(ctx, in)
	if limit := (*cbtypes.AccountLimitExceededException)(nil); errors.As(err, &limit) {
		return Build{}, fmt.Errorf("%w: %s", ErrBuildLimit, limit.ErrorMessage())
	}
	if err != nil {
		return Build{}, fmt.Errorf("codebuild StartBuild: %w", err)
	}
	if out.Build == nil {
		return Build{}, errors.New("codebuild StartBuild: no build in the answer")
	}
	return buildOf(*out.Build), nil
}

// LatestBuild is ListBuildsForProject's first id (newest first), read by BatchGetBuilds.
func (a *AWSBuilds) LatestBuild(ctx context.Context, project string) (Build, error) {
	list, err := a.CodeBuild.ListBuildsForProject(ctx, &codebuild.ListBuildsForProjectInput{ProjectName: aws.String(project), SortOrder: cbtypes.SortOrderTypeDescending})
	if err != nil {
		return Build{}, fmt.Errorf("codebuild ListBuildsForProject: %w", err)
	}
	if len(list.Ids) == 0 {
		return Build{}, ErrNoBuild
	}
	got, err := a.CodeBuild.BatchGetBuilds(ctx, &codebuild.BatchGetBuildsInput{Ids: list.Ids[:1]})
	if err != nil {
		return Build{}, fmt.Errorf("codebuild BatchGetBuilds: %w", err)
	}
	if len(got.Builds) == 0 {
		return Build{}, fmt.Errorf("build %s: not found", list.Ids[0])
	}
	return buildOf(got.Builds[0]), nil
}

// LastLogLines is GetLogEvents from the stream's end: its last n events, each split into
// lines, the last n of those.
func (a *AWSBuilds) LastLogLines(ctx context.Context, group, stream string, n int) ([]string, error) {
	out, err := a.Logs.GetLogEvents(ctx, &cloudwatchlogs.GetLogEventsInput{LogGroupName: aws.String(group), LogStreamName: aws.String(stream),
		Limit: aws.Int32(int32(n)), StartFromHead: aws.Bool(false)})
	if err != nil {
		return nil, fmt.Errorf("logs GetLogEvents: %w", err)
	}
	var lines []string
	for _, e := range out.Events {
		for l := range strings.SplitSeq(strings.TrimRight(aws.ToString(e.Message), "\r\n"), "\n") {
			lines = append(lines, strings.TrimRight(l, "\r"))
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines, nil
}
