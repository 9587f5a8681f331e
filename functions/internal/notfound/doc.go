// Package notfound answers requests for pages the site does not have: the exported 404
// page with status 404, or a bare 404 for crawlers (SPEC.md: no error page is rendered
// for crawler user agents). The local edge serves its misses with it, and in the cloud
// the notFound Lambda does, as CloudFront's fallback origin when S3 has no such object.
package notfound
