package cardpay

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v84"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/awssecret"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/store"
)

// StageLocal is the one stage whose Stripe calls may go to a local stripe-mock
// (STRIPE_API_BASE) and which serves the local payment page.
const StageLocal = "local"

// DefaultSiteURL is where the site is served when SITE_URL is not set: the local edge.
const DefaultSiteURL = "http://127.0.0.1:8080"

// Config is how the shop reaches Stripe (README "Ports and configuration").
type Config struct {
	// SecretKey is the API secret key (STRIPE_SECRET_KEY, or the secret's secret_key):
	// sk_test_… in the local and staging stages, sk_live_… in production. Empty: card
	// payment is off.
	SecretKey string
	// WebhookSecret verifies the events Stripe sends (STRIPE_WEBHOOK_SECRET, or the
	// secret's webhook_secret): whsec_….
	WebhookSecret string
	// APIBase is STRIPE_API_BASE: the local stripe-mock's address, honoured only in the
	// local stage; empty for Stripe itself.
	APIBase string
	// SiteURL is the site's address (SITE_URL, no trailing slash): Stripe sends the
	// buyer back to its pages.
	SiteURL string
	// Stage is STAGE: local, staging or production.
	Stage string
	// SecretARN is STRIPE_SECRET_ARN: a Secrets Manager secret holding
	// {"secret_key": …, "webhook_secret": …}, read by LoadSecret.
	SecretARN string
}

// Enabled says card payment is on: there is a secret key.
func (c Config) Enabled() bool { return c.SecretKey != "" }

// Offered says the billing step may offer card: a key is set, or a Stripe secret is
// named, or c is a cloud stage's, whose Stripe secret exists in every stage but is read
// only by the functions that call Stripe. A cloud stage whose secret holds no key yet
// offers card and answers Pay now 503 until it does (docs/payments.md "Going live").
func (c Config) Offered() bool {
	return c.Enabled() || c.SecretARN != "" || (c.Stage != "" && !c.Local())
}

// Local says c is the local stage's.
func (c Config) Local() bool { return c.Stage == StageLocal }

// ConfigFromEnv reads STAGE (default local), SITE_URL (else SITE_ORIGIN, the cloud's;
// default, in the local stage only, DefaultSiteURL), STRIPE_SECRET_KEY,
// STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE and STRIPE_SECRET_ARN through getenv, and checks
// the keys against the stage (Check) when they are set here rather than in the secret.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{SecretKey: strings.TrimSpace(getenv("STRIPE_SECRET_KEY")), WebhookSecret: strings.TrimSpace(getenv("STRIPE_WEBHOOK_SECRET")),
		APIBase: strings.TrimRight(strings.TrimSpace(getenv("STRIPE_API_BASE")), "/"), Stage: strings.TrimSpace(getenv("STAGE")),
		SiteURL: strings.TrimRight(strings.TrimSpace(getenv("SITE_URL")), "/"), SecretARN: strings.TrimSpace(getenv("STRIPE_SECRET_ARN"))}
	if c.Stage == "" {
		c.Stage = StageLocal
	}
	if c.SiteURL == "" {
		// The cloud's functions are told the site's origin (SITE_ORIGIN, set by the CDK app).
		c.SiteURL = strings.TrimRight(strings.TrimSpace(getenv("SITE_ORIGIN")), "/")
	}
	if c.SiteURL == "" && c.Local() {
		c.SiteURL = DefaultSiteURL
	}
	if c.APIBase != "" && !c.Local() {
		// A stage that is not local talks to Stripe itself, whatever the environment says.
		return Config{}, fmt.Errorf("STRIPE_API_BASE is set but STAGE is %s: a local Stripe mock is used only with STAGE=local", c.Stage)
	}
	if c.SecretARN != "" && c.SecretKey != "" {
		return Config{}, fmt.Errorf("set STRIPE_SECRET_ARN or STRIPE_SECRET_KEY, not both")
	}
	if c.SecretARN != "" {
		return c, nil // checked by LoadSecret once the secret is read
	}
	return c, c.Check()
}

// Check refuses a key of the wrong mode for the stage: a live key (sk_live_, rk_live_)
// in the local or staging stage, a test key (sk_test_, rk_test_) in production, a key of
// neither kind (a publishable pk_…),
// and a key without its webhook secret. Its sentences never quote a key.
func (c Config) Check() error {
	if c.SecretKey == "" {
		return nil // card payment is off
	}
	live := strings.HasPrefix(c.SecretKey, "sk_live_") || strings.HasPrefix(c.SecretKey, "rk_live_")
	test := strings.HasPrefix(c.SecretKey, "sk_test_") || strings.HasPrefix(c.SecretKey, "rk_test_")
	switch {
	case !live && !test:
		return fmt.Errorf("the Stripe secret key must be a secret or restricted key (sk_… or rk_…, test or live); a publishable key will not do")
	case live && c.Stage != "production":
		return fmt.Errorf("the Stripe secret key is a live-mode key but STAGE is %s: use a test-mode key (sk_test_…) outside production", c.Stage)
	case test && c.Stage == "production":
		return fmt.Errorf("the Stripe secret key is a test-mode key but STAGE is production: production takes a live-mode key (sk_live_…)")
	case c.WebhookSecret == "":
		return fmt.Errorf("a Stripe secret key is set without its webhook secret (STRIPE_WEBHOOK_SECRET, whsec_…): events could not be verified")
	case c.SiteURL == "":
		return fmt.Errorf("SITE_URL must be set where card payment is on: Stripe sends the buyer back to the site's pages")
	}
	return nil
}

// secret is the Stripe secret's JSON.
type secret struct {
	SecretKey     string `json:"secret_key"`
	WebhookSecret string `json:"webhook_secret"`
}

// LoadSecret reads c.SecretARN's keys from Secrets Manager into c and checks them
// (nothing to do without an ARN). A function calls it once, at cold start; the values
// are never logged.
func LoadSecret(ctx context.Context, c *Config, region string) error {
	if c.SecretARN == "" {
		return nil
	}
	s, err := awssecret.String(ctx, region, c.SecretARN, "the Stripe secret")
	if err != nil {
		return err
	}
	return c.setSecret(s)
}

// setSecret takes the keys of the secret's JSON and checks them. A secret whose
// secret_key is empty (as the stack creates it) leaves card payment off.
func (c *Config) setSecret(s string) error {
	var v secret
	if err := json.Unmarshal([]byte(s), &v); err != nil || (v.SecretKey != "" && v.WebhookSecret == "") {
		// The error must not quote the secret.
		return fmt.Errorf("the Stripe secret %s must be JSON {\"secret_key\": …, \"webhook_secret\": …} with both set "+
			"(docs/payments.md \"Going live\")", c.SecretARN)
	}
	if strings.TrimSpace(v.SecretKey) == "" {
		// The placeholder the stack creates the secret with: card payment stays off
		// until the key is set.
		return nil
	}
	c.SecretKey, c.WebhookSecret = strings.TrimSpace(v.SecretKey), strings.TrimSpace(v.WebhookSecret)
	return c.Check()
}

// NewClient makes the Stripe client of c: its API calls go to c.APIBase when set (the
// local stripe-mock), else to Stripe. Nil when card payment is off.
func NewClient(c Config, httpClient *http.Client) *stripe.Client {
	if !c.Enabled() {
		return nil
	}
	if httpClient == nil {
		httpClient = &http.Client{Timeout: 20 * time.Second}
	}
	bc := &stripe.BackendConfig{HTTPClient: httpClient, LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelError}}
	if c.APIBase != "" {
		bc.URL = stripe.String(c.APIBase)
	}
	return stripe.NewClient(c.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(bc)))
}

// Service takes card payments for the shop: Pay (a Checkout Session for an order), the
// webhook's events, and refunds to the card.
type Service struct {
	Config Config
	// Stripe is the client of Config; nil when card payment is off.
	Stripe   *stripe.Client
	Store    *store.Store
	Payments payments.Service
	// Notify makes the emails of card payments and refunds.
	Notify mail.Notices
	Now    func() time.Time
	Log    *slog.Logger
}

// NewService builds the Service of c over st: nil when card payment is off (no key).
func NewService(c Config, st *store.Store, notify mail.Notices, now func() time.Time, log *slog.Logger) *Service {
	if !c.Enabled() {
		return nil
	}
	return &Service{Config: c, Stripe: NewClient(c, nil), Store: st, Payments: payments.Service{Store: st, Now: now},
		Notify: notify, Now: now, Log: log}
}

// ServiceFromEnv builds the Service of the environment's Stripe configuration over st
// (its secret read from Secrets Manager where STRIPE_SECRET_ARN names one, in region):
// nil when no key is set. The jobs (sweepOrders, the local edge's sweep) build theirs so.
func ServiceFromEnv(ctx context.Context, getenv func(string) string, region string, st *store.Store, shop config.Shop,
	log *slog.Logger) (*Service, error) {
	c, err := ConfigFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	if err := LoadSecret(ctx, &c, region); err != nil {
		return nil, err
	}
	return NewService(c, st, mail.Notices{Shop: shop, SiteURL: c.SiteURL}, time.Now, log), nil
}
