package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/shoperr"
)

// A credit hold lift (docs/back-office.md "Credit hold") is the map creditHoldLift on the
// account's profile item, written with its audit entry in one transaction. A new lift
// replaces the last; the trail keeps them all. It leaves updatedAt (the account's version,
// which the account form sends) alone: a lift does not make the form's edit stale.

// holdLiftItem is a lift as stored.
type holdLiftItem struct {
	Until   string `dynamodbav:"until"`
	Reason  string `dynamodbav:"reason"`
	At      int64  `dynamodbav:"at"`
	ByUID   string `dynamodbav:"byUid"`
	ByEmail string `dynamodbav:"byEmail"`
}

// profileHoldLift is the part of the profile item a lift is.
type profileHoldLift struct {
	Lift *holdLiftItem `dynamodbav:"creditHoldLift"`
}

var _ payments.HoldStore = (*Store)(nil)

// HoldLift reads account uid's lift of its credit hold, nil when there is none (or no
// account).
func (s *Store) HoldLift(ctx context.Context, uid string) (*payments.HoldLift, error) {
	it, err := getItem[profileHoldLift](ctx, s, prefixUser+uid, skProfile)
	if errors.Is(err, ErrNotFound) || (err == nil && it.Lift == nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("credit hold lift of %s: %w", uid, err)
	}
	l := it.Lift
	return &payments.HoldLift{Until: l.Until, Reason: l.Reason, At: time.UnixMilli(l.At).UTC(), By: orders.Staff{UID: l.ByUID, Email: l.ByEmail}}, nil
}

// LiftHold writes account uid's lift l and its audit entry in one transaction, on
// condition the account is there (ErrNotFound when it is not).
func (s *Store) LiftHold(ctx context.Context, uid string, l payments.HoldLift, audit orders.AuditEntry) error {
	item := holdLiftItem{Until: l.Until, Reason: l.Reason, At: l.At.UnixMilli(), ByUID: l.By.UID, ByEmail: l.By.Email}
	t := &txn{}
	errs := []error{
		t.update(role{}, profileKey(uid), s.table, expression.Set(expression.Name("creditHoldLift"), expression.Value(item)),
			ptr(expression.AttributeExists(expression.Name("pk")))),
		s.putAudit(t, AuditAccount+uid, audit),
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("build the credit hold lift of %s: %w", uid, err)
	}
	err := s.run(ctx, t, "")
	var refused *orders.Refused
	switch {
	case err == nil:
		return nil
	case errors.As(err, &refused) && refused.Kind == orders.RefusedBusy:
		return &shoperr.ConflictError{Msg: "Someone else was changing this account at the same moment: lift the hold again."}
	case errors.As(err, &refused):
		return fmt.Errorf("account %s: %w", uid, ErrNotFound)
	}
	return fmt.Errorf("lift the credit hold of %s: %w", uid, err)
}
