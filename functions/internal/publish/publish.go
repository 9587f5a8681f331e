// Package publish runs the release that puts a catalogue change in front of buyers
// from the back office (docs/catalogue-import.md "Publishing"): on the local edge a
// command (scripts/release --target dir:…) run one at a time, its state and last lines
// of output kept for the page to poll (Command); in the cloud a build of the stage's
// CodeBuild project, which runs scripts/release --target aws, one at a time, its phase
// and last lines read back from CodeBuild and CloudWatch Logs (CodeBuild).
package publish

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"
)

// The states of a publish.
const (
	Idle    = "idle"
	Running = "running"
	Done    = "done"
	Failed  = "failed"
)

// Status is the state of the last publish.
type Status struct {
	State      string     `json:"state"`
	StartedAt  *time.Time `json:"startedAt,omitempty"`
	FinishedAt *time.Time `json:"finishedAt,omitempty"`
	By         string     `json:"by,omitempty"`
	BuildID    string     `json:"buildId,omitempty"`
	Message    string     `json:"message,omitempty"`
	Log        []string   `json:"log,omitempty"`
}

// ErrRunning is a publish asked for while one runs.
var ErrRunning = errors.New("a publish is already running; wait for it to finish")

// logLines is how many of the command's last lines a status keeps.
const logLines = 30

// Command publishes by running a command (Args[0] with the rest) in Dir with Env.
type Command struct {
	Dir  string
	Args []string
	Env  []string
	// Timeout stops a release that hangs (default 30 minutes).
	Timeout time.Duration

	mu     sync.Mutex
	status Status
	done   chan struct{}
}

// Status answers the state of the last publish.
func (c *Command) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.status
	if s.State == "" {
		s.State = Idle
	}
	s.Log = append([]string(nil), s.Log...)
	return s
}

// Wait blocks until the running publish (if any) ends.
func (c *Command) Wait() {
	c.mu.Lock()
	done := c.done
	c.mu.Unlock()
	if done != nil {
		<-done
	}
}

var liveLine = regexp.MustCompile(`build (\S+) is live`)

// Start begins a publish for by (who, for the status) and answers its status.
func (c *Command) Start(by string) (Status, error) {
	c.mu.Lock()
	if c.status.State == Running {
		c.mu.Unlock()
		return c.Status(), ErrRunning
	}
	now := time.Now().UTC()
	c.status = Status{State: Running, StartedAt: &now, By: by, Message: "building the site and publishing it"}
	c.done = make(chan struct{})
	done := c.done
	c.mu.Unlock()

	timeout := c.Timeout
	if timeout == 0 {
		timeout = 30 * time.Minute
	}
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, c.Args[0], c.Args[1:]...)
		cmd.Dir, cmd.Env = c.Dir, c.Env
		pr, pw := io.Pipe()
		cmd.Stdout, cmd.Stderr = pw, pw
		read := make(chan struct{})
		go func() {
			defer close(read)
			sc := bufio.NewScanner(pr)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			for sc.Scan() {
				c.line(sc.Text())
			}
			_, _ = io.Copy(io.Discard, pr)
		}()
		err := cmd.Run()
		_ = pw.Close()
		<-read
		c.finish(err, ctx.Err())
	}()
	return c.Status(), nil
}

func (c *Command) line(l string) {
	l = strings.TrimRight(l, "\r")
	c.mu.Lock()
	defer c.mu.Unlock()
	c.status.Log = append(c.status.Log, l)
	if n := len(c.status.Log); n > logLines {
		c.status.Log = c.status.Log[n-logLines:]
	}
	if m := liveLine.FindStringSubmatch(l); m != nil {
		c.status.BuildID = m[1]
	}
}

func (c *Command) finish(err, ctxErr error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now().UTC()
	c.status.FinishedAt = &now
	switch {
	case err == nil:
		c.status.State, c.status.Message = Done, "published: the catalogue change is live"
		if c.status.BuildID != "" {
			c.status.Message = "published: build " + c.status.BuildID + " is live"
		}
	case ctxErr != nil:
		c.status.State, c.status.Message = Failed, "the release took too long and was stopped; nothing changed for buyers unless its log says a build went live"
	default:
		c.status.State, c.status.Message = Failed, "the release failed ("+err.Error()+"); buyers still see the last published build. Its last lines are below."
	}
}
