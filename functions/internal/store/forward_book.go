package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/orders"
)

// The order attributes that mark forward orders and their releases (orderItem's kind and
// forwardOf), for the buyers' book's filter.
const (
	attrKind      = "kind"
	attrForwardOf = "forwardOf"
)

// ErrLineChanged says a forward line's reduce found it changed: fewer units open than
// the reduce takes (an allocation took them meanwhile), or its order-by date passed.
var ErrLineChanged = errors.New("the forward line changed")

// ForwardBookOrders reads uid's forward orders and the release orders made from them,
// each newest first: one Query of the buyer's orders (its pages), filtered to those two
// kinds, so it reads every order of the buyer (their read capacity) but hands back only
// these.
func (s *Store) ForwardBookOrders(ctx context.Context, uid string) (fwd, releases []orders.Order, err error) {
	filter := expression.Name(attrKind).Equal(expression.Value(orders.KindForward)).
		Or(expression.AttributeExists(expression.Name(attrForwardOf)))
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(prefixUser + uid)).
		And(expression.Key("sk").BeginsWith(prefixOrder))).WithFilter(filter).Build()
	if err != nil {
		return nil, nil, err
	}
	items, err := queryAll[orderItem](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		FilterExpression: expr.Filter(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ScanIndexForward: aws.Bool(false), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, nil, fmt.Errorf("forward orders of %s: %w", uid, err)
	}
	for _, it := range items {
		switch o := it.toOrder(); {
		case o.Kind == orders.KindForward:
			fwd = append(fwd, o)
		case o.ForwardOf != "":
			releases = append(releases, o)
		}
	}
	return fwd, releases, nil
}

// ReduceForwardLine moves units of forward line l from open to cancelled in one
// UpdateItem of its ledger item, on condition that at least units are open and the
// line's order-by date is not before London day today: ErrLineChanged when it fails (a
// racing allocation took the units, or the date passed). The invariant open +
// allocated + cancelled = ordered holds, as every write moves units between buckets.
// It answers the line as written.
func (s *Store) ReduceForwardLine(ctx context.Context, l forward.Line, units int, today string) (forward.Line, error) {
	if units <= 0 {
		return forward.Line{}, fmt.Errorf("reduce forward line %s of %s by %d units: not a reduction", l.SKU, l.OrderID, units)
	}
	open := expression.Name("open")
	expr, err := expression.NewBuilder().
		WithUpdate(expression.Add(open, expression.Value(-units)).Add(expression.Name("cancelled"), expression.Value(units))).
		WithCondition(open.GreaterThanEqual(expression.Value(units)).
			And(expression.Name("orderBy").GreaterThanEqual(expression.Value(today)))).Build()
	if err != nil {
		return forward.Line{}, err
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table),
		Key: ForwardLineKey(l.SKU, l.SK()), UpdateExpression: expr.Update(),
		ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValues: types.ReturnValueAllNew})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return forward.Line{}, fmt.Errorf("reduce forward line %s of %s: %w", l.SKU, l.OrderID, ErrLineChanged)
	}
	if err != nil {
		return forward.Line{}, fmt.Errorf("reduce forward line %s of %s: %w", l.SKU, l.OrderID, err)
	}
	var it forwardLineItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return forward.Line{}, fmt.Errorf("reduce forward line %s of %s: %w", l.SKU, l.OrderID, err)
	}
	return it.toLine(), nil
}
