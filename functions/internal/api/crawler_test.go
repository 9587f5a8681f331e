package api

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestCrawlerListIsTheSites holds crawlerPattern to the site's own list
// (site/lib/crawler.ts), its lookahead aside (crawler.go says why that is the same list).
func TestCrawlerListIsTheSites(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../../site/lib/crawler.ts")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)const crawlerUA =\s*/(.*?)/i;`).FindSubmatch(src)
	if m == nil {
		t.Fatal("site/lib/crawler.ts has no `const crawlerUA = /…/i;`: read its list again")
	}
	site := strings.Replace(string(m[1]), `lighthouse(?!.*chrome-lighthouse)`, `lighthouse`, 1)
	if site != crawlerPattern {
		t.Errorf("crawlerPattern differs from site/lib/crawler.ts's list:\n go:   %s\n site: %s", crawlerPattern, site)
	}
}

func TestIsCrawler(t *testing.T) {
	t.Parallel()
	for ua, want := range map[string]bool{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)":                                 true,
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)":                                  true,
		"Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 Chrome-Lighthouse":                true,
		"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)":                                true,
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537": false,
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148":                false,
		"": false,
	} {
		if got := isCrawler(ua); got != want {
			t.Errorf("isCrawler(%q) = %v, want %v", ua, got, want)
		}
	}
}
