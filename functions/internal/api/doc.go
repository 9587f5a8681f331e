// Package api holds the shop's /api/* HTTP handlers. routes.go lists the whole
// surface; each Lambda in cmd/ mounts one endpoint of it and the local edge mounts all
// of them, so local and cloud run the very same handlers.
package api
