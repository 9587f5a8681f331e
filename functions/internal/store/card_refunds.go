package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/payments"
)

// Refunds to a card (issue 36, docs/payments.md "Refunds") are refund items as any
// refund (pk USER#{uid}, sk REFUND#{id}), written with their allocation on their source
// before Stripe is asked, so a retry is the same conditional Put. Until Stripe has
// answered with its re_ id, a marker (pk CARDREFUNDING, sk the refund's id) says so:
// the sweep finds the refunds a crash left unasked by it. The status moves only
// forward, pending to succeeded or failed, each on condition it is still pending.

// pkCardRefunding is the partition of the refunds to a card Stripe has not answered yet.
const pkCardRefunding = "CARDREFUNDING"

// ErrRefundExists is a refund whose id is taken: the same refund written before.
var ErrRefundExists = errors.New("the refund is recorded already")

// cardRefundingItem marks a refund to a card not yet answered by Stripe.
type cardRefundingItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	UID       string `dynamodbav:"uid"`
	CreatedAt int64  `dynamodbav:"createdAt"`
}

// CardRefundRef names a refund to a card the sweep should ask Stripe for again.
type CardRefundRef struct {
	UID, ID string
	At      time.Time
}

// Refund reads uid's refund id; ErrNotFound when there is none.
func (s *Store) Refund(ctx context.Context, uid, id string) (payments.Refund, error) {
	it, err := getItem[refundItem](ctx, s, prefixUser+uid, prefixRefund+id)
	if err != nil {
		return payments.Refund{}, fmt.Errorf("refund %s: %w", id, err)
	}
	return it.toRefund(), nil
}

// WriteCardRefund writes w in one transaction as WriteRefund does (the refund, its
// allocation on its source, the audit entry) and the refund's CARDREFUNDING marker.
// ErrRefundExists when the refund is there already (a retry: nothing written);
// payments.ErrPaymentMoved when the source no longer holds the amount; payments.ErrBusy
// when another transaction held an item.
func (s *Store) WriteCardRefund(ctx context.Context, w payments.RefundWrite) error {
	r := w.Refund
	t, err := s.refundTxn(w)
	if err != nil {
		return err
	}
	if err := t.put(role{}, s.table, cardRefundingItem{PK: pkCardRefunding, SK: r.ID, UID: r.UID, CreatedAt: r.RecordedAt.UnixMilli()}, notThere); err != nil {
		return fmt.Errorf("build the card refund %s: %w", r.ID, err)
	}
	_, err = s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
	if err == nil {
		return nil
	}
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) {
		found := ""
		for i, reason := range cancelled.CancellationReasons {
			if i < len(t.roles) && aws.ToString(reason.Code) == "ConditionalCheckFailed" && found != roleRefund {
				found = t.roles[i].kind
				if found == "" {
					found = roleRefund // the marker: the same refund's
				}
			}
		}
		switch found {
		case roleRefund:
			return ErrRefundExists
		case rolePayment:
			return payments.ErrPaymentMoved
		}
	}
	if isTxnConflict(err) {
		return payments.ErrBusy
	}
	return fmt.Errorf("card refund %s from %s: %w", r.ID, w.Source.ID, err)
}

// SetCardRefundStripe stores Stripe's id (re_…) of uid's refund id, once (on condition
// it has none), and takes its marker away. Storing it again is no error.
func (s *Store) SetCardRefundStripe(ctx context.Context, uid, id, stripeRefund string) error {
	t := &txn{}
	cond := expression.AttributeExists(expression.Name("pk")).And(expression.AttributeNotExists(expression.Name("stripeRefund")))
	errs := []error{
		t.update(role{}, key(prefixUser+uid, prefixRefund+id), s.table, expression.Set(expression.Name("stripeRefund"), expression.Value(stripeRefund)), &cond),
	}
	t.add(role{}, types.TransactWriteItem{Delete: &types.Delete{TableName: &s.table, Key: key(pkCardRefunding, id)}})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
	if err == nil || conditionFailed(err) {
		return nil
	}
	return fmt.Errorf("store stripe refund of %s: %w", id, err)
}

// CardRefundSettle is a refund to a card reaching its last status, as one transaction
// writes it.
type CardRefundSettle struct {
	UID, ID      string
	StripeRefund string // "" when not known
	Status       string // payments.RefundSucceeded or payments.RefundFailed
	Failure      string
	// Emails are written to the outbox with it (the buyer's notice, staff's).
	Emails []outbox.Message
	At     time.Time
	// Returned is the credit document that puts a failed refund's money back on
	// account (nil for none), with ReturnedAudit the account's audit entry of it.
	Returned      *payments.Payment
	ReturnedAudit orders.AuditEntry
}

// SettleCardRefund writes c in one transaction, on condition the refund is still
// pending: its status (and failure, and Stripe's id if it had none), the marker taken
// away, its emails and the credit document of a failed refund. It answers false, and
// writes nothing, when the refund is no longer pending (settled before: statuses never
// move back).
func (s *Store) SettleCardRefund(ctx context.Context, c CardRefundSettle) (bool, error) {
	t := &txn{}
	status := expression.Name("status")
	upd := expression.Set(status, expression.Value(c.Status))
	if c.Failure != "" {
		upd = upd.Set(expression.Name("failure"), expression.Value(c.Failure))
	}
	if c.StripeRefund != "" {
		upd = upd.Set(expression.Name("stripeRefund"), expression.IfNotExists(expression.Name("stripeRefund"), expression.Value(c.StripeRefund)))
	}
	cond := expression.AttributeExists(expression.Name("pk")).And(status.Equal(expression.Value(payments.RefundPending)))
	errs := []error{t.update(role{kind: roleRefund}, key(prefixUser+c.UID, prefixRefund+c.ID), s.table, upd, &cond)}
	t.add(role{}, types.TransactWriteItem{Delete: &types.Delete{TableName: &s.table, Key: key(pkCardRefunding, c.ID)}})
	for _, m := range c.Emails {
		errs = append(errs, s.putOutbox(t, m, c.At))
	}
	if c.Returned != nil {
		errs = append(errs, t.put(role{}, s.table, paymentToItem(*c.Returned), notThere), s.putAudit(t, AuditAccount+c.UID, c.ReturnedAudit))
	}
	if err := errors.Join(errs...); err != nil {
		return false, fmt.Errorf("build the settling of %s: %w", c.ID, err)
	}
	_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
	switch {
	case err == nil:
		return true, nil
	case conditionFailed(err):
		return false, nil
	case isTxnConflict(err):
		return false, payments.ErrBusy
	}
	return false, fmt.Errorf("settle card refund %s: %w", c.ID, err)
}

// conditionFailed says err is a write (or a transaction) refused by a condition.
func conditionFailed(err error) bool {
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return true
	}
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) {
		for _, r := range cancelled.CancellationReasons {
			if aws.ToString(r.Code) == "ConditionalCheckFailed" {
				return true
			}
		}
	}
	return false
}

// CardRefundsUnanswered answers the refunds to a card recorded before before that
// Stripe has not answered yet (their markers).
func (s *Store) CardRefundsUnanswered(ctx context.Context, before time.Time) ([]CardRefundRef, error) {
	items, err := partition[cardRefundingItem](ctx, s, pkCardRefunding)
	if err != nil {
		return nil, fmt.Errorf("card refunds unanswered: %w", err)
	}
	var out []CardRefundRef
	for _, it := range items {
		if it.CreatedAt < before.UnixMilli() {
			out = append(out, CardRefundRef{UID: it.UID, ID: it.SK, At: time.UnixMilli(it.CreatedAt).UTC()})
		}
	}
	return out, nil
}

// ForgetCardRefunding takes away the marker of refund id (answered by Stripe already).
func (s *Store) ForgetCardRefunding(ctx context.Context, id string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(pkCardRefunding, id)})
	if err != nil {
		return fmt.Errorf("forget card refund marker %s: %w", id, err)
	}
	return nil
}
