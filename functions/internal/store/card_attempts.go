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
	card := cardItem{Attempt: seen + 1, Session: session, State: orders.CardPending, At: at.UnixMilli()}
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
