package publish

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeBuilds is CodeBuild and CloudWatch Logs in memory: the project's builds, newest
// last, and each stream's lines.
type fakeBuilds struct {
	builds   []Build
	logs     map[string][]string
	started  []map[string]string
	startErr error
	listErr  error
}

func (f *fakeBuilds) StartBuild(_ context.Context, project string, env map[string]string) (Build, error) {
	if f.startErr != nil {
		return Build{}, f.startErr
	}
	f.started = append(f.started, env)
	t := time.Date(2026, 11, 27, 17, 0, 0, 0, time.UTC)
	b := Build{ID: project + ":b" + string(rune('0'+len(f.builds))), Status: "IN_PROGRESS", CurrentPhase: "SUBMITTED", StartTime: &t, Env: env}
	f.builds = append(f.builds, b)
	return b, nil
}

func (f *fakeBuilds) LatestBuild(context.Context, string) (Build, error) {
	if f.listErr != nil {
		return Build{}, f.listErr
	}
	if len(f.builds) == 0 {
		return Build{}, ErrNoBuild
	}
	return f.builds[len(f.builds)-1], nil
}

func (f *fakeBuilds) LastLogLines(_ context.Context, group, stream string, n int) ([]string, error) {
	l := f.logs[group+"/"+stream]
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return l, nil
}

func TestCodeBuildStartsOneBuildAtATime(t *testing.T) {
	t.Parallel()
	f := &fakeBuilds{}
	c := CodeBuild{Builds: f, Project: "publish"}
	ctx := context.Background()

	s, err := c.Status(ctx)
	if err != nil || s.State != Idle {
		t.Fatalf("before any build: %+v, %v; want idle", s, err)
	}
	s, err = c.Start(ctx, "ann@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if s.State != Running || s.By != "ann@example.com" || s.StartedAt == nil || !strings.Contains(s.Message, "waiting for a build machine") {
		t.Errorf("started: %+v", s)
	}
	if want := []map[string]string{{ByVar: "ann@example.com"}}; !reflect.DeepEqual(f.started, want) {
		t.Errorf("StartBuild env %v, want %v", f.started, want)
	}

	// A second while the first runs is refused with the running one's status.
	s, err = c.Start(ctx, "bob@example.com")
	if !errors.Is(err, ErrRunning) || s.State != Running || s.By != "ann@example.com" {
		t.Errorf("second start: %+v, %v; want ErrRunning with ann's build", s, err)
	}
	if len(f.started) != 1 {
		t.Errorf("%d builds started, want 1", len(f.started))
	}

	// CodeBuild's own limit (another start between the check and the call) refuses the
	// same way, with the newest build's status.
	f.builds[0].Status = "SUCCEEDED"
	f.startErr = ErrBuildLimit
	if s, err = c.Start(ctx, "bob@example.com"); !errors.Is(err, ErrRunning) || s.By != "ann@example.com" {
		t.Errorf("start over the limit: %+v, %v; want ErrRunning", s, err)
	}

	f.listErr = errors.New("throttled")
	if _, err = c.Start(ctx, "bob@example.com"); err == nil || errors.Is(err, ErrRunning) {
		t.Errorf("start when the builds cannot be read: %v, want an error", err)
	}
}

func TestCodeBuildStatusOfEachBuildState(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 27, 17, 0, 0, 0, time.UTC)
	end := start.Add(7 * time.Minute)
	logs := map[string][]string{"/aws/codebuild/publish/s1": {
		"[Container] 2026/11/27 17:01:00 Running command scripts/release --target aws",
		"[release] build 20261127T170500Z-abc123 is live on aws",
		"[Container] 2026/11/27 17:06:00 Phase complete: BUILD State: SUCCEEDED",
	}}
	build := func(status, phase string, ended bool) Build {
		b := Build{ID: "publish:1", Status: status, CurrentPhase: phase, StartTime: &start, Env: map[string]string{ByVar: "ann@example.com"},
			LogGroup: "/aws/codebuild/publish", LogStream: "s1"}
		if ended {
			b.EndTime = &end
		}
		return b
	}
	cases := []struct {
		name      string
		build     Build
		state     string
		message   string
		buildID   string
		finished  bool
		logLength int
	}{
		{"running", build("IN_PROGRESS", "BUILD", false), Running, "building the site and publishing it (step 7 of 11: BUILD)", "20261127T170500Z-abc123", false, 3},
		{"installing", build("IN_PROGRESS", "PRE_BUILD", false), Running, "installing the site's packages (step 6 of 11: PRE_BUILD)", "20261127T170500Z-abc123", false, 3},
		{"done", build("SUCCEEDED", "COMPLETED", true), Done, "published: build 20261127T170500Z-abc123 is live", "20261127T170500Z-abc123", true, 3},
		{"failed", build("FAILED", "COMPLETED", true), Failed, "the release failed (CodeBuild build publish:1, failed)", "20261127T170500Z-abc123", true, 3},
		{"timed out", build("TIMED_OUT", "COMPLETED", true), Failed, "took too long", "20261127T170500Z-abc123", true, 3},
		{"no log yet", Build{ID: "publish:2", Status: "IN_PROGRESS", CurrentPhase: "QUEUED"}, Running, "waiting for a build machine (step 2 of 11: QUEUED)", "", false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := CodeBuild{Builds: &fakeBuilds{builds: []Build{tc.build}, logs: logs}, Project: "publish"}
			s, err := c.Status(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if s.State != tc.state || !strings.Contains(s.Message, tc.message) || s.BuildID != tc.buildID || (s.FinishedAt != nil) != tc.finished || len(s.Log) != tc.logLength {
				t.Errorf("status %+v; want state %s, message with %q, build %q, finished %t, %d lines", s, tc.state, tc.message, tc.buildID, tc.finished, tc.logLength)
			}
		})
	}
}
