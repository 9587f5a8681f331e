// Command statements runs the daily account emails: each trade account's monthly
// statement (docs/statements.md) on the 1st of the London month, and every day the
// pre-order reminders (docs/forward-orders.md "Reminders"). Every account with a balance
// gets its statement once per month, and every buyer a reminder once per order-by date,
// however often the run starts (each outbox record's id is the account's and the
// month's, or the buyer's and the date's, put on condition). In the cloud it is the
// scheduled Lambda an EventBridge rule runs at 06:00 UTC every day
// (infra/lib/statement-sender.ts); the local edge runs the same Send on the 1st, and the
// reminders daily; by hand:
//
//	statements -month 2026-12
//	statements -reminders 2027-06-23    # the reminders due that London day, not the statements
//
// It reads the store's environment (TABLE_NAME, DYNAMODB_ENDPOINT, AWS_REGION,
// STORE_TIMEOUT_MS) and SITE_ORIGIN (where the site is served: the email links the
// buyer's dashboard there); by hand, as every batch tool, it sends a call the store did not
// answer in time again for up to STORE_BATCH_BUDGET_MS. The emails go out with the
// outbox's sender (sendEmails, or the local edge's).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/lambdarun"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/reminders"
	"github.com/tradeshop/functions/internal/statements"
	"github.com/tradeshop/functions/internal/store"
)

func main() {
	if os.Getenv("AWS_LAMBDA_FUNCTION_NAME") != "" {
		scheduled()
		return
	}
	byHand()
}

// scheduled is the Lambda: each run sends the statements of the London month it runs in.
func scheduled() {
	log, st, _, shop := lambdarun.StartJob(os.Getenv)
	sts := statements.Service{Store: st, Shop: shop, Now: time.Now, SiteOrigin: os.Getenv("SITE_ORIGIN")}
	rems := reminders.Service{Store: st, Notify: mail.Notices{Shop: shop, SiteURL: os.Getenv("SITE_ORIGIN")}, Now: time.Now}
	lambda.Start(func(ctx context.Context) error {
		now := time.Now()
		// The reminders first: they are due every day, the statements on the 1st only.
		err := rems.RunJob(ctx, log, metrics.RunID(ctx), catalogue.LondonDate(now))
		if statements.FirstOfMonth(now) {
			err = errors.Join(err, sts.RunJob(ctx, log, metrics.RunID(ctx), statements.Month(now)))
		}
		return err
	})
}

// byHand is the command a release engineer runs.
func byHand() {
	month := flag.String("month", statements.Month(time.Now()), "the month whose statements to send, YYYY-MM (each account's once)")
	remindDay := flag.String("reminders", "", "instead of the statements, queue the pre-order reminders due on this London day, YYYY-MM-DD (each buyer's once per order-by date)")
	flag.Parse()
	if *remindDay != "" {
		if _, err := time.Parse(time.DateOnly, *remindDay); err != nil {
			fmt.Fprintln(os.Stderr, "statements: -reminders must be a date such as 2027-06-23")
			os.Exit(2)
		}
	}
	if _, err := statements.ParseMonth(*month); err != nil {
		fmt.Fprintln(os.Stderr, "statements:", err)
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	st, err := store.Open(ctx, store.BatchConfigFromEnv(os.Getenv, func(r store.Retry) { fmt.Printf("statements: %s\n", r) }))
	if err != nil {
		fmt.Fprintln(os.Stderr, "statements:", err)
		os.Exit(1)
	}
	shop, err := config.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, "statements:", err)
		os.Exit(1)
	}
	if *remindDay != "" {
		rr, err := reminders.Service{Store: st, Notify: mail.Notices{Shop: shop, SiteURL: os.Getenv("SITE_ORIGIN")}, Now: time.Now}.Send(ctx, *remindDay)
		fmt.Printf("statements: reminders of %s: %d forward product(s) due, %d basket(s) holding one, %d reminder(s) queued, %d queued before, %d with no email address, %d failed\n",
			rr.Day, rr.Products, rr.Baskets, rr.Queued, rr.Already, rr.NoEmail, rr.Failed)
		if err != nil {
			fmt.Fprintln(os.Stderr, "statements:", err)
			os.Exit(1)
		}
		return
	}
	r, err := statements.Service{Store: st, Shop: shop, Now: time.Now, SiteOrigin: os.Getenv("SITE_ORIGIN")}.Send(ctx, *month)
	fmt.Printf("statements: %s: %d account(s) read, %d statement(s) queued, %d queued before, %d with a balance but no email address, %d failed\n",
		r.Month, r.Accounts, r.Queued, r.Already, r.NoEmail, r.Failed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "statements:", err)
		os.Exit(1)
	}
}
