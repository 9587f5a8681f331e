package store

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// BasketLine is one line of a customer's basket: a quantity in units of one SKU.
type BasketLine struct {
	SKU       string
	Quantity  int
	UpdatedAt time.Time
}

type basketItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	SKU       string `dynamodbav:"sku"`
	Quantity  int    `dynamodbav:"quantity"`
	UpdatedAt int64  `dynamodbav:"updatedAt"` // Unix milliseconds
}

func (it basketItem) toLine() BasketLine {
	return BasketLine{SKU: it.SKU, Quantity: it.Quantity, UpdatedAt: time.UnixMilli(it.UpdatedAt).UTC()}
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

// AddToBasket adds quantity units of sku to uid's basket in one atomic update, so two
// tabs adding the same SKU at once both count.
func (s *Store) AddToBasket(ctx context.Context, uid, sku string, quantity int, at time.Time) error {
	expr, err := expression.NewBuilder().WithUpdate(
		expression.Add(expression.Name("quantity"), expression.Value(quantity)).
			Set(expression.Name("sku"), expression.Value(sku)).
			Set(expression.Name("updatedAt"), expression.Value(at.UnixMilli()))).Build()
	if err != nil {
		return fmt.Errorf("build basket update: %w", err)
	}
	key, err := attributevalue.MarshalMap(struct {
		PK string `dynamodbav:"pk"`
		SK string `dynamodbav:"sk"`
	}{prefixUser + uid, prefixBasket + sku})
	if err != nil {
		return fmt.Errorf("marshal basket key: %w", err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key,
		UpdateExpression:          expr.Update(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ReturnValues:              types.ReturnValueNone,
	})
	if err != nil {
		return fmt.Errorf("add %s to basket %s: %w", sku, uid, err)
	}
	return nil
}
