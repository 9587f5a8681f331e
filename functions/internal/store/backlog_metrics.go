package store

import (
	"context"
	"time"

	"github.com/tradeshop/functions/internal/metrics"
)

// RecordOutboxBacklog reads the email outbox's backlog and records its gauges (OutboxWaiting,
// OutboxFailed, OutboxOldestAge) in ctx's scope, for the email sender's run line: the
// alarm on the oldest email's age reads them, and their absence says the sender stopped.
func (s *Store) RecordOutboxBacklog(ctx context.Context, now time.Time) error {
	waiting, failed, err := s.OutboxBacklog(ctx)
	if err != nil {
		return err
	}
	metrics.Add(ctx, metrics.OutboxWaiting, float64(waiting.Count))
	metrics.Add(ctx, metrics.OutboxFailed, float64(failed.Count))
	metrics.Add(ctx, metrics.OutboxOldestAge, waiting.OldestAge(now).Seconds())
	return nil
}

// RecordOrderBacklogs reads the pending orders and the orders waiting for their invoice and
// records their gauges (OrdersPending, OrdersPendingOldestAge, OrdersToInvoice,
// OrdersToInvoiceOldestAge) in ctx's scope, for the order sweep's run line.
func (s *Store) RecordOrderBacklogs(ctx context.Context, now time.Time) error {
	pending, toInvoice, err := s.OrderBacklogs(ctx)
	if err != nil {
		return err
	}
	metrics.Add(ctx, metrics.OrdersPending, float64(pending.Count))
	metrics.Add(ctx, metrics.OrdersPendingOldestAge, pending.OldestAge(now).Seconds())
	metrics.Add(ctx, metrics.OrdersToInvoice, float64(toInvoice.Count))
	metrics.Add(ctx, metrics.OrdersToInvoiceOldestAge, toInvoice.OldestAge(now).Seconds())
	return nil
}
