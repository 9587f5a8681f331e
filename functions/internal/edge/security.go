package edge

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed security-headers.json
var securityHeadersJSON []byte

// securityPolicy is security-headers.json, shared with the CDK app's response headers policy.
type securityPolicy struct {
	StrictTransportSecurity struct {
		MaxAgeSeconds     int  `json:"maxAgeSeconds"`
		IncludeSubdomains bool `json:"includeSubdomains"`
		Preload           bool `json:"preload"`
	} `json:"strictTransportSecurity"`
	ContentSecurityPolicy []string `json:"contentSecurityPolicy"`
	FrameOptions          string   `json:"frameOptions"`
	ReferrerPolicy        string   `json:"referrerPolicy"`
	ContentTypeOptions    string   `json:"contentTypeOptions"`
}

// SecurityHeaders answers the headers CloudFront's response headers policy adds, with
// extraConnect origins (the local Auth emulator) appended to the CSP's connect-src.
func SecurityHeaders(extraConnect ...string) (map[string]string, error) {
	var p securityPolicy
	if err := json.Unmarshal(securityHeadersJSON, &p); err != nil {
		return nil, fmt.Errorf("security-headers.json: %w", err)
	}
	csp := make([]string, len(p.ContentSecurityPolicy))
	for i, d := range p.ContentSecurityPolicy {
		if strings.HasPrefix(d, "connect-src ") && len(extraConnect) > 0 {
			d += " " + strings.Join(extraConnect, " ")
		}
		csp[i] = d
	}
	hsts := fmt.Sprintf("max-age=%d", p.StrictTransportSecurity.MaxAgeSeconds)
	if p.StrictTransportSecurity.IncludeSubdomains {
		hsts += "; includeSubDomains"
	}
	if p.StrictTransportSecurity.Preload {
		hsts += "; preload"
	}
	return map[string]string{
		"Strict-Transport-Security": hsts,
		"Content-Security-Policy":   strings.Join(csp, "; "),
		"X-Frame-Options":           p.FrameOptions,
		"Referrer-Policy":           p.ReferrerPolicy,
		"X-Content-Type-Options":    p.ContentTypeOptions,
	}, nil
}
