package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Stripe's webhook events (docs/payments.md "Idempotency and order of events") are
// recorded once each by id (pk STRIPEEVENT#{id}, sk STRIPEEVENT) before they are applied,
// and marked applied after. An event found recorded but not applied (the edge stopped in
// between) is applied again: applying is idempotent. The record is kept stripeEventKeep
// (TTL), longer than Stripe retries an event (three days).
const stripeEventKeep = 90 * 24 * time.Hour

// stripeEventItem is a webhook event as recorded.
type stripeEventItem struct {
	PK         string `dynamodbav:"pk"`
	SK         string `dynamodbav:"sk"`
	Type       string `dynamodbav:"type"`
	ReceivedAt int64  `dynamodbav:"received_at"`          // Unix ms
	AppliedAt  int64  `dynamodbav:"applied_at,omitempty"` // Unix ms, 0: not applied yet
	TTL        int64  `dynamodbav:"ttl"`                  // Unix seconds
}

// RecordStripeEvent records event id of type typ, received at, unless it is recorded
// already. applied says it was recorded before and marked applied: its effect is in the
// table, and the delivery changes nothing. An event recorded before but not applied
// answers applied false, as a new one does: the caller applies it (again).
func (s *Store) RecordStripeEvent(ctx context.Context, id, typ string, at time.Time) (applied bool, err error) {
	item, err := attributevalue.MarshalMap(stripeEventItem{PK: prefixStripeEvent + id, SK: skStripeEvent, Type: typ,
		ReceivedAt: at.UnixMilli(), TTL: at.Add(stripeEventKeep).Unix()})
	if err != nil {
		return false, fmt.Errorf("stripe event %s: %w", id, err)
	}
	err = s.putIf(ctx, item, notThere)
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		var was stripeEventItem
		if err := attributevalue.UnmarshalMap(failed.Item, &was); err != nil {
			return false, fmt.Errorf("stripe event %s as recorded: %w", id, err)
		}
		return was.AppliedAt != 0, nil
	}
	if err != nil {
		return false, fmt.Errorf("record stripe event %s: %w", id, err)
	}
	return false, nil
}

// MarkStripeEventApplied marks event id applied at (the first mark stays).
func (s *Store) MarkStripeEventApplied(ctx context.Context, id string, at time.Time) error {
	applied := expression.Name("applied_at")
	expr, err := expression.NewBuilder().WithUpdate(expression.Set(applied, expression.IfNotExists(applied, expression.Value(at.UnixMilli())))).
		WithCondition(expression.AttributeExists(expression.Name("pk"))).Build()
	if err != nil {
		return fmt.Errorf("build the mark of stripe event %s: %w", id, err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(prefixStripeEvent+id, skStripeEvent),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(),
		ExpressionAttributeValues: expr.Values()})
	if err != nil {
		return fmt.Errorf("mark stripe event %s applied: %w", id, err)
	}
	return nil
}

// StripeEventApplied says whether event id is recorded (found) and marked applied.
func (s *Store) StripeEventApplied(ctx context.Context, id string) (found, applied bool, err error) {
	it, err := getItem[stripeEventItem](ctx, s, prefixStripeEvent+id, skStripeEvent)
	if errors.Is(err, ErrNotFound) {
		return false, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("stripe event %s: %w", id, err)
	}
	return true, it.AppliedAt != 0, nil
}
