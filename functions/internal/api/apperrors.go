package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/store"
)

// POST /api/errors records the site's app error reports (docs/api.md "App error
// reports"): no sign-in and no CSRF token, since a crashed page may have neither, but
// every field bounded, the reports of each client limited per minute, and nothing done
// with a report but record it: one log line each (CloudWatch Logs in AWS) and its group in
// the table, which the back office's Health page lists.

// maxErrorReportBytes bounds the body of POST /api/errors.
const maxErrorReportBytes = 16 << 10

// DefaultErrorReportLimit is how many reports one client may send a minute when
// ERROR_REPORT_LIMIT is not set: a page sends at most 10 at a time, on page hide, so 30 is
// a buyer having a bad few minutes, and a thousand is a script.
const DefaultErrorReportLimit = 30

// ParseErrorReportLimit reads ERROR_REPORT_LIMIT: empty is DefaultErrorReportLimit, 0 is
// no limit, anything but a whole number from 0 to 100000 is refused.
func ParseErrorReportLimit(v string) (int, error) {
	if v == "" {
		return DefaultErrorReportLimit, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 100000 {
		return 0, fmt.Errorf("ERROR_REPORT_LIMIT must be a whole number of reports per client per minute from 0 (no limit) to 100000, not %q", v)
	}
	return n, nil
}

// The bounds of a report's fields (docs/api.md "App error reports").
const (
	maxReports       = 10
	maxReportMessage = 300
	maxReportName    = 60
	maxReportPath    = 200
	maxReportCount   = 100
)

// reportKinds are the kinds of app error the site reports.
var reportKinds = []string{"chunk", "fatal", "unhandled", "hydration", "api", "basket", "other"}

// reportAgents are the classes of user agent a report names.
var reportAgents = []string{"phone", "tablet", "desktop"}

var (
	siteBuild = regexp.MustCompile(`^[A-Za-z0-9._-]{0,64}$`)
	uidHash   = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// errorReportsBody is what a page sends: its build, its user agent's class, for a
// signed-in buyer a SHA-256 of the uid, and 1 to 10 reports.
type errorReportsBody struct {
	Build   string        `json:"build"`
	Agent   string        `json:"agent"`
	User    string        `json:"user"`
	Reports []errorReport `json:"reports"`
}

// errorReport is one report: its kind, the error's name and message, the page's path (no
// query string), the status of a failed /api call, how many times the page saw it, and
// when (Unix ms, the browser's clock).
type errorReport struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Message string `json:"message"`
	Path    string `json:"path"`
	Status  *int   `json:"status"`
	Count   int    `json:"count"`
	At      *int64 `json:"at"`
}

// Valid refuses any field outside its bounds, naming it.
func (b errorReportsBody) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if !siteBuild.MatchString(b.Build) {
		problems["build"] = "The build must be at most 64 letters, digits, dots, hyphens or underscores."
	}
	if !slices.Contains(reportAgents, b.Agent) {
		problems["agent"] = "The agent must be phone, tablet or desktop."
	}
	if b.User != "" && !uidHash.MatchString(b.User) {
		problems["user"] = "The user must be 64 lowercase hexadecimal digits (the SHA-256 of the uid), or left out."
	}
	if len(b.Reports) < 1 || len(b.Reports) > maxReports {
		problems["reports"] = fmt.Sprintf("Send 1 to %d reports at a time.", maxReports)
	}
	for i, r := range b.Reports {
		field := func(name string) string { return fmt.Sprintf("reports[%d].%s", i, name) }
		if !slices.Contains(reportKinds, r.Kind) {
			problems[field("kind")] = fmt.Sprintf("Report %d: the kind must be chunk, fatal, unhandled, hydration, api, basket or other.", i+1)
		}
		if !plainText(r.Name, maxReportName) {
			problems[field("name")] = fmt.Sprintf("Report %d: the name must be 1 to %d characters, none of them a control character.", i+1, maxReportName)
		}
		if !plainText(r.Message, maxReportMessage) {
			problems[field("message")] = fmt.Sprintf("Report %d: the message must be 1 to %d characters, none of them a control character.", i+1, maxReportMessage)
		}
		if !strings.HasPrefix(r.Path, "/") || !plainText(r.Path, maxReportPath) || strings.ContainsAny(r.Path, "?#") {
			problems[field("path")] = fmt.Sprintf("Report %d: the path must start with / and be at most %d characters, without a query string or fragment.", i+1, maxReportPath)
		}
		if r.Status != nil && (*r.Status < 100 || *r.Status > 599) {
			problems[field("status")] = fmt.Sprintf("Report %d: the status must be an HTTP status from 100 to 599, or left out.", i+1)
		}
		if r.Count < 1 || r.Count > maxReportCount {
			problems[field("count")] = fmt.Sprintf("Report %d: the count must be from 1 to %d.", i+1, maxReportCount)
		}
		if r.At != nil && *r.At < 0 {
			problems[field("at")] = fmt.Sprintf("Report %d: the time must be Unix milliseconds, or left out.", i+1)
		}
	}
	return problems
}

// plainText reports whether s is 1 to most characters of valid UTF-8 with no control
// characters (nor the Unicode line and paragraph separators): one line of a log.
func plainText(s string, most int) bool {
	n := utf8.RuneCountInString(s)
	if n < 1 || n > most || !utf8.ValidString(s) {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == 0x2028 || r == 0x2029 })
}

// Redactions of a report's message before it is logged or stored: a page's error may
// quote an address with its query string or a token, which must reach neither.
var (
	tokenLike = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`)
	urlQuery  = regexp.MustCompile(`((?:https?://|/)[^\s?#"'()<>]*)[?#][^\s"'()<>]*`)
	emailLike = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`)
	secretArg = regexp.MustCompile(`(?i)\b(bearer\s+|(?:id_?token|token|password|secret)=)[^\s,;&"']+`)
)

// redact takes out of a message what looks like a token (a JWT, a bearer or token value),
// an email address, or an address's query string or fragment.
func redact(msg string) string {
	msg = tokenLike.ReplaceAllString(msg, "[token]")
	msg = emailLike.ReplaceAllString(msg, "[email]")
	msg = urlQuery.ReplaceAllString(msg, "$1")
	return secretArg.ReplaceAllString(msg, "${1}[redacted]")
}

// errorReportsAnswer says how many of the reports sent were recorded: all of them, fewer
// when the client's limit for the minute was reached part-way, 0 from a crawler.
type errorReportsAnswer struct {
	Recorded int `json:"recorded"`
}

// errorReportStore is what POST /api/errors writes: the client's count for the minute
// and the reports' groups.
type errorReportStore interface {
	TakeErrorReports(ctx context.Context, client string, n, limit int, now time.Time) (int, time.Duration, error)
	RecordAppErrors(ctx context.Context, reports []store.AppErrorReport, now time.Time) error
}

// errorReportDeps is what POST /api/errors uses: where it logs, the store, the reports a
// client may send a minute (0: no limit) and the clock.
type errorReportDeps struct {
	Log   *slog.Logger
	Store errorReportStore
	Limit int
	Now   func() time.Time
}

// handleErrorReports answers POST /api/errors: 202 with the number of reports recorded;
// 400 naming a field out of bounds (nothing recorded); 429 with Retry-After once the
// client's limit for the minute is used up. A crawler's reports are not recorded.
func handleErrorReports(d errorReportDeps) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isCrawler(r.UserAgent()) {
			encode(w, http.StatusAccepted, errorReportsAnswer{})
			return
		}
		body, err := decodeAtMost[errorReportsBody](r, maxErrorReportBytes, bodyTooLarge)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		now := d.Now()
		taken := len(body.Reports)
		if d.Limit > 0 {
			var retryAfter time.Duration
			taken, retryAfter, err = d.Store.TakeErrorReports(r.Context(), clientKey(r), len(body.Reports), d.Limit, now)
			if err != nil {
				writeError(w, r, d.Log, err)
				return
			}
			metrics.Add(r.Context(), metrics.AppErrorReportsRefused, float64(len(body.Reports)-taken))
			if taken == 0 {
				writeError(w, r, d.Log, &errTooManyReports{retryAfter: retryAfter})
				return
			}
		}
		reports := make([]store.AppErrorReport, taken)
		for i, rep := range body.Reports[:taken] {
			reports[i] = store.AppErrorReport{Kind: rep.Kind, Name: redact(rep.Name), Message: redact(rep.Message), Path: rep.Path,
				Count: rep.Count, Build: body.Build}
			if rep.Status != nil {
				reports[i].Status = *rep.Status
			}
			d.Log.LogAttrs(r.Context(), slog.LevelWarn, "app error",
				slog.String("kind", rep.Kind),
				slog.String("name", reports[i].Name),
				slog.String("message", reports[i].Message),
				slog.String("path", rep.Path),
				slog.Int("status", reports[i].Status),
				slog.Int("count", rep.Count),
				slog.String("site_build", body.Build),
				slog.String("agent", body.Agent),
				slog.String("user", body.User),
			)
		}
		if err := d.Store.RecordAppErrors(r.Context(), reports, now); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		metrics.Add(r.Context(), metrics.AppErrorReports, float64(taken))
		encode(w, http.StatusAccepted, errorReportsAnswer{Recorded: taken})
	})
}

// CloudFrontViewerAddress is the header CloudFront adds with the viewer's address and
// port ("198.51.100.10:46532", "2001:db8::1:46532"; infra forwards it to the API origin).
const CloudFrontViewerAddress = "CloudFront-Viewer-Address"

// clientKey is who sent a request, for a per-client limit: a hash of its address, never
// the address. Behind CloudFront (where the origin guard checked the request came through
// it) the address is CloudFront-Viewer-Address's; anywhere else, where no header can be
// trusted, the connection's (the local edge's remote address). An IPv6 address counts by
// its /64, the block one household or office is given.
func clientKey(r *http.Request) string {
	addr := remoteIP(r.RemoteAddr)
	if throughOrigin(r.Context()) {
		if viewer, ok := viewerIP(r.Header.Get(CloudFrontViewerAddress)); ok {
			addr = viewer
		}
	}
	if addr.Is6() && !addr.Is4In6() {
		addr = netip.PrefixFrom(addr, 64).Masked().Addr()
	}
	sum := sha256.Sum256([]byte("error reports\x00" + addr.Unmap().String()))
	return hex.EncodeToString(sum[:16])
}

// remoteIP is the address of a RemoteAddr (host:port, or a bare address).
func remoteIP(remote string) netip.Addr {
	if host, _, err := net.SplitHostPort(remote); err == nil {
		remote = host
	}
	addr, _ := netip.ParseAddr(remote)
	return addr
}

// viewerIP is the address of a CloudFront-Viewer-Address value: the address, a colon and
// the port, the IPv6 address without brackets.
func viewerIP(v string) (netip.Addr, bool) {
	i := strings.LastIndexByte(v, ':')
	if i < 0 {
		return netip.Addr{}, false
	}
	addr, err := netip.ParseAddr(strings.Trim(v[:i], "[]"))
	return addr, err == nil
}
