package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// key is the primary key of the item at pk/sk.
func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk}}
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

// putNew writes item unless an item with the same key exists (then ErrExists, nothing
// written): the one conditional create that orders and idempotency keys rely on.
func (s *Store) putNew(ctx context.Context, item any) error {
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return fmt.Errorf("marshal item: %w", err)
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av,
		ConditionExpression: aws.String("attribute_not_exists(pk)")})
	var exists *types.ConditionalCheckFailedException
	if errors.As(err, &exists) {
		return ErrExists
	}
	return err
}
