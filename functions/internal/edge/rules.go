package edge

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Redirect is one route rule of a build: a request for Source goes to Target, which is
// a site path ("/outlet/r/…/") or an absolute http(s) URL.
type Redirect struct {
	Source string `json:"source"`
	Target string `json:"target"`
	Status int    `json:"status"`
}

// External reports whether the target leaves the site.
func (r Redirect) External() bool {
	return strings.HasPrefix(r.Target, "https://") || strings.HasPrefix(r.Target, "http://")
}

// Latest is builds/latest.json: the id of the build being served and when it was cut.
type Latest struct {
	ID        string `json:"id"`
	Timestamp int64  `json:"timestamp"`
}

// Manifest is builds/meta/{id}.json: a build's route rules.
type Manifest struct {
	ID        string     `json:"id"`
	Timestamp int64      `json:"timestamp"`
	Redirects []Redirect `json:"redirects"`
}

// ruleSet is the current build's redirects keyed by normalised source path.
type ruleSet struct {
	buildID string
	bySrc   map[string]Redirect
}

func (rs ruleSet) match(path string) (Redirect, bool) {
	r, ok := rs.bySrc[normalise(path)]
	return r, ok
}

// normalise gives a directory-like path its trailing slash, so "/a" and "/a/" match
// the same rule.
func normalise(p string) string {
	if p == "" {
		return "/"
	}
	if !strings.HasSuffix(p, "/") && !hasExtension(p) {
		return p + "/"
	}
	return p
}

// hasExtension reports whether the last path segment names a file ("app.js").
func hasExtension(p string) bool {
	last := p[strings.LastIndexByte(p, '/')+1:]
	return strings.Contains(last, ".")
}

// rulesCache reloads the route rules whenever builds/latest.json changes, so a new
// build cut under a running edge takes effect at once.
type rulesCache struct {
	siteDir string

	mu      sync.Mutex
	modTime time.Time
	size    int64
	rules   ruleSet
}

func (c *rulesCache) current() (ruleSet, error) {
	latestPath := filepath.Join(c.siteDir, "builds", "latest.json")
	fi, err := os.Stat(latestPath)
	if err != nil {
		return ruleSet{}, fmt.Errorf("no current build: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if fi.ModTime().Equal(c.modTime) && fi.Size() == c.size {
		return c.rules, nil
	}
	rs, err := loadRules(c.siteDir, latestPath)
	if err != nil {
		return ruleSet{}, err
	}
	c.rules, c.modTime, c.size = rs, fi.ModTime(), fi.Size()
	return rs, nil
}

func loadRules(siteDir, latestPath string) (ruleSet, error) {
	var latest Latest
	if err := readJSON(latestPath, &latest); err != nil {
		return ruleSet{}, err
	}
	if latest.ID == "" || strings.ContainsAny(latest.ID, `/\`) {
		return ruleSet{}, fmt.Errorf("builds/latest.json: bad build id %q", latest.ID)
	}
	var m Manifest
	if err := readJSON(filepath.Join(siteDir, "builds", "meta", latest.ID+".json"), &m); err != nil {
		return ruleSet{}, err
	}
	rs := ruleSet{buildID: latest.ID, bySrc: make(map[string]Redirect, len(m.Redirects))}
	for _, r := range m.Redirects {
		if r.Status == 0 {
			r.Status = 301
		}
		rs.bySrc[normalise(r.Source)] = r
	}
	return rs, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
