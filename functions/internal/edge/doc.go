// Package edge serves the static export the way CloudFront does in production: the
// trailing-slash redirect (query kept), the current build's route-rule redirects, the
// index.html rewrite, the exported 404 page with status 404, per-path cache headers, and
// X-Robots-Tag: noindex on a page asked for as a listing's filtered view (robots.go).
// A release folder stores compressible files gzip-compressed as name.gz (nginx's
// gzip_static layout): the edge serves name.gz with Content-Encoding: gzip, as S3 and
// CloudFront serve the objects the release put with it, and decompresses it for a client
// that does not accept gzip. An export (site/out) holds raw files, served as they are.
// cmd/local puts it in front of the same /api handlers the Lambdas wrap.
package edge
