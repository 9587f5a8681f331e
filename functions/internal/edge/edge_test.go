package edge

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeFile(t *testing.T, root, name, body string) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func cutBuild(t *testing.T, site, id, redirects string) {
	t.Helper()
	writeFile(t, site, "builds/meta/"+id+".json", `{"id":"`+id+`","timestamp":1,"redirects":`+redirects+`}`)
	writeFile(t, site, "builds/latest.json", `{"id":"`+id+`","timestamp":1}`)
	// Make sure the edge sees a new modification time even on coarse clocks.
	later := time.Now().Add(time.Duration(len(id)) * time.Second)
	_ = os.Chtimes(filepath.Join(site, "builds/latest.json"), later, later)
}

func newSite(t *testing.T) (string, http.Handler) {
	t.Helper()
	site, media := t.TempDir(), t.TempDir()
	writeFile(t, site, "index.html", "<h1>home</h1>")
	writeFile(t, site, "404.html", "<h1>We Were Unable to Find that Page</h1>")
	writeFile(t, site, "outlet/r/wholesale_balloons/index.html", "<h1>Balloons</h1>"+strings.Repeat("balloon ", 400))
	writeFile(t, site, "outlet/r/wholesale_balloons/_payload.json", `{"kind":"range"}`)
	writeFile(t, site, "_next/static/chunks/app-1a2b.js", "console.log(1)")
	writeFile(t, site, "checkout/complete/order/index.html", "<h1>Order complete</h1>")
	writeFile(t, media, "products/gc101-00001-s.svg", "<svg/>")
	cutBuild(t, site, "b1", `[
		{"source":"/christmas","target":"/outlet/r/wholesale-christmas/","status":301},
		{"source":"/survey/","target":"https://survey.example.com/feedback","status":302}]`)
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return site, New(Config{SiteDir: site, MediaDir: media, API: api, Log: log})
}

func TestEdge(t *testing.T) {
	t.Parallel()
	_, h := newSite(t)
	cases := []struct {
		method, target string
		status         int
		location       string
		cache          string
		bodyHas        string
	}{
		{"GET", "/", 200, "", cacheRevalidate, "home"},
		{"GET", "/outlet/r/wholesale_balloons?x=1", 301, "/outlet/r/wholesale_balloons/?x=1", "", ""},
		{"GET", "/outlet/r/wholesale_balloons", 301, "/outlet/r/wholesale_balloons/", "", ""},
		{"GET", "/outlet/r/wholesale_balloons/", 200, "", cacheRevalidate, "Balloons"},
		{"GET", "/outlet/r/wholesale_balloons/_payload.json", 200, "", cacheRevalidate, "range"},
		{"HEAD", "/outlet/r/wholesale_balloons/", 200, "", cacheRevalidate, ""},
		{"GET", "/_next/static/chunks/app-1a2b.js", 200, "", cacheImmutable, "console"},
		{"GET", "/builds/latest.json", 200, "", cacheNever, "b1"},
		{"GET", "/builds/meta/b1.json", 200, "", cacheRevalidate, "christmas"},
		{"GET", "/media/products/gc101-00001-s.svg", 200, "", cacheMedia, "<svg"},
		{"GET", "/no/such/page/", 404, "", "no-store", "We Were Unable to Find that Page"},
		{"GET", "/no/such/file.js", 404, "", "no-store", "Unable"},
		{"GET", "/christmas?ref=ad", 301, "/outlet/r/wholesale-christmas/?ref=ad", "", ""},
		{"GET", "/christmas/", 301, "/outlet/r/wholesale-christmas/", "", ""},
		{"GET", "/survey/?utm=1", 302, "https://survey.example.com/feedback", "", ""},
		{"GET", "/../../etc/passwd", 400, "", "", ""},
		{"GET", "/media/../../etc/passwd", 400, "", "", ""},
		{"GET", "/outlet/./r/", 400, "", "", ""},
		{"POST", "/", 405, "", "", ""},
		{"GET", "/checkout/complete/TS-100042/", 200, "", cacheRevalidate, "Order complete"},
		{"GET", "/checkout/complete/TS-100042", 301, "/checkout/complete/TS-100042/", "", ""},
		{"GET", "/checkout/complete/bad%20id/", 404, "", "no-store", ""},
		{"POST", "/api/anything", http.StatusTeapot, "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.target, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequest(tc.method, "http://shop.test/", nil)
			req.URL.Path, req.URL.RawQuery, _ = strings.Cut(tc.target, "?")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d (body %.80q)", rec.Code, tc.status, rec.Body.String())
			}
			if got := rec.Header().Get("Location"); got != tc.location {
				t.Fatalf("Location %q, want %q", got, tc.location)
			}
			if tc.cache != "" && rec.Header().Get("Cache-Control") != tc.cache {
				t.Fatalf("Cache-Control %q, want %q", rec.Header().Get("Cache-Control"), tc.cache)
			}
			if !strings.Contains(rec.Body.String(), tc.bodyHas) {
				t.Fatalf("body %.120q lacks %q", rec.Body.String(), tc.bodyHas)
			}
		})
	}
}

func TestCrawlersGetNoErrorPage(t *testing.T) {
	t.Parallel()
	_, h := newSite(t)
	for ua, wantPage := range map[string]bool{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)": false,
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)":  false,
		"facebookexternalhit/1.1": false,
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36":         true,
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/156.0 Safari/537.36": true,
	} {
		req := httptest.NewRequest("GET", "/no/such/page/", nil)
		req.Header.Set("User-Agent", ua)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		gotPage := strings.Contains(rec.Body.String(), "We Were Unable")
		if rec.Code != 404 || gotPage != wantPage {
			t.Errorf("%s: status %d, error page %v (want %v)", ua, rec.Code, gotPage, wantPage)
		}
	}
}

func TestEdgeGzipAndRevalidation(t *testing.T) {
	t.Parallel()
	_, h := newSite(t)
	req := httptest.NewRequest("GET", "/outlet/r/wholesale_balloons/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("not gzipped: %v", rec.Header())
	}
	etag := rec.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	req = httptest.NewRequest("GET", "/outlet/r/wholesale_balloons/", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Fatalf("revalidation: status %d, want 304", rec.Code)
	}
}

func TestEdgePicksUpNewBuildRules(t *testing.T) {
	t.Parallel()
	site, h := newSite(t)
	get := func(p string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		return rec
	}
	if rec := get("/balloons/"); rec.Code != 404 {
		t.Fatalf("before the new build: %d", rec.Code)
	}
	cutBuild(t, site, "build-two", `[{"source":"/balloons/","target":"/outlet/r/wholesale_balloons/"}]`)
	rec := get("/balloons/")
	if rec.Code != 301 || rec.Header().Get("Location") != "/outlet/r/wholesale_balloons/" {
		t.Fatalf("after the new build: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if rec := get("/christmas/"); rec.Code != 404 {
		t.Fatalf("the old build's rule still applies: %d", rec.Code)
	}
}

// Over a real connection, the request lines an attacker sends: none may answer a
// redirect whose Location leaves the site (Chromium followed //evil.example/x/ before).
func TestEdgeRefusesPathsThatRedirectOffSite(t *testing.T) {
	t.Parallel()
	_, h := newSite(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, target := range []string{"//evil.example/x", "/%5Cevil.example/x", "/%09/evil.example/x", "/%2F%2Fevil.example/x", "/\\evil.example/x"} {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n", target)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		resp.Body.Close()
		conn.Close()
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusBadRequest || loc != "" {
			t.Errorf("GET %s: %d Location %q, want 400 and no redirect", target, resp.StatusCode, loc)
		}
	}
}
