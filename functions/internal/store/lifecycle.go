package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
)

// pkCancelling is the partition of the orders whose cancellation has begun and not
// finished (sk the order number): the sweep finishes them after a crash.
const pkCancelling = "CANCELLING"

// attrOwed is what an account owes on its unpaid orders paid on account (pence).
const attrOwed = "owed"

type cancellingItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	UID       string `dynamodbav:"uid"`
	CreatedAt int64  `dynamodbav:"createdAt"`
}

func orderKey(uid, id string) map[string]types.AttributeValue {
	return key(prefixUser+uid, prefixOrder+id)
}

// versionCond is the condition that the order is still o: its version and its status.
func versionCond(o orders.Order) expression.ConditionBuilder {
	v := expression.Name("version")
	cond := v.Equal(expression.Value(o.Version))
	if o.Version == 0 {
		cond = expression.AttributeNotExists(v).Or(cond)
	}
	return cond.And(expression.Name("status").Equal(expression.Value(o.Status)))
}

// lifecycleUpdate sets every lifecycle field of the order to o's.
func lifecycleUpdate(o orders.Order) expression.UpdateBuilder {
	u := expression.Set(expression.Name("status"), expression.Value(o.Status)).
		Set(expression.Name("version"), expression.Value(o.Version))
	for name, t := range map[string]time.Time{"paidAt": o.PaidAt, "confirmedAt": o.ConfirmedAt, "dispatchedAt": o.DispatchedAt,
		"completedAt": o.CompletedAt, "cancelledAt": o.CancelledAt} {
		if t.IsZero() {
			u = u.Remove(expression.Name(name))
		} else {
			u = u.Set(expression.Name(name), expression.Value(t.UnixMilli()))
		}
	}
	if o.Dispatch != nil {
		u = u.Set(expression.Name("dispatch"), expression.Value(dispatchItem{Carrier: o.Dispatch.Carrier, Tracking: o.Dispatch.Tracking}))
	} else {
		u = u.Remove(expression.Name("dispatch"))
	}
	if o.CancelReason != "" {
		u = u.Set(expression.Name("cancelReason"), expression.Value(o.CancelReason))
	} else {
		u = u.Remove(expression.Name("cancelReason"))
	}
	return u
}

// owe adds the change of uid's owed balance by delta to t.
func (s *Store) owe(t *txn, uid string, delta int64) error {
	return t.update(role{}, profileKey(uid), s.table, expression.Add(expression.Name(attrOwed), expression.Value(delta)),
		ptr(expression.AttributeExists(expression.Name("pk"))))
}

// ApplyChange writes a staff action on an order in one transaction: the order (on
// condition it is still c.Before), the account's owed balance, the audit entry, the
// emails and, for a cancellation, its CANCELLING marker. A lost race is a
// *orders.Refused of kind busy.
func (s *Store) ApplyChange(ctx context.Context, c orders.Change) error {
	o := c.After
	t := &txn{}
	errs := []error{
		t.update(role{}, orderKey(o.UID, o.ID), s.table, lifecycleUpdate(o), ptr(versionCond(c.Before))),
		s.putAudit(t, AuditOrder+o.ID, c.Audit),
	}
	if c.OwedDelta != 0 {
		errs = append(errs, s.owe(t, o.UID, c.OwedDelta))
	}
	if o.Status == orders.StatusCancelling {
		errs = append(errs, t.put(role{}, s.table, cancellingItem{PK: pkCancelling, SK: o.ID, UID: o.UID, CreatedAt: o.CancelledAt.UnixMilli()}, notThere))
	}
	for _, m := range c.Emails {
		errs = append(errs, s.putOutbox(t, m, c.Audit.At))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("build change of %s: %w", o.ID, err)
	}
	return s.run(ctx, t, "")
}

// chunks splits lines into the steps a cancellation gives them back in; a line whose
// units all went back already (a part credit's) is left out of its step, which keeps its
// place.
func chunks(lines []orders.Line) [][]orders.Line {
	var out [][]orders.Line
	for i := 0; i < len(lines); i += orders.ChunkLines {
		var step []orders.Line
		for _, l := range lines[i:min(i+orders.ChunkLines, len(lines))] {
			if l.Quantity > 0 {
				step = append(step, l)
			}
		}
		out = append(out, step)
	}
	return out
}

// FinishCancel gives back what a cancelling order holds and sets it cancelled (see
// orders.LifecycleStore). Each step is one transaction recorded on the order, so a
// repeat after a crash at any point gives nothing back twice: the stock of each chunk
// of lines (the chunk's number added to the order's returned set on condition it is not
// there), then, on condition every chunk is returned, the credit note, the coupon's use,
// the credit, the emails, the marker's removal and the status cancelled (creditnote.go).
func (s *Store) FinishCancel(ctx context.Context, uid, id string, emails func(o orders.Order) []outbox.Message) (orders.Order, error) {
	it, err := getItem[orderItem](ctx, s, prefixUser+uid, prefixOrder+id)
	if err != nil {
		return orders.Order{}, fmt.Errorf("order %s: %w", id, err)
	}
	o := it.toOrder()
	if o.Status == orders.StatusCancelled {
		return o, s.dropCancelling(ctx, id)
	}
	if o.Status != orders.StatusCancelling {
		return orders.Order{}, fmt.Errorf("order %s is %s, not cancelling", id, o.Status)
	}
	status, returned := expression.Name("status"), expression.Name("returned")
	cancelling := status.Equal(expression.Value(orders.StatusCancelling))
	parts := chunks(orders.HeldStock(o))
	for i, lines := range parts {
		if slices.Contains(it.Returned, i) {
			continue
		}
		t := &txn{}
		errs := []error{
			s.stock(t, lines, 1),
			t.update(role{}, orderKey(uid, id), s.table,
				expression.Add(returned, expression.Value(&types.AttributeValueMemberNS{Value: []string{fmt.Sprint(i)}})),
				ptr(cancelling.And(expression.Not(expression.Contains(returned, i))))),
		}
		if err := errors.Join(errs...); err != nil {
			return orders.Order{}, err
		}
		if err := s.run(ctx, t, ""); err != nil {
			var refused *orders.Refused
			if !errors.As(err, &refused) {
				return orders.Order{}, fmt.Errorf("give back the stock of %s/%d: %w", id, i, err)
			}
			// Given back by another run meanwhile (or the order moved on): read again.
			return s.FinishCancel(ctx, uid, id, emails)
		}
	}
	return s.finishCancelled(ctx, o, len(parts), emails)
}

// dropCancelling deletes a cancelled order's marker left by a crash, if any.
func (s *Store) dropCancelling(ctx context.Context, id string) error {
	t := &txn{}
	t.add(role{}, types.TransactWriteItem{Delete: &types.Delete{TableName: &s.table, Key: key(pkCancelling, id)}})
	return s.run(ctx, t, "")
}

// Cancelling answers the orders whose cancellation began before before and has not
// finished.
func (s *Store) Cancelling(ctx context.Context, before time.Time) ([]orders.OrderRef, error) {
	items, err := partition[cancellingItem](ctx, s, pkCancelling)
	if err != nil {
		return nil, fmt.Errorf("cancelling orders: %w", err)
	}
	var out []orders.OrderRef
	for _, it := range items {
		if it.CreatedAt < before.UnixMilli() {
			out = append(out, orders.OrderRef{UID: it.UID, ID: it.SK})
		}
	}
	return out, nil
}
