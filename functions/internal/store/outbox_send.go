package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/outbox"
)

// The sender's side of the outbox (docs/back-office.md "Emails"). An order's event writes
// its emails as pending records (pk OUTBOX, putOutbox). A sender lists the due ones
// (DueOutbox), claims one at a time with a conditional update that moves it to sending
// under a lease (ClaimOutbox: one sender wins each claim), sends it, and then either
// marks it sent (MarkOutboxSent: one transaction deletes OUTBOX/id and puts SENT/id) or
// releases it with its next attempt's time (ReleaseOutbox). A sender that dies between
// claim and mark leaves the claim to expire: the message is due again after its lease.
//
// The SENT record is kept sentKeep (DynamoDB's TTL then deletes it). While it lives, the
// same message id cannot be written to the outbox again (putOutbox checks it in the
// event's own transaction), so a retried event never queues a second copy of an email
// already sent.

// sentKeep is how long a sent message's SENT record is kept.
const sentKeep = 90 * 24 * time.Hour

// sentItem records a message sent (pk SENT, sk its id): its envelope, not its bodies.
type sentItem struct {
	PK       string `dynamodbav:"pk"`
	SK       string `dynamodbav:"sk"`
	To       string `dynamodbav:"to"`
	Subject  string `dynamodbav:"subject"`
	SentAt   int64  `dynamodbav:"sentAt"` // Unix ms
	Attempts int    `dynamodbav:"attempts"`
	TTL      int64  `dynamodbav:"ttl"` // Unix s
}

// ErrQueued is Enqueue's answer for a message id that is queued already, or was sent
// within sentKeep.
var ErrQueued = errors.New("the message is queued already, or was sent")

// conditionCheck adds a ConditionCheck of the item at k to t.
func (t *txn) conditionCheck(r role, table string, k map[string]types.AttributeValue, cond expression.ConditionBuilder) error {
	expr, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		return err
	}
	t.add(r, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: k,
		ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()}})
	return nil
}

// Enqueue writes message m to the outbox on its own, outside any event's transaction:
// what tests and tools use to queue an email. The events write theirs with the event.
// A message id queued already, or sent within sentKeep, is ErrQueued.
func (s *Store) Enqueue(ctx context.Context, m outbox.Message, now time.Time) error {
	t := &txn{}
	if err := s.putOutbox(t, m, now); err != nil {
		return fmt.Errorf("enqueue %s: %w", m.ID, err)
	}
	_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) && !isTxnConflict(err) {
		return fmt.Errorf("enqueue %s: %w", m.ID, ErrQueued)
	}
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", m.ID, err)
	}
	return nil
}

// dueCondition is a record a sender may claim at now: pending and due, or sending under
// a lease that has ended.
func dueCondition(now time.Time) expression.ConditionBuilder {
	ms := expression.Value(now.UnixMilli())
	state := expression.Name("state")
	return state.Equal(expression.Value(outboxPending)).And(expression.Name("nextAt").LessThanEqual(ms)).
		Or(state.Equal(expression.Value(outboxSending)).And(expression.Name("leaseUntil").LessThanEqual(ms)))
}

// DueOutbox answers the ids of up to limit messages a sender may claim at now, in id
// order.
func (s *Store) DueOutbox(ctx context.Context, now time.Time, limit int) ([]string, error) {
	expr, err := expression.NewBuilder().
		WithKeyCondition(expression.Key("pk").Equal(expression.Value(pkOutbox))).
		WithFilter(dueCondition(now)).
		WithProjection(expression.NamesList(expression.Name("sk"))).Build()
	if err != nil {
		return nil, err
	}
	p := dynamodb.NewQueryPaginator(s.db, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		FilterExpression: expr.Filter(), ProjectionExpression: expr.Projection(), ExpressionAttributeNames: expr.Names(),
		ExpressionAttributeValues: expr.Values(), ConsistentRead: aws.Bool(true)})
	var ids []string
	for p.HasMorePages() && len(ids) < limit {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("due emails: %w", err)
		}
		for _, it := range page.Items {
			if len(ids) < limit {
				ids = append(ids, sortKeyOf(it))
			}
		}
	}
	return ids, nil
}

// ClaimOutbox claims message id for a send at now, if it is still due: it moves to
// sending until now+lease, its attempts counted. ok is false when another sender
// claimed it first, or it was sent or released meanwhile.
func (s *Store) ClaimOutbox(ctx context.Context, id string, now time.Time, lease time.Duration) (c outbox.Claim, ok bool, err error) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	upd := expression.Set(expression.Name("state"), expression.Value(outboxSending)).
		Set(expression.Name("leaseUntil"), expression.Value(now.Add(lease).UnixMilli())).
		Set(expression.Name("claim"), expression.Value(token)).
		Set(expression.Name("attempts"), expression.Name("attempts").Plus(expression.Value(1)))
	expr, err := expression.NewBuilder().WithUpdate(upd).
		WithCondition(expression.AttributeExists(expression.Name("pk")).And(dueCondition(now))).Build()
	if err != nil {
		return c, false, err
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(pkOutbox, id),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(),
		ExpressionAttributeValues: expr.Values(), ReturnValues: types.ReturnValueAllNew})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("claim email %s: %w", id, err)
	}
	var it outboxItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return c, false, fmt.Errorf("claim email %s: %w", id, err)
	}
	return outbox.Claim{Message: outbox.Message{ID: it.SK, To: it.To, ReplyTo: it.ReplyTo, Subject: it.Subject, Text: it.Text, HTML: it.HTML},
		Attempts: it.Attempts, Token: it.Claim}, true, nil
}

// MarkOutboxSent records claimed message c as sent at now: one transaction deletes its
// outbox record and writes its SENT record (kept sentKeep). A message marked sent
// already (by another sender that claimed it after this claim's lease ended) is no error.
func (s *Store) MarkOutboxSent(ctx context.Context, c outbox.Claim, now time.Time) error {
	t := &txn{}
	errs := []error{
		t.del(role{}, s.table, key(pkOutbox, c.ID), expression.AttributeExists(expression.Name("pk"))),
		t.put(role{}, s.table, sentItem{PK: pkSent, SK: c.ID, To: c.To, Subject: c.Subject, SentAt: now.UnixMilli(),
			Attempts: c.Attempts, TTL: now.Add(sentKeep).Unix()}, notThere),
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("mark email %s sent: %w", c.ID, err)
	}
	_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) && !isTxnConflict(err) {
		return s.sentAlready(ctx, c.ID)
	}
	if err != nil {
		return fmt.Errorf("mark email %s sent: %w", c.ID, err)
	}
	return nil
}

// sentAlready answers nil when message id has its SENT record, else an error.
func (s *Store) sentAlready(ctx context.Context, id string) error {
	_, err := getItem[sentItem](ctx, s, pkSent, id)
	if err != nil {
		return fmt.Errorf("mark email %s sent: neither queued nor sent: %w", id, err)
	}
	return nil
}

// ReleaseOutbox gives claimed message c back after a failed send: pending again from
// next, or failed (no longer due) when park, with reason. A claim that is no longer
// this one's (its lease ended and another sender took the message) is left alone.
func (s *Store) ReleaseOutbox(ctx context.Context, c outbox.Claim, next time.Time, park bool, reason string) error {
	state := outboxPending
	if park {
		state = outboxFailed
	}
	if len(reason) > 500 {
		reason = reason[:500]
	}
	upd := expression.Set(expression.Name("state"), expression.Value(state)).
		Set(expression.Name("nextAt"), expression.Value(next.UnixMilli())).
		Set(expression.Name("lastError"), expression.Value(reason)).
		Remove(expression.Name("leaseUntil")).Remove(expression.Name("claim"))
	cond := expression.Name("state").Equal(expression.Value(outboxSending)).And(expression.Name("claim").Equal(expression.Value(c.Token)))
	expr, err := expression.NewBuilder().WithUpdate(upd).WithCondition(cond).Build()
	if err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(pkOutbox, c.ID),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(),
		ExpressionAttributeValues: expr.Values()})
	var failed *types.ConditionalCheckFailedException
	if err != nil && !errors.As(err, &failed) {
		return fmt.Errorf("release email %s: %w", c.ID, err)
	}
	return nil
}

// OutboxStatus answers where message id is: in the outbox (pending, sending or failed)
// or sent; ErrNotFound when it is neither (never queued, or sent more than sentKeep ago).
func (s *Store) OutboxStatus(ctx context.Context, id string) (outbox.Status, error) {
	it, err := getItem[outboxItem](ctx, s, pkOutbox, id)
	if err == nil {
		return outbox.Status{ID: id, State: it.State, Attempts: it.Attempts, NextAt: time.UnixMilli(it.NextAt).UTC(), LastError: it.LastError}, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return outbox.Status{}, fmt.Errorf("email %s: %w", id, err)
	}
	sent, err := getItem[sentItem](ctx, s, pkSent, id)
	if err != nil {
		return outbox.Status{}, fmt.Errorf("email %s: %w", id, err)
	}
	return outbox.Status{ID: id, State: outbox.StateSent, Attempts: sent.Attempts, SentAt: time.UnixMilli(sent.SentAt).UTC()}, nil
}
