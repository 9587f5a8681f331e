package testenv

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// MaildevURL is the base of the local mail server's web inbox and REST API (MAILDEV_URL,
// which the test command sets with SMTP_HOST and SMTP_PORT); the test skips without it.
func MaildevURL(t *testing.T) string {
	t.Helper()
	need(t, "MAILDEV_URL", "SMTP_PORT", "DYNAMODB_ENDPOINT")
	return strings.TrimRight(os.Getenv("MAILDEV_URL"), "/")
}

// Email is one email maildev received, as its REST API lists it.
type Email struct {
	ID      string `json:"id"`
	Subject string `json:"subject"`
	From    []struct {
		Address string `json:"address"`
		Name    string `json:"name"`
	} `json:"from"`
	To []struct {
		Address string `json:"address"`
	} `json:"to"`
	Headers map[string]any `json:"headers"`
	Text    string         `json:"text"`
	HTML    string         `json:"html"`
}

// Header answers the email's header name (lower case), "" when it has none.
func (e Email) Header(name string) string {
	switch v := e.Headers[strings.ToLower(name)].(type) {
	case string:
		return v
	case []any:
		if len(v) > 0 {
			return fmt.Sprint(v[0])
		}
	}
	return ""
}

// Recipient is the email's first To address.
func (e Email) Recipient() string {
	if len(e.To) == 0 {
		return ""
	}
	return e.To[0].Address
}

// Emails answers every email maildev at url holds (GET /api/email).
func Emails(t *testing.T, url string) []Email {
	t.Helper()
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(url + "/api/email")
	if err != nil {
		t.Fatalf("maildev: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("maildev GET /api/email: status %d", resp.StatusCode)
	}
	var out []Email
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("maildev GET /api/email: %v", err)
	}
	return out
}

// Source answers the email's raw message as maildev received it (GET /api/email/{id}/source):
// its JSON leaves out some headers, such as Reply-To.
func Source(t *testing.T, url, id string) string {
	t.Helper()
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(url + "/api/email/" + id + "/source")
	if err != nil {
		t.Fatalf("maildev: %v", err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	if _, err := io.Copy(&b, resp.Body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("maildev GET /api/email/%s/source: status %d, %v", id, resp.StatusCode, err)
	}
	return b.String()
}
