package mail

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/awssecret"
	"github.com/tradeshop/functions/internal/outbox"
)

// The SMTP settings' defaults: maildev, as the run command starts it.
const (
	DefaultHost = "127.0.0.1"
	DefaultPort = 1025
)

// TLS modes of SMTP_TLS.
const (
	TLSNone     = "none"     // plain SMTP: loopback only
	TLSStartTLS = "starttls" // STARTTLS required (Amazon SES's SMTP interface on port 587)
)

// dialTimeout bounds connecting to the SMTP server (each send has its own deadline too).
const dialTimeout = 15 * time.Second

// Config is how the shop reaches its SMTP server (README "Ports and configuration").
type Config struct {
	Host string // SMTP_HOST
	Port int    // SMTP_PORT
	// From is the sender of every email (MAIL_FROM): by default the shop's trading name
	// at its contact address.
	From string
	TLS  string // SMTP_TLS: TLSNone or TLSStartTLS
	// SecretARN is SMTP_SECRET_ARN: a Secrets Manager secret holding
	// {"username": …, "password": …} (the SES SMTP credentials), read by LoadCredentials.
	SecretARN string
	// Username and Password authenticate (AUTH PLAIN, over TLS only); empty for none.
	Username, Password string
}

// ConfigFromEnv reads SMTP_HOST (127.0.0.1), SMTP_PORT (1025), MAIL_FROM (the shop's
// trading name and contact address), SMTP_TLS (none for a loopback host, else starttls;
// none is refused for any other host) and SMTP_SECRET_ARN (unset: no authentication)
// through getenv.
func ConfigFromEnv(getenv func(string) string, shop config.Shop) (Config, error) {
	c := Config{Host: strings.TrimSpace(getenv("SMTP_HOST")), Port: DefaultPort, From: strings.TrimSpace(getenv("MAIL_FROM")),
		TLS: strings.TrimSpace(getenv("SMTP_TLS")), SecretARN: strings.TrimSpace(getenv("SMTP_SECRET_ARN"))}
	if c.Host == "" {
		c.Host = DefaultHost
	}
	if v := strings.TrimSpace(getenv("SMTP_PORT")); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 || p > 65535 {
			return Config{}, fmt.Errorf("SMTP_PORT must be a port number from 1 to 65535, not %q", v)
		}
		c.Port = p
	}
	if c.From == "" {
		c.From = (&netmail.Address{Name: shop.Business.TradingName, Address: shop.Contact.Email}).String()
	}
	if _, err := netmail.ParseAddress(c.From); err != nil {
		return Config{}, fmt.Errorf("MAIL_FROM must be an email address (%q: %v)", c.From, err)
	}
	if c.TLS == "" {
		c.TLS = TLSStartTLS
		if loopback(c.Host) {
			c.TLS = TLSNone
		}
	}
	switch c.TLS {
	case TLSStartTLS:
	case TLSNone:
		if !loopback(c.Host) {
			return Config{}, fmt.Errorf("SMTP_TLS=none is only for a server on this machine (loopback), not %s: use starttls", c.Host)
		}
	default:
		return Config{}, fmt.Errorf("SMTP_TLS must be none or starttls, not %q", c.TLS)
	}
	return c, nil
}

// loopback says host is this machine.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// credentials is the SMTP secret's JSON.
type credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// LoadCredentials reads c.SecretARN's username and password from Secrets Manager into c
// (nothing to do without an ARN). The function calls it once, at cold start; the values
// are never logged.
func LoadCredentials(ctx context.Context, c *Config, region string) error {
	if c.SecretARN == "" {
		return nil
	}
	s, err := awssecret.String(ctx, region, c.SecretARN, "the SMTP secret")
	if err != nil {
		return err
	}
	return c.setCredentials(s)
}

// setCredentials takes the username and password of the secret's JSON.
func (c *Config) setCredentials(secret string) error {
	var cr credentials
	if err := json.Unmarshal([]byte(secret), &cr); err != nil || cr.Username == "" || cr.Password == "" {
		// The error must not quote the secret.
		return fmt.Errorf("the SMTP secret %s must be JSON {\"username\": …, \"password\": …} with both set "+
			"(the SES SMTP credentials: docs/infrastructure.md \"Email\")", c.SecretARN)
	}
	c.Username, c.Password = cr.Username, cr.Password
	return nil
}

// SMTP sends messages through one SMTP server, one connection a message.
type SMTP struct {
	cfg    Config
	domain string // of the From address: the Message-IDs' right-hand side
}

var _ Sender = (*SMTP)(nil)

// NewSMTP makes the sender of cfg. It refuses credentials without TLS to a server that
// is not on this machine.
func NewSMTP(cfg Config) (*SMTP, error) {
	from, err := netmail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("mail from %q: %w", cfg.From, err)
	}
	if cfg.TLS != TLSStartTLS && !loopback(cfg.Host) {
		return nil, fmt.Errorf("SMTP to %s needs starttls", cfg.Host)
	}
	domain := "tradeshop.invalid"
	if at := strings.LastIndexByte(from.Address, '@'); at >= 0 && at < len(from.Address)-1 {
		domain = from.Address[at+1:]
	}
	return &SMTP{cfg: cfg, domain: domain}, nil
}

// MessageID is the Message-ID header (without its angle brackets) of outbox message id
// sent from domain: the same on every attempt, so a message sent twice (a crash between
// the server's acceptance and its marking as sent) is recognisable as one.
func MessageID(id, domain string) string {
	return "outbox." + strings.NewReplacer("/", ".", "@", ".", " ", "", "<", "", ">", "").Replace(id) + "@" + domain
}

// OutboxHeader names the outbox id of every email sent: Amazon SES replaces a message's
// own Message-ID with one of its own, and keeps this header.
const OutboxHeader = "X-Outbox-Id"

// Send sends m. A server that cannot be reached is an error that is Unreachable; one that
// refuses the message for good (a 5xx answer) is Permanent.
func (s *SMTP) Send(ctx context.Context, m outbox.Message) error {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := msg.From(s.cfg.From); err != nil {
		return fmt.Errorf("from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return &permanent{fmt.Errorf("to %q: %w", m.To, err)}
	}
	if m.ReplyTo != "" {
		if err := msg.ReplyTo(m.ReplyTo); err != nil {
			return &permanent{fmt.Errorf("reply-to %q: %w", m.ReplyTo, err)}
		}
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageIDWithValue(MessageID(m.ID, s.domain))
	msg.SetGenHeader(gomail.Header(OutboxHeader), m.ID)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	opts := []gomail.Option{gomail.WithPort(s.cfg.Port), gomail.WithTimeout(dialTimeout), gomail.WithTLSPolicy(gomail.NoTLS)}
	if s.cfg.TLS == TLSStartTLS {
		opts[2] = gomail.WithTLSPolicy(gomail.TLSMandatory)
	}
	if s.cfg.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(s.cfg.Username), gomail.WithPassword(s.cfg.Password))
	}
	client, err := gomail.NewClient(s.cfg.Host, opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	conn, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return &unreachable{fmt.Errorf("connect to %s: %w", net.JoinHostPort(s.cfg.Host, strconv.Itoa(s.cfg.Port)), err)}
	}
	sendErr := client.SendWithSMTPClient(conn, msg)
	closeErr := client.CloseWithSMTPClient(conn)
	if sendErr != nil {
		var se *gomail.SendError
		if errors.As(sendErr, &se) && se.ErrorCode() >= 500 && se.ErrorCode() < 600 {
			return &permanent{fmt.Errorf("send %s: %w", m.ID, sendErr)}
		}
		return fmt.Errorf("send %s: %w", m.ID, sendErr)
	}
	// The server accepted the message: a failure to say goodbye does not unsend it.
	_ = closeErr
	return nil
}

// unreachable is a send that could not reach the server at all.
type unreachable struct{ err error }

func (e *unreachable) Error() string { return e.err.Error() }
func (e *unreachable) Unwrap() error { return e.err }

// permanent is a message the server refused for good.
type permanent struct{ err error }

func (e *permanent) Error() string { return e.err.Error() }
func (e *permanent) Unwrap() error { return e.err }

// Unreachable says err is a send that could not reach the mail server: the others would
// fail the same way now.
func Unreachable(err error) bool {
	var u *unreachable
	return errors.As(err, &u)
}

// Permanent says err is the mail server refusing the message for good.
func Permanent(err error) bool {
	var p *permanent
	return errors.As(err, &p)
}
