// Package edge serves the static export the way CloudFront does in production: the
// trailing-slash redirect (query kept), the current build's route-rule redirects, the
// index.html rewrite, the exported 404 page with status 404, per-path cache headers, and
// X-Robots-Tag: noindex on a page asked for as a listing's filtered view (robots.go).
// cmd/local puts it in front of the same /api handlers the Lambdas wrap.
package edge
