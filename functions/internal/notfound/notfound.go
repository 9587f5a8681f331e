package notfound

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// PageSource gives the current build's 404 page.
type PageSource interface {
	NotFoundPage(ctx context.Context) ([]byte, error)
}

// crawlerUA matches search engine and link-preview crawlers. The site's lib/crawler.ts
// holds the same rule for errors met in the browser.
var crawlerUA = regexp.MustCompile(`(?i)bot\b|crawler|spider|slurp|bingpreview|facebookexternalhit|embedly|quora link preview|outbrain|pinterest|vkshare|w3c_validator|mediapartners-google|adsbot|apis-google|feedfetcher|duckduckbot|yandex|baiduspider|petalbot|semrush|ahrefs`)

// IsCrawler reports whether a User-Agent is a crawler's.
func IsCrawler(userAgent string) bool { return crawlerUA.MatchString(userAgent) }

// Handler answers every request with 404: the 404 page, or an empty body for crawlers.
// The answer varies by agent, so it is never stored by a shared cache.
func Handler(log *slog.Logger, pages PageSource) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Vary", "User-Agent")
		if IsCrawler(r.UserAgent()) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			return
		}
		page, err := pages.NotFoundPage(r.Context())
		if err != nil {
			log.ErrorContext(r.Context(), "404 page unavailable", "err", err)
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		if r.Method != http.MethodHead {
			_, _ = w.Write(page)
		}
	})
}

// FilePage reads the 404 page from the export on disk on every request, so a new
// build's page shows at once (the local edge): Path, or when there is none Path.gz
// decompressed (a release folder stores its pages gzip-compressed, as {path}.gz).
type FilePage struct{ Path string }

// maxPage bounds the 404 page read, decompressed.
const maxPage = 1 << 20

// NotFoundPage implements PageSource.
func (f FilePage) NotFoundPage(context.Context) ([]byte, error) {
	page, err := os.ReadFile(f.Path)
	if !errors.Is(err, fs.ErrNotExist) {
		return page, err
	}
	gz, gzErr := os.Open(f.Path + ".gz")
	if gzErr != nil {
		return nil, err // the error names the page, not its .gz
	}
	defer gz.Close()
	page, err = gunzip(gz)
	if err != nil {
		return nil, fmt.Errorf("%s.gz: %w", f.Path, err)
	}
	return page, nil
}

// gunzip reads a gzip stream whole, up to maxPage bytes decoded.
func gunzip(r io.Reader) ([]byte, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return io.ReadAll(io.LimitReader(zr, maxPage))
}

// ObjectGetter is the one S3 call the cloud source makes.
type ObjectGetter interface {
	GetObject(ctx context.Context, in *s3.GetObjectInput, opts ...func(*s3.Options)) (*s3.GetObjectOutput, error)
}

// S3Page reads the 404 page from the site bucket and keeps it for MaxAge, the same
// minute the CDN keeps pages, so a release's new 404 page shows within that time.
type S3Page struct {
	Client ObjectGetter
	Bucket string
	Key    string
	MaxAge time.Duration
	Now    func() time.Time

	mu      sync.Mutex
	page    []byte
	fetched time.Time
}

var _ PageSource = (*S3Page)(nil)

// NotFoundPage implements PageSource. A failed refresh keeps serving the page it has.
func (s *S3Page) NotFoundPage(ctx context.Context) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now()
	if s.page != nil && now.Sub(s.fetched) < s.MaxAge {
		return s.page, nil
	}
	out, err := s.Client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.Bucket), Key: aws.String(s.Key)})
	if err == nil {
		var page []byte
		// A release stores the page gzip-compressed, with Content-Encoding: gzip, which the
		// SDK hands over as stored.
		if strings.Contains(strings.ToLower(aws.ToString(out.ContentEncoding)), "gzip") {
			page, err = gunzip(out.Body)
		} else {
			page, err = io.ReadAll(io.LimitReader(out.Body, maxPage))
		}
		_ = out.Body.Close()
		if err == nil && len(bytes.TrimSpace(page)) == 0 {
			err = errors.New("empty object")
		}
		if err == nil {
			s.page, s.fetched = page, now
			return page, nil
		}
	}
	if s.page != nil {
		return s.page, nil
	}
	return nil, fmt.Errorf("get s3://%s/%s: %w", s.Bucket, s.Key, err)
}
