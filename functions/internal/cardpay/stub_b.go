package cardpay

// This file stands in for B's part of the package (cardpay.go, refund.go) until it is
// merged: the lead deletes it then. Its shapes are the contract's (issue 36).

import (
	"context"
	"log/slog"
	"time"

	"github.com/stripe/stripe-go/v84"

	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/store"
)

// Config is how the shop reaches Stripe.
type Config struct {
	SecretKey, WebhookSecret, APIBase, SiteURL, Stage string
}

// ConfigFromEnv reads Config from the environment.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	return Config{SecretKey: getenv("STRIPE_SECRET_KEY"), WebhookSecret: getenv("STRIPE_WEBHOOK_SECRET"), APIBase: getenv("STRIPE_API_BASE"),
		SiteURL: getenv("SITE_URL"), Stage: getenv("STAGE")}, nil
}

// Service is card payment through Stripe.
type Service struct {
	Config   Config
	Stripe   *stripe.Client
	Store    *store.Store
	Payments payments.Service
	Notify   mail.Notices
	Now      func() time.Time
	Log      *slog.Logger
}

// RefundCard stands in for B's: it records the refund document only (no Stripe call).
func (s Service) RefundCard(ctx context.Context, uid, source, pi string, amount int64, reason string) (payments.Refund, error) {
	r, _, err := s.Payments.Refund(ctx, uid, payments.RefundRequest{Source: source, Method: payments.MethodCard,
		Date: payments.Day(s.Now()).Format(time.DateOnly), Amount: amount, Reference: pi, By: payments.CardStaff})
	return r, err
}

// ApplyRefundEvent stands in for B's: it changes nothing.
func (s Service) ApplyRefundEvent(ctx context.Context, r *stripe.Refund) error { return nil }
