package store

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// PutRawForTest writes item as it is, as code this branch does not hold yet would.
func (s *Store) PutRawForTest(ctx context.Context, item map[string]any) error {
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return err
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av})
	return err
}

// AddReceiptsForTest adds receipt ids to a forward line's string set, as the receiving does.
func (s *Store) AddReceiptsForTest(ctx context.Context, sku, sk string, receipts []string) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: ForwardLineKey(sku, sk),
		UpdateExpression:          aws.String("ADD receipts :r"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":r": &types.AttributeValueMemberSS{Value: receipts}}})
	return err
}
