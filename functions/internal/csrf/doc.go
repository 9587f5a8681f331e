// Package csrf protects state-changing endpoints with the OWASP signed double-submit
// cookie: GET /api/csrf issues a random token signed with HMAC-SHA256 and an expiry,
// in an HttpOnly cookie and in the JSON answer (the page puts it in its csrf-token meta
// tag); a protected request must send the same token in the CSRF header, and its
// signature and expiry must check out. Cross-site requests are refused before that by
// Go's http.CrossOriginProtection.
package csrf
