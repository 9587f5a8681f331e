// Command recover undoes the large orders left pending by a request that died between
// its steps (a crash, a timeout): their stock, coupon use, idempotency key and basket
// lock are given back (docs/orders.md); and it issues the VAT invoices such a request
// left unissued (docs/invoices.md). It reads the same environment as the functions
// (TABLE_NAME, DYNAMODB_ENDPOINT, AWS_REGION, STORE_TIMEOUT_MS) and, as every batch tool,
// sends a call the store did not answer in time again for up to STORE_BATCH_BUDGET_MS
// (docs/local-store.md "Deadlines"). The local edge runs the same sweep every
// 30 seconds; this is for release engineers and the fault tests.
//
//	recover [-stale 2m] [-invoice-after 30s]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/receiving"
	"github.com/tradeshop/functions/internal/store"
)

func main() {
	stale := flag.Duration("stale", orders.DefaultStaleAfter, "undo orders pending for longer than this (0: every pending order; only when no order is being placed)")
	invoiceAfter := flag.Duration("invoice-after", orders.InvoiceAfter, "issue the missing invoices of orders placed longer ago than this, and finish the cancellations begun longer ago than this (0: every one)")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := store.Open(ctx, store.BatchConfigFromEnv(os.Getenv, func(r store.Retry) { fmt.Printf("recover: %s\n", r) }))
	if err != nil {
		fmt.Fprintln(os.Stderr, "recover:", err)
		os.Exit(1)
	}
	shop, err := config.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, "recover:", err)
		os.Exit(1)
	}
	r, err := orders.Recover(ctx, st, shop, mail.Notices{Shop: shop}, time.Now(), *stale, *invoiceAfter)
	fmt.Printf("recover: %d pending order(s) undone, %d missing invoice(s) issued, %d cancellation(s) finished\n", r.Undone, r.Invoiced, r.Cancelled)
	// Deliveries whose allocation a crash left part-way, begun longer ago than -invoice-after.
	received, rerr := receiving.Service{Store: st, Shop: shop, Now: time.Now, Notify: mail.Notices{Shop: shop}, Placed: mail.Notices{Shop: shop}}.Sweep(ctx, *invoiceAfter)
	fmt.Printf("recover: %d delivery allocation(s) finished\n", received)
	err = errors.Join(err, rerr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "recover:", err)
		os.Exit(1)
	}
}
