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
)

// BasketLine is one line of a customer's basket: a quantity in units of one SKU.
type BasketLine struct {
	SKU       string
	Quantity  int
	AddedAt   time.Time // when the line was first added; later changes keep it
	UpdatedAt time.Time
}

type basketItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	SKU       string `dynamodbav:"sku"`
	Quantity  int    `dynamodbav:"quantity"`
	AddedAt   int64  `dynamodbav:"addedAt"`   // Unix milliseconds; absent on lines written before it was kept
	UpdatedAt int64  `dynamodbav:"updatedAt"` // Unix milliseconds
}

func (it basketItem) toLine() BasketLine {
	added := it.AddedAt
	if added == 0 {
		added = it.UpdatedAt
	}
	return BasketLine{SKU: it.SKU, Quantity: it.Quantity, AddedAt: time.UnixMilli(added).UTC(), UpdatedAt: time.UnixMilli(it.UpdatedAt).UTC()}
}

// touchLine is the update every basket write makes besides the quantity: the SKU, the
// time of this change, and the time the line was first added (set once, then kept).
func touchLine(u expression.UpdateBuilder, sku string, at time.Time) expression.UpdateBuilder {
	return u.Set(expression.Name("sku"), expression.Value(sku)).
		Set(expression.Name("updatedAt"), expression.Value(at.UnixMilli())).
		Set(expression.Name("addedAt"), expression.IfNotExists(expression.Name("addedAt"), expression.Value(at.UnixMilli())))
}

// BasketLines reads every line of uid's basket.
func (s *Store) BasketLines(ctx context.Context, uid string) ([]BasketLine, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(
		expression.Key("pk").Equal(expression.Value(prefixUser + uid)).
			And(expression.Key("sk").BeginsWith(prefixBasket))).Build()
	if err != nil {
		return nil, fmt.Errorf("build basket query: %w", err)
	}
	items, err := queryAll[basketItem](ctx, s, &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	})
	if err != nil {
		return nil, fmt.Errorf("get basket %s: %w", uid, err)
	}
	lines := make([]BasketLine, len(items))
	for i, it := range items {
		lines[i] = it.toLine()
	}
	return lines, nil
}

// ErrLineFull means an add would take a line past its maximum.
var ErrLineFull = errors.New("basket line would exceed its maximum quantity")

func basketKey(uid, sku string) map[string]types.AttributeValue {
	return key(prefixUser+uid, prefixBasket+sku)
}

// AddToBasketUpTo adds quantity units of sku to uid's basket in one atomic update (two
// tabs adding the same SKU at once both count), refusing (ErrLineFull, nothing written)
// when the line would then hold more than limit units.
func (s *Store) AddToBasketUpTo(ctx context.Context, uid, sku string, quantity, limit int, at time.Time) error {
	cond := expression.AttributeNotExists(expression.Name("quantity")).
		Or(expression.Name("quantity").LessThanEqual(expression.Value(limit - quantity)))
	expr, err := expression.NewBuilder().WithCondition(cond).WithUpdate(
		touchLine(expression.Add(expression.Name("quantity"), expression.Value(quantity)), sku, at)).Build()
	if err != nil {
		return fmt.Errorf("build basket add: %w", err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: basketKey(uid, sku),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
	})
	var full *types.ConditionalCheckFailedException
	if errors.As(err, &full) {
		return ErrLineFull
	}
	if err != nil {
		return fmt.Errorf("add %s to basket %s: %w", sku, uid, err)
	}
	return nil
}

// SetBasketQuantity sets a line to exactly quantity units (creating it if needed).
func (s *Store) SetBasketQuantity(ctx context.Context, uid, sku string, quantity int, at time.Time) error {
	expr, err := expression.NewBuilder().WithUpdate(
		touchLine(expression.Set(expression.Name("quantity"), expression.Value(quantity)), sku, at)).Build()
	if err != nil {
		return fmt.Errorf("build basket set: %w", err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: basketKey(uid, sku), UpdateExpression: expr.Update(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
	})
	if err != nil {
		return fmt.Errorf("set %s in basket %s: %w", sku, uid, err)
	}
	return nil
}

// RemoveFromBasket deletes a line; removing a line that is not there is not an error.
func (s *Store) RemoveFromBasket(ctx context.Context, uid, sku string) error {
	if _, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: basketKey(uid, sku)}); err != nil {
		return fmt.Errorf("remove %s from basket %s: %w", sku, uid, err)
	}
	return nil
}
