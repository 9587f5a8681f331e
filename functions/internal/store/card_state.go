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
)

// An order's card payment attempt (docs/payments.md) is the map attribute card of its
// item: {attempt, session, state, failure, at}. A new attempt is written when the buyer
// is sent to pay; its outcome by the Stripe webhook, on condition the attempt is still the
// one the event names and the order is not paid. Neither moves the order's version, which
// is staff's.

// cardItem is an order's card attempt as stored.
type cardItem struct {
	Attempt int    `dynamodbav:"attempt"`
	Session string `dynamodbav:"session"`
	State   string `dynamodbav:"state"`
	Failure string `dynamodbav:"failure"`
	At      int64  `dynamodbav:"at"` // Unix ms
}

func cardToItem(c orders.CardState) cardItem {
	return cardItem{Attempt: c.Attempt, Session: c.Session, State: c.State, Failure: c.Failure, At: msOrZero(c.At)}
}

func (it cardItem) toCardState() *orders.CardState {
	return &orders.CardState{Attempt: it.Attempt, Session: it.Session, State: it.State, Failure: it.Failure, At: timeOfMs(it.At)}
}

// ErrCardAttemptMoved refuses a new card attempt: since the order was read, another
// attempt started, the order was paid, or it is being cancelled. The caller reads the
// order again.
var ErrCardAttemptMoved = errors.New("the order's card payment moved")

// StartCardAttempt sets uid's order orderID's card attribute to attempt seen+1 through
// Checkout Session session, pending, at at: on condition the attempt is still seen (no
// card attribute when seen is 0), the order is not paid and not being cancelled. It does
// not move the order's version, which is staff's. ErrCardAttemptMoved when a condition
// fails.
func (s *Store) StartCardAttempt(ctx context.Context, uid, orderID string, seen int, session string, at time.Time) error {
	card := cardToItem(orders.CardState{Attempt: seen + 1, Session: session, State: orders.CardPending, At: at})
	status := expression.Name("status")
	cond := expression.AttributeExists(expression.Name("pk")).
		And(expression.AttributeNotExists(expression.Name("paidAt"))).
		And(status.NotEqual(expression.Value(orders.StatusCancelling))).
		And(status.NotEqual(expression.Value(orders.StatusCancelled)))
	if seen == 0 {
		cond = cond.And(expression.AttributeNotExists(expression.Name("card")))
	} else {
		cond = cond.And(expression.Name("card.attempt").Equal(expression.Value(seen)))
	}
	expr, err := expression.NewBuilder().WithUpdate(expression.Set(expression.Name("card"), expression.Value(card))).
		WithCondition(cond).Build()
	if err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: orderKey(uid, orderID),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(),
		ExpressionAttributeValues: expr.Values()})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return ErrCardAttemptMoved
	}
	if err != nil {
		return fmt.Errorf("start card attempt %d of %s: %w", seen+1, orderID, err)
	}
	return nil
}

// ErrCardStale refuses a card outcome of an attempt that is no longer the order's latest,
// or of an order paid already: the event that carried it is stale, and changes nothing.
var ErrCardStale = errors.New("the card attempt is stale")

// SetCardOutcome sets the outcome of attempt of uid's order orderID: state (an
// orders.Card* state), failure (the decline's message, for CardFailed) and at. It is
// written on condition card.attempt is still attempt and the order is not paid;
// ErrCardStale otherwise (an older attempt's event, or a failure after the payment).
func (s *Store) SetCardOutcome(ctx context.Context, uid, orderID string, attempt int, state, failure string, at time.Time) error {
	upd := expression.Set(expression.Name("card.state"), expression.Value(state)).
		Set(expression.Name("card.failure"), expression.Value(failure)).
		Set(expression.Name("card.at"), expression.Value(at.UnixMilli()))
	cond := expression.Name("card.attempt").Equal(expression.Value(attempt)).
		And(expression.AttributeNotExists(expression.Name("paidAt")))
	expr, err := expression.NewBuilder().WithUpdate(upd).WithCondition(cond).Build()
	if err != nil {
		return fmt.Errorf("build the card outcome of %s: %w", orderID, err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: orderKey(uid, orderID),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(),
		ExpressionAttributeValues: expr.Values()})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return ErrCardStale
	}
	if err != nil {
		return fmt.Errorf("card outcome of %s: %w", orderID, err)
	}
	return nil
}
