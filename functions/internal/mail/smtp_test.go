package mail

import (
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigFromEnvDefaults(t *testing.T) {
	t.Parallel()
	shop := testShop(t)
	c, err := ConfigFromEnv(env(nil), shop)
	if err != nil {
		t.Fatal(err)
	}
	if c.Host != "127.0.0.1" || c.Port != 1025 || c.TLS != TLSNone || c.SecretARN != "" {
		t.Errorf("defaults %+v", c)
	}
	if want := `"TradeShop Wholesale" <` + shop.Contact.Email + `>`; c.From != want {
		t.Errorf("From %q, want %q", c.From, want)
	}
	c, err = ConfigFromEnv(env(map[string]string{"SMTP_HOST": "email-smtp.eu-west-2.amazonaws.com", "SMTP_PORT": "587",
		"MAIL_FROM": "orders@shop.example", "SMTP_SECRET_ARN": "arn:aws:secretsmanager:eu-west-2:1:secret:smtp"}), shop)
	if err != nil || c.TLS != TLSStartTLS || c.Port != 587 || c.From != "orders@shop.example" {
		t.Errorf("SES settings: %+v %v", c, err)
	}
}

func TestConfigFromEnvRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"SMTP_HOST": "smtp.example.com", "SMTP_TLS": "none"}, "SMTP_TLS=none is only for a server on this machine"},
		{map[string]string{"SMTP_TLS": "ssl"}, "SMTP_TLS must be none or starttls"},
		{map[string]string{"SMTP_PORT": "0"}, "SMTP_PORT must be a port number"},
		{map[string]string{"SMTP_PORT": "smtp"}, "SMTP_PORT must be a port number"},
		{map[string]string{"MAIL_FROM": "not an address"}, "MAIL_FROM must be an email address"},
	} {
		if _, err := ConfigFromEnv(env(tc.env), testShop(t)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.env, err, tc.want)
		}
	}
}

func TestCredentialsFromTheSecret(t *testing.T) {
	t.Parallel()
	c := Config{SecretARN: "arn:smtp"}
	if err := c.setCredentials(`{"username":"AKIAEXAMPLE","password":"s3cret-value"}`); err != nil || c.Username != "AKIAEXAMPLE" || c.Password != "s3cret-value" {
		t.Errorf("%+v %v", c, err)
	}
	for _, bad := range []string{``, `{}`, `{"username":"AKIAEXAMPLE"}`, `s3cret-value`} {
		err := (&Config{SecretARN: "arn:smtp"}).setCredentials(bad)
		if err == nil {
			t.Errorf("%q accepted", bad)
		} else if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "AKIAEXAMPLE") {
			t.Errorf("the error quotes the secret: %v", err)
		}
	}
}

func TestMessageIDIsTheOutboxIDs(t *testing.T) {
	t.Parallel()
	if got := MessageID("TS-100001/confirmation", "tradeshop.example"); got != "outbox.TS-100001.confirmation@tradeshop.example" {
		t.Errorf("MessageID %q", got)
	}
	if _, err := NewSMTP(Config{Host: "smtp.example.com", Port: 25, From: "a@b.test", TLS: TLSNone}); err == nil {
		t.Error("plain SMTP to another machine accepted")
	}
}
