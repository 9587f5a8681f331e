package api

import "regexp"

// crawlerPattern is the site's list of crawler user agents (site/lib/crawler.ts, which
// decides that crawlers are shown no error pages and send no error reports), copied here
// so the API refuses to record a crawler's reports too; TestCrawlerListIsTheSites fails
// when the two differ. The site's pattern says lighthouse(?!.*chrome-lighthouse), a
// lookahead Go's regexp does not have; it matches exactly what lighthouse alone does (the
// last "lighthouse" of a user agent is never followed by "chrome-lighthouse"), so the
// copy leaves the lookahead out, and the test compares the two without it.
const crawlerPattern = `bot\b|crawler|spider|slurp|bingpreview|facebookexternalhit|embedly|quora link preview|outbrain|pinterest|vkshare|w3c_validator|lighthouse|headlesschrome\/.*\(compatible;|mediapartners-google|adsbot|apis-google|feedfetcher|duckduckbot|yandex|baiduspider|petalbot|semrush|ahrefs`

var crawlerUA = regexp.MustCompile(`(?i)` + crawlerPattern)

// isCrawler reports whether a user agent is a crawler's.
func isCrawler(userAgent string) bool { return crawlerUA.MatchString(userAgent) }
