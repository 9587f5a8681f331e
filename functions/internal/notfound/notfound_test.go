package notfound

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

type fixedPage string

func (p fixedPage) NotFoundPage(context.Context) ([]byte, error) { return []byte(p), nil }

func TestHandler(t *testing.T) {
	t.Parallel()
	h := Handler(slog.New(slog.NewTextHandler(io.Discard, nil)), fixedPage("<h1>We Were Unable to Find that Page</h1>"))
	tests := []struct {
		name, method, ua, wantBody, wantType string
	}{
		{"browser gets the page", "GET", "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0", "We Were Unable", "text/html; charset=utf-8"},
		{"crawler gets a bare 404", "GET", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "", "text/plain; charset=utf-8"},
		{"HEAD has no body", "HEAD", "Mozilla/5.0", "", "text/html; charset=utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequest(tt.method, "/no/such/page/", nil)
			req.Header.Set("User-Agent", tt.ua)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusNotFound {
				t.Fatalf("status %d, want 404", rec.Code)
			}
			if (tt.wantBody == "" && rec.Body.Len() != 0) || !strings.Contains(rec.Body.String(), tt.wantBody) {
				t.Fatalf("body %q, want %q", rec.Body.String(), tt.wantBody)
			}
			if got := rec.Header().Get("Content-Type"); got != tt.wantType {
				t.Fatalf("Content-Type %q, want %q", got, tt.wantType)
			}
			if rec.Header().Get("Cache-Control") != "no-store" || rec.Header().Get("Vary") != "User-Agent" {
				t.Fatalf("headers %v: a per-agent answer must not be cached", rec.Header())
			}
		})
	}
}

// fakeS3 stands in for the one GetObject call; S3 itself cannot run here.
type fakeS3 struct {
	bodies []string // answered in turn; "" fails
	calls  int
}

func (f *fakeS3) GetObject(_ context.Context, in *s3.GetObjectInput, _ ...func(*s3.Options)) (*s3.GetObjectOutput, error) {
	body := f.bodies[min(f.calls, len(f.bodies)-1)]
	f.calls++
	if body == "" {
		return nil, errors.New("access denied")
	}
	return &s3.GetObjectOutput{Body: io.NopCloser(strings.NewReader(body))}, nil
}

func TestS3PageKeepsThePageForMaxAge(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	f := &fakeS3{bodies: []string{"<h1>v1</h1>", "", "<h1>v2</h1>"}}
	src := &S3Page{Client: f, Bucket: "b", Key: "site/404.html", MaxAge: time.Minute, Now: func() time.Time { return now }}
	steps := []struct {
		after     time.Duration
		want      string
		wantCalls int
	}{
		{0, "v1", 1},
		{30 * time.Second, "v1", 1}, // still fresh: no call
		{31 * time.Second, "v1", 2}, // stale, the refresh fails: keep serving v1
		{time.Second, "v2", 3},      // the next refresh succeeds
	}
	for i, s := range steps {
		now = now.Add(s.after)
		page, err := src.NotFoundPage(context.Background())
		if err != nil || !strings.Contains(string(page), s.want) || f.calls != s.wantCalls {
			t.Fatalf("step %d: page %q err %v calls %d, want %q after %d calls", i, page, err, f.calls, s.want, s.wantCalls)
		}
	}
}

func TestS3PageFailsWithoutAPage(t *testing.T) {
	t.Parallel()
	src := &S3Page{Client: &fakeS3{bodies: []string{""}}, Bucket: "b", Key: "site/404.html", MaxAge: time.Minute, Now: time.Now}
	if _, err := src.NotFoundPage(context.Background()); err == nil || !strings.Contains(err.Error(), "s3://b/site/404.html") {
		t.Fatalf("err %v, want one naming the object", err)
	}
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestFilePageReadsTheStoredGzip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	page := FilePage{Path: filepath.Join(dir, "404.html")}
	if _, err := page.NotFoundPage(context.Background()); err == nil || !strings.Contains(err.Error(), "404.html") {
		t.Fatalf("no page: err %v, want one naming 404.html", err)
	}
	// A release folder holds 404.html.gz (scripts/target-dir.mjs).
	if err := os.WriteFile(page.Path+".gz", gzipped(t, "<h1>We Were Unable to Find that Page</h1>"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := page.NotFoundPage(context.Background())
	if err != nil || string(got) != "<h1>We Were Unable to Find that Page</h1>" {
		t.Fatalf("from 404.html.gz: %q %v", got, err)
	}
	// An export (site/out) holds 404.html, which wins.
	if err := os.WriteFile(page.Path, []byte("<h1>raw</h1>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := page.NotFoundPage(context.Background()); err != nil || string(got) != "<h1>raw</h1>" {
		t.Fatalf("from 404.html: %q %v", got, err)
	}
	broken := FilePage{Path: filepath.Join(dir, "broken.html")}
	_ = os.WriteFile(broken.Path+".gz", []byte("not gzip"), 0o644)
	if _, err := broken.NotFoundPage(context.Background()); err == nil {
		t.Fatal("a broken .gz must fail")
	}
}

// gzipS3 answers GetObject as S3 does for an object put with Content-Encoding: gzip: the
// stored bytes and the encoding (the SDK asks for identity and decodes nothing).
type gzipS3 struct{ body []byte }

func (g gzipS3) GetObject(context.Context, *s3.GetObjectInput, ...func(*s3.Options)) (*s3.GetObjectOutput, error) {
	return &s3.GetObjectOutput{Body: io.NopCloser(bytes.NewReader(g.body)), ContentEncoding: aws.String("gzip")}, nil
}

func TestS3PageDecodesAGzipObject(t *testing.T) {
	t.Parallel()
	src := &S3Page{Client: gzipS3{gzipped(t, "<h1>v1</h1>")}, Bucket: "b", Key: "site/404.html", MaxAge: time.Minute, Now: time.Now}
	page, err := src.NotFoundPage(context.Background())
	if err != nil || string(page) != "<h1>v1</h1>" {
		t.Fatalf("page %q err %v", page, err)
	}
	bad := &S3Page{Client: gzipS3{[]byte("not gzip")}, Bucket: "b", Key: "site/404.html", MaxAge: time.Minute, Now: time.Now}
	if _, err := bad.NotFoundPage(context.Background()); err == nil {
		t.Fatal("a broken gzip object must fail")
	}
}
