package edge

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzhttp"

	"github.com/tradeshop/functions/internal/notfound"
)

// Cache-Control values, by kind of path.
const (
	cacheImmutable  = "public, max-age=31536000, immutable" // hashed assets under /_next/static/
	cacheMedia      = "public, max-age=86400"               // product images
	cacheRevalidate = "public, max-age=0, s-maxage=60"      // HTML, _payload.json, builds/meta, everything unhashed: browsers revalidate, the CDN keeps it a minute
	cacheNever      = "no-store"                            // builds/latest.json
)

// Config is what the edge serves.
type Config struct {
	SiteDir  string       // the static export (site/out)
	MediaDir string       // product images, served under /media/
	API      http.Handler // the /api/* handlers
	Log      *slog.Logger
	// Headers are added to every response, as CloudFront's response headers policy
	// does (see SecurityHeaders).
	Headers map[string]string
	// APILimit holds each client address to its limit on /api/* (the cloud's WAF
	// rate-based rule); nil limits nothing.
	APILimit *RateLimiter
}

type server struct {
	cfg   Config
	rules *rulesCache
	// notFound answers a miss with the notfound package's handler, which the cloud's
	// notFound Lambda also serves: the 404 page, or a bare 404 for crawlers.
	notFound http.Handler
}

// New answers like CloudFront in front of the export and the API. Responses are
// gzipped where the client accepts it; a file the release stored compressed (name.gz,
// scripts/target-dir.mjs) is served as it is stored, with Content-Encoding: gzip, and is
// not compressed again.
func New(cfg Config) http.Handler {
	cfg.API = cfg.APILimit.Wrap(cfg.API)
	s := &server{cfg: cfg, rules: &rulesCache{siteDir: cfg.SiteDir},
		notFound: notfound.Handler(cfg.Log, notfound.FilePage{Path: filepath.Join(cfg.SiteDir, "404.html")})}
	return gzhttp.GzipHandler(s)
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for k, v := range s.cfg.Headers {
		w.Header().Set(k, v)
	}
	p := r.URL.Path
	if strings.HasPrefix(p, "/api/") {
		s.cfg.API.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if !strings.HasPrefix(p, "/") || hasDotSegment(p) || unsafePath.MatchString(p) {
		http.Error(w, "bad path", http.StatusBadRequest)
		return
	}

	if rules, err := s.rules.current(); err != nil {
		s.cfg.Log.Warn("route rules unavailable", "err", err)
	} else if rd, ok := rules.match(p); ok {
		s.redirect(w, r, rd.Target, rd.Status, !rd.External())
		return
	}
	if p != "/" && !strings.HasSuffix(p, "/") && !hasExtension(p) {
		s.redirect(w, r, p+"/", http.StatusMovedPermanently, true)
		return
	}

	if rest, ok := strings.CutPrefix(p, "/media/"); ok {
		s.serveFile(w, r, s.cfg.MediaDir, rest, cacheMedia)
		return
	}
	name := strings.TrimPrefix(p, "/")
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	markFilteredView(w, r)
	for _, sh := range shells {
		if sh.pattern.MatchString(p) {
			name = sh.file
		}
	}
	s.serveFile(w, r, s.cfg.SiteDir, name, cacheControl(p))
}

// unsafePath matches what no page's path holds and what would turn a redirect to the
// path (with its slash added) into one off the site: a leading "//" (a browser reads
// //host/x as another host), a backslash (read as a slash), a control character
// (browsers drop tabs and newlines from a URL, so "/<TAB>/host" becomes "//host"), and
// their percent-encoded forms. The CloudFront Function applies the same pattern
// (infra/edge/viewer-request.js); builds/edge-test-vectors.json holds the cases.
var unsafePath = regexp.MustCompile(`(?i)^//|\\|[\x00-\x1f\x7f]|%5c|%[01][0-9a-f]|%7f|^/%2f`)

// hasDotSegment reports a "." or ".." path segment, which no page has.
func hasDotSegment(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// redirect sends the client on; a site-internal target keeps the query string.
func (s *server) redirect(w http.ResponseWriter, r *http.Request, target string, status int, keepQuery bool) {
	if keepQuery && r.URL.RawQuery != "" && !strings.Contains(target, "?") {
		target += "?" + r.URL.RawQuery
	}
	w.Header().Set("Cache-Control", cacheRevalidate)
	http.Redirect(w, r, target, status)
}

func cacheControl(p string) string {
	switch {
	case strings.HasPrefix(p, "/_next/static/"):
		return cacheImmutable
	case p == "/builds/latest.json":
		return cacheNever
	default:
		return cacheRevalidate
	}
}

// shells are client-rendered routes with an id in the path: any /checkout/complete/{id}/
// is answered with the one exported shell page, which reads the id from its address.
// The CloudFront function needs the same rewrite.
var shells = []struct {
	pattern *regexp.Regexp
	file    string
}{
	{regexp.MustCompile(`^/checkout/complete/[A-Za-z0-9-]{1,40}/$`), "checkout/complete/order/index.html"},
}

// serveFile serves dir/name without ever leaving dir; when there is no such file but
// name.gz (the release stores compressible files gzip-compressed, as nginx's gzip_static
// has them), that one, encoded; a missing file gets the 404 page.
func (s *server) serveFile(w http.ResponseWriter, r *http.Request, dir, name, cache string) {
	f, fi, err := openFile(dir, name)
	if err == nil {
		defer f.Close()
		w.Header().Set("Cache-Control", cache)
		w.Header().Set("ETag", fmt.Sprintf(`W/"%x-%x"`, fi.Size(), fi.ModTime().UnixNano()))
		http.ServeContent(w, r, fi.Name(), fi.ModTime(), f)
		return
	}
	if errors.Is(err, fs.ErrNotExist) && !strings.HasSuffix(name, ".gz") {
		gz, gzi, gzErr := openFile(dir, name+".gz")
		if gzErr == nil {
			defer gz.Close()
			s.serveGzip(w, r, name, gz, gzi, cache)
			return
		}
		err = gzErr
	}
	if !errors.Is(err, fs.ErrNotExist) && !isPathError(err) {
		s.cfg.Log.Error("open static file", "name", name, "err", err)
	}
	s.notFound.ServeHTTP(w, r)
}

// openFile opens dir/name, a regular file, without leaving dir; a folder or a missing
// file is fs.ErrNotExist.
func openFile(dir, name string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenInRoot(dir, name)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && fi.IsDir() {
		err = fs.ErrNotExist
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// serveGzip serves name from its stored gzip gz: as it is, with Content-Encoding: gzip, to
// a client that accepts gzip (the gzhttp wrapper leaves a response that already has a
// Content-Encoding alone), else decompressed (a page is small; this client is rare).
// Either way with name's Content-Type, Vary: Accept-Encoding and an ETag of its own, so a
// cache never answers one form's revalidation with the other's; http.ServeContent answers
// HEAD, ranges and conditional requests for both.
func (s *server) serveGzip(w http.ResponseWriter, r *http.Request, name string, gz *os.File, fi fs.FileInfo, cache string) {
	h := w.Header()
	h.Set("Cache-Control", cache)
	addVary(h, "Accept-Encoding") // the gzhttp wrapper has added it already
	h.Set("Content-Type", contentTypeOf(name))
	stamp := fmt.Sprintf(`W/"%x-%x`, fi.Size(), fi.ModTime().UnixNano())
	var body io.ReadSeeker = gz
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		h.Set("ETag", stamp+`-gzip"`)
	} else {
		page, err := gunzip(gz)
		if err != nil {
			s.cfg.Log.Error("stored gzip unreadable", "name", name+".gz", "err", err)
			http.Error(w, "stored file unreadable", http.StatusInternalServerError)
			return
		}
		body = bytes.NewReader(page)
		h.Set("ETag", stamp+`-identity"`)
	}
	http.ServeContent(w, r, name, fi.ModTime(), body)
}

// gunzip reads a gzip stream whole.
func gunzip(r io.Reader) ([]byte, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return io.ReadAll(zr)
}

// addVary adds a header name to Vary unless it is there.
func addVary(h http.Header, name string) {
	for _, v := range h.Values("Vary") {
		for f := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), name) {
				return
			}
		}
	}
	h.Add("Vary", name)
}

// contentTypeOf is the Content-Type of a file by its extension, as http.ServeContent
// gives it; an unknown one downloads as bytes (there are no bytes to sniff but gzip's).
func contentTypeOf(name string) string {
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// acceptsGzip reports whether an Accept-Encoding value accepts gzip: gzip (or x-gzip, or
// *) listed without q=0, and gzip not refused by name.
func acceptsGzip(header string) bool {
	star := false
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch coding {
		case "gzip", "x-gzip":
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}

func isPathError(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe)
}
