// Command sweepOrders is the scheduled Lambda that undoes the large orders left pending
// by a request that died between its steps (docs/orders.md) and issues the VAT invoices
// such a request left unissued (docs/invoices.md): the cloud's counterpart of
// the local edge's sweep and of the recover command. An EventBridge rule runs it every
// minute (infra/lib/order-sweeper.ts).
package main

import (
	"context"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/tradeshop/functions/internal/lambdarun"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/orders"
)

func main() {
	log, st, _, shop := lambdarun.StartJob(os.Getenv)
	lambda.Start(func(ctx context.Context) error {
		ctx = metrics.Job(ctx, "sweepOrders", metrics.RunID(ctx))
		r, err := orders.Recover(ctx, st, shop, mail.Notices{Shop: shop}, time.Now(), orders.DefaultStaleAfter, orders.InvoiceAfter)
		// The backlogs after the sweep: the alarms on the oldest pending order and the
		// oldest order waiting for its invoice read them.
		backlog := st.RecordOrderBacklogs(ctx, time.Now())
		log.InfoContext(ctx, "orders swept", "backlog_err", backlog, "undone", r.Undone, "invoiced", r.Invoiced, "cancelled", r.Cancelled, "err", err, metrics.Flush(ctx))
		return err
	})
}
