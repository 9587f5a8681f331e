package cardpay

import (
	"strings"
	"testing"
)

// TestConfigRefusesTheWrongKeyForTheStage: a live key outside production, a test key in
// production, a key without its webhook secret and a mock address outside the local
// stage are refused, in sentences that never quote the key.
func TestConfigRefusesTheWrongKeyForTheStage(t *testing.T) {
	t.Parallel()
	const live, test = "sk_live_SECRETSECRET", "sk_test_SECRETSECRET"
	cases := []struct {
		name string
		env  map[string]string
		want string // "" for no error
	}{
		{"off without a key", map[string]string{"STAGE": "production"}, ""},
		{"local test key", map[string]string{"STAGE": "local", "STRIPE_SECRET_KEY": test, "STRIPE_WEBHOOK_SECRET": "whsec_x"}, ""},
		{"local live key", map[string]string{"STAGE": "local", "STRIPE_SECRET_KEY": live, "STRIPE_WEBHOOK_SECRET": "whsec_x"}, "live-mode key"},
		{"staging live key", map[string]string{"STAGE": "staging", "SITE_URL": "https://s.example", "STRIPE_SECRET_KEY": live, "STRIPE_WEBHOOK_SECRET": "whsec_x"}, "live-mode key"},
		{"production test key", map[string]string{"STAGE": "production", "SITE_URL": "https://s.example", "STRIPE_SECRET_KEY": test, "STRIPE_WEBHOOK_SECRET": "whsec_x"}, "test-mode key"},
		{"production live key", map[string]string{"STAGE": "production", "SITE_URL": "https://s.example", "STRIPE_SECRET_KEY": live, "STRIPE_WEBHOOK_SECRET": "whsec_x"}, ""},
		{"no webhook secret", map[string]string{"STAGE": "staging", "SITE_URL": "https://s.example", "STRIPE_SECRET_KEY": test}, "webhook secret"},
		{"restricted test key", map[string]string{"STAGE": "local", "STRIPE_SECRET_KEY": "rk_test_SECRETSECRET", "STRIPE_WEBHOOK_SECRET": "whsec_x"}, ""},
		{"restricted live key in staging", map[string]string{"STAGE": "staging", "SITE_URL": "https://s.example", "STRIPE_SECRET_KEY": "rk_live_SECRETSECRET", "STRIPE_WEBHOOK_SECRET": "whsec_x"}, "live-mode key"},
		{"publishable key", map[string]string{"STAGE": "local", "STRIPE_SECRET_KEY": "pk_test_SECRETSECRET", "STRIPE_WEBHOOK_SECRET": "whsec_x"}, "publishable"},
		{"mock outside local", map[string]string{"STAGE": "staging", "STRIPE_API_BASE": "http://127.0.0.1:12111"}, "STAGE=local"},
		{"no site address in the cloud", map[string]string{"STAGE": "staging", "STRIPE_SECRET_KEY": test, "STRIPE_WEBHOOK_SECRET": "whsec_x"}, "SITE_URL"},
		{"the cloud's site origin", map[string]string{"STAGE": "staging", "SITE_ORIGIN": "https://s.example", "STRIPE_SECRET_KEY": test, "STRIPE_WEBHOOK_SECRET": "whsec_x"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := ConfigFromEnv(func(k string) string { return c.env[k] })
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("err %v, want one saying %q", err, c.want)
			case err != nil && strings.Contains(err.Error(), "SECRETSECRET"):
				t.Fatalf("the error quotes the key: %v", err)
			}
			if err == nil && cfg.Enabled() != (c.env["STRIPE_SECRET_KEY"] != "") {
				t.Fatalf("enabled %v", cfg.Enabled())
			}
		})
	}
}

// TestSecretJSON: the secret's JSON gives both keys, is checked against the stage, and a
// malformed one is refused without quoting it.
func TestSecretJSON(t *testing.T) {
	t.Parallel()
	c := Config{Stage: "production", SiteURL: "https://s.example", SecretARN: "arn:stripe"}
	if err := c.setSecret(`{"secret_key":"sk_live_AAA","webhook_secret":"whsec_B"}`); err != nil || c.SecretKey != "sk_live_AAA" || c.WebhookSecret != "whsec_B" {
		t.Fatalf("%v %+v", err, c)
	}
	c = Config{Stage: "production", SiteURL: "https://s.example", SecretARN: "arn:stripe"}
	if err := c.setSecret(`{"secret_key":"sk_test_AAA","webhook_secret":"whsec_B"}`); err == nil {
		t.Fatal("a test key in production was taken")
	}
	if err := c.setSecret(`{"secret_key":"sk_live_QUOTEME"`); err == nil || strings.Contains(err.Error(), "QUOTEME") {
		t.Fatalf("malformed secret: %v", err)
	}
	// The placeholder the stack creates the secret with: card payment off, no error.
	c = Config{Stage: "production", SiteURL: "https://s.example", SecretARN: "arn:stripe"}
	if err := c.setSecret(`{"secret_key":"","webhook_secret":"whsec_random"}`); err != nil || c.Enabled() || !c.Offered() {
		t.Fatalf("placeholder: %v enabled %v offered %v", err, c.Enabled(), c.Offered())
	}
}
