package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// key is the primary key of the item at pk/sk.
func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk}}
}

// putIf puts item on condition cond. A failed condition is answered as the
// *types.ConditionalCheckFailedException itself, holding the item as it was.
func (s *Store) putIf(ctx context.Context, item map[string]types.AttributeValue, cond expression.ConditionBuilder) error {
	expr, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		return fmt.Errorf("build put condition: %w", err)
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: item,
		ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	return err
}

// getItem reads the item at pk/sk (strongly consistent) into T; ErrNotFound when there
// is none.
func getItem[T any](ctx context.Context, s *Store, pk, sk string) (T, error) {
	var v T
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key(pk, sk), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return v, err
	}
	if out.Item == nil {
		return v, ErrNotFound
	}
	if err := attributevalue.UnmarshalMap(out.Item, &v); err != nil {
		return v, fmt.Errorf("unmarshal %s %s: %w", pk, sk, err)
	}
	return v, nil
}

// batchGetParallel is how many BatchGetItem calls of one batchGet run side by side: 500
// keys (a quick order's SKUs) take one round trip's time, not five.
const batchGetParallel = 5

// batchGet reads the items at keys (duplicates read once), 100 keys a call, up to
// batchGetParallel calls at once, retrying what DynamoDB hands back unprocessed; missing
// items are absent from the answer.
func (s *Store) batchGet(ctx context.Context, keys []map[string]types.AttributeValue, consistent bool) ([]map[string]types.AttributeValue, error) {
	seen := map[string]bool{}
	var uniq []map[string]types.AttributeValue
	for _, k := range keys {
		id := k["pk"].(*types.AttributeValueMemberS).Value + "\x00" + k["sk"].(*types.AttributeValueMemberS).Value
		if !seen[id] {
			seen[id] = true
			uniq = append(uniq, k)
		}
	}
	chunks := slices.Collect(slices.Chunk(uniq, 100))
	if len(chunks) <= 1 {
		var out []map[string]types.AttributeValue
		for _, c := range chunks {
			got, err := s.batchGetChunk(ctx, c, consistent)
			if err != nil {
				return nil, err
			}
			out = got
		}
		return out, nil
	}
	results := make([][]map[string]types.AttributeValue, len(chunks))
	errs := make([]error, len(chunks))
	slots := make(chan struct{}, batchGetParallel)
	var wg sync.WaitGroup
	for i, c := range chunks {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			results[i], errs[i] = s.batchGetChunk(ctx, c, consistent)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return slices.Concat(results...), nil
}

// batchGetChunk reads up to 100 keys, retrying what comes back unprocessed.
func (s *Store) batchGetChunk(ctx context.Context, keys []map[string]types.AttributeValue, consistent bool) ([]map[string]types.AttributeValue, error) {
	var out []map[string]types.AttributeValue
	pending := map[string]types.KeysAndAttributes{s.table: {Keys: keys, ConsistentRead: aws.Bool(consistent)}}
	for attempt := 0; len(pending[s.table].Keys) > 0; attempt++ {
		if attempt > 8 {
			return nil, fmt.Errorf("batch get: keys still unprocessed")
		}
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(20<<attempt) * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		res, err := s.db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: pending})
		if err != nil {
			return nil, fmt.Errorf("batch get: %w", err)
		}
		out = append(out, res.Responses[s.table]...)
		pending = res.UnprocessedKeys
	}
	return out, nil
}

// sortKeyOf answers an item's sort key.
func sortKeyOf(item map[string]types.AttributeValue) string {
	if v, ok := item["sk"].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

// partitionKeyOf answers an item's partition key.
func partitionKeyOf(item map[string]types.AttributeValue) string {
	if v, ok := item["pk"].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

// partition reads every item of partition pk (strongly consistent) into T: the pending
// orders, the orders waiting for their invoice, the invoice numbers issued.
func partition[T any](ctx context.Context, s *Store, pk string) ([]T, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(pk))).Build()
	if err != nil {
		return nil, err
	}
	return queryAll[T](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ConsistentRead: aws.Bool(true)})
}
