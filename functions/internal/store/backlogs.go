package store

import (
	"context"
	"fmt"
	"time"

	"github.com/tradeshop/functions/internal/orders"
)

// MaxBacklogRead bounds each backlog Backlogs reads: past that many items a backlog says
// More, and its count is this many. A healthy shop has a handful; a thousand means the
// sender or the sweep stopped long ago, and the exact number no longer matters.
const MaxBacklogRead = 1000

// Backlog is the work waiting in one partition: how many items (at most MaxBacklogRead),
// whether there are more, and the oldest one's time (zero when none wait).
type Backlog struct {
	Count  int
	More   bool
	Oldest time.Time
}

// OldestAge is how long the oldest item has waited at now: 0 when none wait.
func (b Backlog) OldestAge(now time.Time) time.Duration {
	if b.Oldest.IsZero() {
		return 0
	}
	return max(now.Sub(b.Oldest), 0)
}

// Backlogs is the shop's waiting work at one moment: the email outbox (waiting to be
// sent, or being sent; and failed, parked after its last attempt), the large orders
// pending (their request died or is still reserving), and the orders placed that still
// wait for their invoice. The Health page shows it and the jobs emit it as metrics.
type Backlogs struct {
	// OutboxWaiting is the emails pending or being sent; its Oldest the oldest one's
	// creation. OutboxFailed is the emails parked as failed (Oldest always zero).
	OutboxWaiting Backlog
	OutboxFailed  Backlog
	// OrdersPending is the PENDING partition; OrdersToInvoice the INVOICING partition.
	OrdersPending   Backlog
	OrdersToInvoice Backlog
}

// backlogItem is what Backlogs reads of an outbox, pending or to-invoice item.
type backlogItem struct {
	State     string `dynamodbav:"state"`
	CreatedAt int64  `dynamodbav:"createdAt"` // Unix ms
}

// Backlogs reads the outbox, the pending orders and the orders to invoice (each at most
// MaxBacklogRead items, only their state and creation time): three queries, of OUTBOX,
// PENDING and INVOICING. now is the moment it describes (for the ages, OldestAge).
// A job that needs only its own part, with only its own table rights, reads
// OutboxBacklog (the email sender) or OrderBacklogs (the order sweep).
func (s *Store) Backlogs(ctx context.Context, now time.Time) (Backlogs, error) {
	var b Backlogs
	var err error
	if b.OutboxWaiting, b.OutboxFailed, err = s.OutboxBacklog(ctx); err != nil {
		return b, err
	}
	if b.OrdersPending, b.OrdersToInvoice, err = s.OrderBacklogs(ctx); err != nil {
		return b, err
	}
	return b, nil
}

// OutboxBacklog reads the email outbox (one query of OUTBOX, at most MaxBacklogRead
// items): the emails waiting (pending, or being sent) with the oldest one's creation, and
// those failed. A full read sets More on both.
func (s *Store) OutboxBacklog(ctx context.Context) (waiting, failed Backlog, err error) {
	mail, more, err := partitionAtMost[backlogItem](ctx, s, pkOutbox, MaxBacklogRead, []string{"state", "createdAt"})
	if err != nil {
		return waiting, failed, fmt.Errorf("outbox backlog: %w", err)
	}
	for _, it := range mail {
		if it.State == outboxFailed {
			failed.add(it)
		} else {
			waiting.add(it)
		}
	}
	waiting.More, failed.More = more, more
	failed.Oldest = time.Time{} // a parked email is not waiting: its age means nothing
	return waiting, failed, nil
}

// OrderBacklogs reads the large orders pending (PENDING) and the orders waiting for their
// invoice (INVOICING): two queries, each of at most MaxBacklogRead items.
func (s *Store) OrderBacklogs(ctx context.Context) (pending, toInvoice Backlog, err error) {
	for _, p := range []struct {
		pk   string
		into *Backlog
	}{{pkPending, &pending}, {pkToInvoice, &toInvoice}} {
		items, more, err := partitionAtMost[backlogItem](ctx, s, p.pk, MaxBacklogRead, []string{"createdAt"})
		if err != nil {
			return pending, toInvoice, fmt.Errorf("%s backlog: %w", p.pk, err)
		}
		for _, it := range items {
			p.into.add(it)
		}
		p.into.More = more
	}
	return pending, toInvoice, nil
}

// add counts it in b, keeping the oldest creation time.
func (b *Backlog) add(it backlogItem) {
	b.Count++
	at := time.UnixMilli(it.CreatedAt).UTC()
	if b.Oldest.IsZero() || at.Before(b.Oldest) {
		b.Oldest = at
	}
}

// LastImport answers the newest entry of the catalogue imports' audit trail
// (AuditImport), or ErrNotFound when there has been none.
func (s *Store) LastImport(ctx context.Context) (orders.AuditEntry, error) {
	list, err := s.auditNewest(ctx, AuditImport, 1)
	if err != nil {
		return orders.AuditEntry{}, err
	}
	if len(list) == 0 {
		return orders.AuditEntry{}, ErrNotFound
	}
	return list[0], nil
}
