// Command statements queues each trade account's monthly statement email (docs/statements.md):
// every account with a balance gets its statement once per month, however often the
// run starts (the outbox record's id is the account's and the month's, put on
// condition). In the cloud it is the scheduled Lambda an EventBridge rule runs at 06:00
// UTC on the 1st of each month (infra/lib/statement-sender.ts) for the London month of
// the day; the local edge runs the same Send on the 1st; by hand:
//
//	statements -month 2026-12
//
// It reads the store's environment (TABLE_NAME, DYNAMODB_ENDPOINT, AWS_REGION,
// STORE_TIMEOUT_MS) and SITE_ORIGIN (where the site is served: the email links the
// buyer's dashboard there); by hand, as every batch tool, it sends a call the store did not
// answer in time again for up to STORE_BATCH_BUDGET_MS. The emails go out with the
// outbox's sender (sendEmails, or the local edge's).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/lambdarun"
	"github.com/tradeshop/functions/internal/metrics"
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
	lambda.Start(func(ctx context.Context) error {
		return sts.RunJob(ctx, log, metrics.RunID(ctx), statements.Month(time.Now()))
	})
}

// byHand is the command a release engineer runs.
func byHand() {
	month := flag.String("month", statements.Month(time.Now()), "the month whose statements to send, YYYY-MM (each account's once)")
	flag.Parse()
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
	r, err := statements.Service{Store: st, Shop: shop, Now: time.Now, SiteOrigin: os.Getenv("SITE_ORIGIN")}.Send(ctx, *month)
	fmt.Printf("statements: %s: %d account(s) read, %d statement(s) queued, %d queued before, %d with a balance but no email address, %d failed\n",
		r.Month, r.Accounts, r.Queued, r.Already, r.NoEmail, r.Failed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "statements:", err)
		os.Exit(1)
	}
}
