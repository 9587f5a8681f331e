package publish

import (
	"errors"
	"strings"
	"testing"
)

func TestCommandRunsOnceAtATimeAndKeepsItsLastLines(t *testing.T) {
	c := &Command{Args: []string{"sh", "-c", `for i in $(seq 1 40); do echo "line $i"; done; echo "release: build b-123 is live on dir"; sleep 0.3`}}
	if s := c.Status(); s.State != Idle {
		t.Fatalf("before any publish: %+v", s)
	}
	s, err := c.Start("staff@example.com")
	if err != nil || s.State != Running || s.By != "staff@example.com" || s.StartedAt == nil {
		t.Fatalf("start: %+v %v", s, err)
	}
	if _, err := c.Start("other@example.com"); !errors.Is(err, ErrRunning) {
		t.Fatalf("a second start answered %v, want ErrRunning", err)
	}
	c.Wait()
	s = c.Status()
	if s.State != Done || s.BuildID != "b-123" || s.FinishedAt == nil || len(s.Log) != logLines ||
		s.Log[len(s.Log)-1] != "release: build b-123 is live on dir" || !strings.Contains(s.Message, "b-123") {
		t.Fatalf("after: %+v", s)
	}
}

func TestAFailedReleaseSaysSo(t *testing.T) {
	c := &Command{Args: []string{"sh", "-c", `echo "release: the build failed" >&2; exit 3`}}
	if _, err := c.Start("s"); err != nil {
		t.Fatal(err)
	}
	c.Wait()
	s := c.Status()
	if s.State != Failed || !strings.Contains(s.Message, "exit status 3") || s.Log[0] != "release: the build failed" {
		t.Fatalf("%+v", s)
	}
	if _, err := c.Start("s"); err != nil { // a failed publish does not block the next
		t.Fatal(err)
	}
	c.Wait()
}
