// Command sweepOrders is the scheduled Lambda that undoes the large orders left pending
// by a request that died between its steps (docs/orders.md), issues the VAT invoices
// such a request left unissued (docs/invoices.md) and asks Stripe again for the refunds
// to a card it has not answered (docs/payments.md) and emails the back-in-stock alerts
// of products in stock that a failed notify left (docs/alerts.md): the cloud's counterpart of
// the local edge's sweep and of the recover command. An EventBridge rule runs it every
// minute (infra/lib/order-sweeper.ts).
package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/tradeshop/functions/internal/alerts"
	"github.com/tradeshop/functions/internal/cardpay"
	"github.com/tradeshop/functions/internal/lambdarun"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/receiving"
)

func main() {
	log, st, cfg, shop := lambdarun.StartJob(os.Getenv)
	card, err := cardpay.ServiceFromEnv(context.Background(), os.Getenv, cfg.Region, st, shop, log)
	if err != nil {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	// The alerts' emails link the product page on the site (SITE_ORIGIN, as the stack sets it).
	stockAlerts := alerts.Service{Store: st, Mail: mail.Notices{Shop: shop, SiteURL: strings.TrimRight(os.Getenv("SITE_ORIGIN"), "/")}, Now: time.Now, Log: log}
	lambda.Start(func(ctx context.Context) error {
		ctx = metrics.Job(ctx, "sweepOrders", metrics.RunID(ctx))
		r, err := orders.Recover(ctx, st, shop, mail.Notices{Shop: shop}, time.Now(), orders.DefaultStaleAfter, orders.InvoiceAfter)
		// Deliveries whose allocation a crash left part-way (docs/forward-orders.md).
		received, rerr := receiving.Service{Store: st, Shop: shop, Now: time.Now, Notify: mail.Notices{Shop: shop}, Placed: mail.Notices{Shop: shop}}.Sweep(ctx, receiving.SweepAfter)
		log.InfoContext(ctx, "deliveries swept", "finished", received, "err", rerr)
		err = errors.Join(err, rerr)
		if card != nil {
			// Refunds to a card Stripe has not answered, and cancelled card orders whose
			// credit a crash left unrefunded (docs/payments.md "Refunds").
			asked, cerr := card.Sweep(ctx)
			log.InfoContext(ctx, "card refunds swept", "asked", asked, "err", cerr)
			err = errors.Join(err, cerr)
		}
		sent, aerr := stockAlerts.Sweep(ctx)
		log.InfoContext(ctx, "back-in-stock alerts swept", "sent", sent, "err", aerr)
		err = errors.Join(err, aerr)
		// The backlogs after the sweep: the alarms on the oldest pending order and the
		// oldest order waiting for its invoice read them.
		backlog := st.RecordOrderBacklogs(ctx, time.Now())
		log.InfoContext(ctx, "orders swept", "backlog_err", backlog, "undone", r.Undone, "invoiced", r.Invoiced, "cancelled", r.Cancelled, "err", err, metrics.Flush(ctx))
		return err
	})
}
