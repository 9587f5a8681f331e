package edge

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gzipFile writes name.gz, as the release's dir target stores a compressible file.
func gzipFile(t *testing.T, root, name, body string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, name+".gz", buf.String())
	return buf.Bytes()
}

// gzipSite is a release folder whose pages are stored as name.gz only (404.html too).
func gzipSite(t *testing.T) (string, http.Handler, map[string][]byte) {
	t.Helper()
	site := t.TempDir()
	stored := map[string][]byte{
		"index.html":                      gzipFile(t, site, "index.html", "<h1>home</h1>"),
		"404.html":                        gzipFile(t, site, "404.html", "<h1>We Were Unable to Find that Page</h1>"),
		"outlet/r/balloons/index.html":    gzipFile(t, site, "outlet/r/balloons/index.html", "<h1>Balloons</h1>"+strings.Repeat("balloon ", 400)),
		"outlet/r/balloons/index.txt":     gzipFile(t, site, "outlet/r/balloons/index.txt", "1:rsc "+strings.Repeat("x", 2000)),
		"outlet/r/balloons/_payload.json": gzipFile(t, site, "outlet/r/balloons/_payload.json", `{"kind":"range"}`),
		"_next/static/chunks/app-1a2b.js": gzipFile(t, site, "_next/static/chunks/app-1a2b.js", "console.log(1)"),
	}
	writeFile(t, site, "icon.png", "\x89PNG raw")
	cutBuild(t, site, "b1", `[]`)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return site, New(Config{SiteDir: site, MediaDir: t.TempDir(), API: http.NotFoundHandler(), Log: log}), stored
}

func get(h http.Handler, method, target string, header map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestEdgeServesStoredGzip(t *testing.T) {
	t.Parallel()
	_, h, stored := gzipSite(t)
	cases := []struct {
		target, file, contentType, cache, bodyHas string
	}{
		{"/", "index.html", "text/html; charset=utf-8", cacheRevalidate, "home"},
		{"/outlet/r/balloons/", "outlet/r/balloons/index.html", "text/html; charset=utf-8", cacheRevalidate, "Balloons"},
		{"/outlet/r/balloons/index.txt", "outlet/r/balloons/index.txt", "text/plain; charset=utf-8", cacheRevalidate, "1:rsc"},
		{"/outlet/r/balloons/_payload.json", "outlet/r/balloons/_payload.json", "application/json", cacheRevalidate, "range"},
		{"/_next/static/chunks/app-1a2b.js", "_next/static/chunks/app-1a2b.js", "text/javascript; charset=utf-8", cacheImmutable, "console"},
	}
	for _, tc := range cases {
		t.Run(tc.target, func(t *testing.T) {
			t.Parallel()
			// A client that takes gzip gets the stored bytes, not compressed again.
			rec := get(h, "GET", tc.target, map[string]string{"Accept-Encoding": "gzip, deflate, br"})
			if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" {
				t.Fatalf("status %d, Content-Encoding %q", rec.Code, rec.Header().Get("Content-Encoding"))
			}
			if !bytes.Equal(rec.Body.Bytes(), stored[tc.file]) {
				t.Fatalf("body is not the stored gzip (%d bytes, stored %d): compressed twice?", rec.Body.Len(), len(stored[tc.file]))
			}
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := io.ReadAll(zr)
			if !strings.Contains(string(plain), tc.bodyHas) {
				t.Fatalf("decoded body %.80q lacks %q", plain, tc.bodyHas)
			}
			if got := rec.Header().Get("Content-Type"); got != tc.contentType {
				t.Fatalf("Content-Type %q, want %q (the page's, not the .gz's)", got, tc.contentType)
			}
			if got := rec.Header().Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
				t.Fatalf("Vary %q, want Accept-Encoding once", got)
			}
			if rec.Header().Get("Cache-Control") != tc.cache {
				t.Fatalf("Cache-Control %q, want %q", rec.Header().Get("Cache-Control"), tc.cache)
			}
			if rec.Header().Get("Content-Length") != "" && rec.Header().Get("Content-Length") != strconv.Itoa(len(stored[tc.file])) {
				t.Fatalf("Content-Length %q, want the stored size %d", rec.Header().Get("Content-Length"), len(stored[tc.file]))
			}
			gzipETag := rec.Header().Get("ETag")

			// A client that does not take gzip gets the page decompressed.
			for _, ae := range []string{"", "identity", "gzip;q=0, deflate", "br"} {
				id := get(h, "GET", tc.target, map[string]string{"Accept-Encoding": ae})
				if id.Code != 200 || id.Header().Get("Content-Encoding") != "" {
					t.Fatalf("Accept-Encoding %q: status %d, Content-Encoding %q", ae, id.Code, id.Header().Get("Content-Encoding"))
				}
				if !strings.Contains(id.Body.String(), tc.bodyHas) || !bytes.Equal(id.Body.Bytes(), plain) {
					t.Fatalf("Accept-Encoding %q: body %.80q is not the decoded page", ae, id.Body.String())
				}
				if got := id.Header().Get("Content-Type"); got != tc.contentType {
					t.Fatalf("Accept-Encoding %q: Content-Type %q, want %q", ae, got, tc.contentType)
				}
				if id.Header().Get("ETag") == "" || id.Header().Get("ETag") == gzipETag {
					t.Fatalf("identity ETag %q must differ from the gzip one %q", id.Header().Get("ETag"), gzipETag)
				}
				if id.Header().Get("Cache-Control") != tc.cache || !strings.Contains(strings.Join(id.Header().Values("Vary"), ","), "Accept-Encoding") {
					t.Fatalf("identity headers %v", id.Header())
				}
			}
		})
	}
}

func TestEdgeStoredGzipHeadAndRevalidation(t *testing.T) {
	t.Parallel()
	_, h, _ := gzipSite(t)
	const page = "/outlet/r/balloons/"
	for _, ae := range []string{"gzip", ""} {
		head := get(h, "HEAD", page, map[string]string{"Accept-Encoding": ae})
		if head.Code != 200 || head.Body.Len() != 0 || head.Header().Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("HEAD (Accept-Encoding %q): %d, %d bytes, %v", ae, head.Code, head.Body.Len(), head.Header())
		}
		if ae == "gzip" && head.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("HEAD gzip: Content-Encoding %q", head.Header().Get("Content-Encoding"))
		}
		first := get(h, "GET", page, map[string]string{"Accept-Encoding": ae})
		etag := first.Header().Get("ETag")
		again := get(h, "GET", page, map[string]string{"Accept-Encoding": ae, "If-None-Match": etag})
		if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
			t.Fatalf("If-None-Match (Accept-Encoding %q): %d, want 304", ae, again.Code)
		}
		since := get(h, "GET", page, map[string]string{"Accept-Encoding": ae, "If-Modified-Since": first.Header().Get("Last-Modified")})
		if since.Code != http.StatusNotModified {
			t.Fatalf("If-Modified-Since (Accept-Encoding %q): %d, want 304", ae, since.Code)
		}
		other := get(h, "GET", page, map[string]string{"Accept-Encoding": ae, "If-None-Match": `W/"0-0"`})
		if other.Code != 200 {
			t.Fatalf("another ETag (Accept-Encoding %q): %d, want 200", ae, other.Code)
		}
	}
	// The other form's ETag does not revalidate this one.
	gz := get(h, "GET", page, map[string]string{"Accept-Encoding": "gzip"})
	id := get(h, "GET", page, map[string]string{"If-None-Match": gz.Header().Get("ETag")})
	if id.Code != 200 {
		t.Fatalf("the gzip ETag revalidated the identity form: %d", id.Code)
	}
}

func TestEdgeStoredGzipOverTheWire(t *testing.T) {
	t.Parallel()
	_, h, stored := gzipSite(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	// A client that decodes nothing itself, asking for gzip: the stored bytes, once encoded.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	req, _ := http.NewRequest("GET", srv.URL+"/outlet/r/balloons/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(body, stored["outlet/r/balloons/index.html"]) {
		t.Fatalf("Content-Encoding %q, %d bytes: want the stored gzip", resp.Header.Get("Content-Encoding"), len(body))
	}
	// Go's default client asks for gzip and decodes it.
	resp, err = http.Get(srv.URL + "/outlet/r/balloons/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(string(body), "<h1>Balloons</h1>") {
		t.Fatalf("decoded body %.60q", body)
	}
}

func TestEdgeStoredGzipBesideRawFiles(t *testing.T) {
	t.Parallel()
	site, h, _ := gzipSite(t)
	// A raw file is served as before (and compressed on the fly where it pays).
	if rec := get(h, "GET", "/icon.png", nil); rec.Code != 200 || rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != "\x89PNG raw" {
		t.Fatalf("raw file: %d %v", rec.Code, rec.Header())
	}
	// Where both forms exist (a release switching a file's form), the raw one wins.
	writeFile(t, site, "outlet/r/balloons/index.html", "<h1>raw balloons</h1>")
	if rec := get(h, "GET", "/outlet/r/balloons/", nil); !strings.Contains(rec.Body.String(), "raw balloons") {
		t.Fatalf("with both forms: %.60q", rec.Body.String())
	}
	// builds/ stays raw and the route rules read it.
	if rec := get(h, "GET", "/builds/latest.json", nil); rec.Code != 200 || !strings.Contains(rec.Body.String(), "b1") {
		t.Fatalf("latest.json: %d", rec.Code)
	}
	// A missing page gets the 404 page, read from 404.html.gz.
	rec := get(h, "GET", "/no/such/page/", map[string]string{"User-Agent": "Mozilla/5.0 Chrome/156.0"})
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "We Were Unable to Find that Page") {
		t.Fatalf("404 from 404.html.gz: %d %.80q", rec.Code, rec.Body.String())
	}
	// A broken stored gzip is an error, not garbage.
	writeFile(t, site, "broken/index.html.gz", "not gzip")
	if rec := get(h, "GET", "/broken/", nil); rec.Code != http.StatusInternalServerError {
		t.Fatalf("broken gzip: %d", rec.Code)
	}
	if _, err := os.Stat(filepath.Join(site, "404.html")); !os.IsNotExist(err) {
		t.Fatal("the site should hold 404.html.gz only")
	}
}

func TestAcceptsGzip(t *testing.T) {
	t.Parallel()
	for header, want := range map[string]bool{
		"":                              false,
		"gzip":                          true,
		"GZIP":                          true,
		"gzip, deflate, br, zstd":       true,
		"br;q=1.0, gzip;q=0.8, *;q=0.1": true,
		"x-gzip":                        true,
		"*":                             true,
		"gzip;q=0":                      false,
		"gzip;q=0, *":                   false,
		"*, gzip;q=0":                   false,
		"*;q=0":                         false,
		"identity":                      false,
		"br, deflate":                   false,
	} {
		if got := acceptsGzip(header); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", header, got, want)
		}
	}
}
