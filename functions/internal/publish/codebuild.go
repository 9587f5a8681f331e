package publish

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Build is one build of the publish project as CodeBuild reports it: the fields a
// publish's status is made of.
type Build struct {
	ID string
	// Status is CodeBuild's buildStatus: IN_PROGRESS, SUCCEEDED, FAILED, FAULT,
	// TIMED_OUT or STOPPED.
	Status string
	// CurrentPhase is the phase it is in (SUBMITTED … BUILD … COMPLETED).
	CurrentPhase string
	StartTime    *time.Time
	EndTime      *time.Time
	// Env is the build's environment variables, the overrides StartBuild gave included.
	Env map[string]string
	// LogGroup and LogStream are where its output goes in CloudWatch Logs ("" until the
	// build has started writing).
	LogGroup, LogStream string
}

// Builds is what a cloud publish asks of CodeBuild and CloudWatch Logs; the SDK's
// clients (NewAWSBuilds) are the real one, tests have their own.
type Builds interface {
	// StartBuild starts a build of project with env added to its environment.
	StartBuild(ctx context.Context, project string, env map[string]string) (Build, error)
	// LatestBuild is project's newest build; ErrNoBuild when it has none.
	LatestBuild(ctx context.Context, project string) (Build, error)
	// LastLogLines are the last n lines of a log stream, oldest first.
	LastLogLines(ctx context.Context, group, stream string, n int) ([]string, error)
}

// ErrNoBuild is a publish project that has never been built.
var ErrNoBuild = errors.New("the publish project has no build yet")

// ErrBuildLimit is CodeBuild refusing a build because the project's one build at a
// time runs already (its concurrent build limit).
var ErrBuildLimit = errors.New("the publish project's concurrent build limit is reached")

// ByVar is the environment variable a cloud publish's build is started with, naming who
// asked for it (the back office shows it).
const ByVar = "PUBLISH_BY"

// phases are CodeBuild's build phases in order, for a running build's progress.
var phases = []string{"SUBMITTED", "QUEUED", "PROVISIONING", "DOWNLOAD_SOURCE", "INSTALL", "PRE_BUILD", "BUILD", "POST_BUILD",
	"UPLOAD_ARTIFACTS", "FINALIZING", "COMPLETED"}

// phaseSteps says what each phase is doing, in the back office's words.
var phaseSteps = map[string]string{
	"SUBMITTED":        "waiting for a build machine",
	"QUEUED":           "waiting for a build machine",
	"PROVISIONING":     "starting the build machine",
	"DOWNLOAD_SOURCE":  "fetching the shop's code",
	"INSTALL":          "installing Node and Go",
	"PRE_BUILD":        "installing the site's packages",
	"BUILD":            "building the site and publishing it",
	"POST_BUILD":       "finishing",
	"UPLOAD_ARTIFACTS": "finishing",
	"FINALIZING":       "finishing",
	"COMPLETED":        "finishing",
}

// CodeBuild publishes where the site is built by an AWS CodeBuild project (the cloud):
// Start starts a build of Project, which runs scripts/release --target aws for the
// stage, and Status reads the project's newest build, its phase as progress and its last
// lines from CloudWatch Logs. The project allows one build at a time; Start refuses a
// second while one runs, as the local edge's Command does. Nothing is kept in memory: any
// of the stage's Lambdas answers the same.
type CodeBuild struct {
	Builds  Builds
	Project string
}

// Start begins a publish for by, unless one runs (ErrRunning, with its status).
func (c CodeBuild) Start(ctx context.Context, by string) (Status, error) {
	latest, err := c.Builds.LatestBuild(ctx, c.Project)
	switch {
	case errors.Is(err, ErrNoBuild):
	case err != nil:
		return Status{}, fmt.Errorf("publish project %s: %w", c.Project, err)
	case latest.Status == "IN_PROGRESS":
		return c.statusOf(ctx, latest), ErrRunning
	}
	b, err := c.Builds.StartBuild(ctx, c.Project, map[string]string{ByVar: by})
	if errors.Is(err, ErrBuildLimit) {
		// Another staff member's publish started between the check and this one.
		s, serr := c.Status(ctx)
		if serr != nil {
			return Status{}, serr
		}
		return s, ErrRunning
	}
	if err != nil {
		return Status{}, fmt.Errorf("start a build of %s: %w", c.Project, err)
	}
	return c.statusOf(ctx, b), nil
}

// Status answers the state of the newest publish: idle before the first.
func (c CodeBuild) Status(ctx context.Context) (Status, error) {
	b, err := c.Builds.LatestBuild(ctx, c.Project)
	if errors.Is(err, ErrNoBuild) {
		return Status{State: Idle}, nil
	}
	if err != nil {
		return Status{}, fmt.Errorf("publish project %s: %w", c.Project, err)
	}
	return c.statusOf(ctx, b), nil
}

// statusOf is b as a publish's status, with its log's last lines when they can be read (a
// status without them beats none: the build's own page has them too).
func (c CodeBuild) statusOf(ctx context.Context, b Build) Status {
	s := Status{StartedAt: b.StartTime, FinishedAt: b.EndTime, By: b.Env[ByVar]}
	if b.LogGroup != "" && b.LogStream != "" {
		if lines, err := c.Builds.LastLogLines(ctx, b.LogGroup, b.LogStream, logLines); err == nil {
			s.Log = lines
		}
	}
	for _, l := range s.Log {
		if m := liveLine.FindStringSubmatch(l); m != nil {
			s.BuildID = m[1]
		}
	}
	switch b.Status {
	case "IN_PROGRESS":
		s.State, s.FinishedAt = Running, nil
		s.Message = progress(b.CurrentPhase)
	case "SUCCEEDED":
		s.State, s.Message = Done, "published: the catalogue change is live"
		if s.BuildID != "" {
			s.Message = "published: build " + s.BuildID + " is live"
		}
	case "TIMED_OUT":
		s.State, s.Message = Failed, "the release took too long and was stopped; nothing changed for buyers unless its log says a build went live"
	case "STOPPED":
		s.State, s.Message = Failed, "the release was stopped; nothing changed for buyers unless its log says a build went live"
	default:
		s.State = Failed
		s.Message = "the release failed (CodeBuild build " + b.ID + ", " + strings.ToLower(b.Status) + "); buyers still see the last published build. Its last lines are below."
	}
	return s
}

// progress is a running build's phase in words, with how far along the phases it is.
func progress(phase string) string {
	i := 0
	for j, p := range phases {
		if p == phase {
			i = j + 1
		}
	}
	step, ok := phaseSteps[phase]
	if !ok || i == 0 {
		return "building the site and publishing it"
	}
	return fmt.Sprintf("%s (step %d of %d: %s)", step, i, len(phases), phase)
}
