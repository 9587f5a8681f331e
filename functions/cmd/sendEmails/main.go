// Command sendEmails is the scheduled Lambda that sends the shop's emails from the outbox
// (docs/back-office.md "Emails"): every due message, one claim at a time, through Amazon
// SES's SMTP interface, each marked sent, or released with back-off when the server does
// not take it. An EventBridge rule runs it every minute (infra/lib/email-sender.ts); the
// local edge runs the same Deliver every 2 seconds.
//
// It reads SMTP_HOST, SMTP_PORT, SMTP_TLS, MAIL_FROM and SMTP_SECRET_ARN (the Secrets
// Manager secret holding the SES SMTP username and password, read once at cold start and
// never logged), besides the store's TABLE_NAME, AWS_REGION and STORE_TIMEOUT_MS.
package main

import (
	"context"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/tradeshop/functions/internal/lambdarun"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/metrics"
)

func main() {
	log, st, cfg, shop := lambdarun.StartJob(os.Getenv)
	fail := func(err error) {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	ctx := context.Background()
	smtp, err := mail.ConfigFromEnv(os.Getenv, shop)
	if err != nil {
		fail(err)
	}
	if err := mail.LoadCredentials(ctx, &smtp, cfg.Region); err != nil {
		fail(err)
	}
	sender, err := mail.NewSMTP(smtp)
	if err != nil {
		fail(err)
	}
	lambda.Start(func(ctx context.Context) error {
		ctx = metrics.Job(ctx, "sendEmails", metrics.RunID(ctx))
		sent, failed, err := mail.Deliver(ctx, st, sender, time.Now())
		// The outbox's gauges after the run: the alarm on the oldest email reads them.
		backlog := st.RecordOutboxBacklog(ctx, time.Now())
		log.InfoContext(ctx, "emails sent", "sent", sent, "failed", failed, "err", err, "backlog_err", backlog, mail.DeliveryMetrics(ctx, sent, failed))
		return err
	})
}
