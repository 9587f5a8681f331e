package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/publish"
)

type staffVerifier struct{}

func (staffVerifier) Verify(context.Context, string) (auth.Claims, error) {
	return auth.Claims{UID: "s1", Email: "ann@example.com", Staff: true}, nil
}

// cloudBuilds is the stage's publish project in memory: its builds, newest last.
type cloudBuilds struct{ builds []publish.Build }

func (c *cloudBuilds) StartBuild(_ context.Context, project string, env map[string]string) (publish.Build, error) {
	now := time.Now()
	b := publish.Build{ID: project + ":1", Status: "IN_PROGRESS", CurrentPhase: "SUBMITTED", StartTime: &now, Env: env}
	c.builds = append(c.builds, b)
	return b, nil
}

func (c *cloudBuilds) LatestBuild(context.Context, string) (publish.Build, error) {
	if len(c.builds) == 0 {
		return publish.Build{}, publish.ErrNoBuild
	}
	return c.builds[len(c.builds)-1], nil
}

func (c *cloudBuilds) LastLogLines(context.Context, string, string, int) ([]string, error) {
	return nil, nil
}

// TestAdminPublishInTheCloud: where the publisher is the stage's CodeBuild project, the
// status is idle before the first publish, a publish answers 202 running, a second while
// it runs 409 with the running one, and without a publisher both answer 501.
func TestAdminPublishInTheCloud(t *testing.T) {
	t.Parallel()
	d := withVerifier(unitDeps(t), unitDeps(t).Log, staffVerifier{})
	w := httptest.NewRecorder()
	tok := d.CSRF.SetCookie(w, httptest.NewRequest(http.MethodGet, "/", nil))
	cookie := w.Result().Cookies()[0]
	call := func(d Deps, method string) (int, publishAnswer) {
		t.Helper()
		h, err := EndpointHandler(d, "adminPublish")
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest(method, "/api/admin/catalogue/publish", strings.NewReader(`{"token":"t"}`))
		r.Header.Set("Authorization", "Bearer t")
		r.Header.Set("X-CSRF-Token", tok)
		r.AddCookie(cookie)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var a publishAnswer
		_ = json.Unmarshal(w.Body.Bytes(), &a)
		return w.Code, a
	}

	if code, _ := call(d, http.MethodGet); code != http.StatusNotImplemented {
		t.Errorf("no publisher: GET %d, want 501", code)
	}
	d.Publisher = publish.CodeBuild{Builds: &cloudBuilds{}, Project: "Publish"}
	if code, a := call(d, http.MethodGet); code != http.StatusOK || a.State != publish.Idle {
		t.Errorf("before the first publish: %d %+v, want 200 idle", code, a)
	}
	if code, a := call(d, http.MethodPost); code != http.StatusAccepted || a.State != publish.Running || a.By != "ann@example.com" {
		t.Errorf("publish: %d %+v, want 202 running by ann", code, a)
	}
	if code, a := call(d, http.MethodPost); code != http.StatusConflict || a.State != publish.Running {
		t.Errorf("second publish: %d %+v, want 409 with the running one", code, a)
	}
	if code, a := call(d, http.MethodGet); code != http.StatusOK || a.State != publish.Running || a.StartedAt == nil {
		t.Errorf("status: %d %+v, want 200 running", code, a)
	}
}
