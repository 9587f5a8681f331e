package store

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// DropLineCountForTest removes the kept line count of uid's basket, as a basket written
// before it was kept.
func (s *Store) DropLineCountForTest(ctx context.Context, uid string) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: basketItemKey(uid),
		UpdateExpression: aws.String("REMOVE " + attrLineCount)})
	return err
}

// LineCountForTest answers the kept line count of uid's basket and whether it is kept.
func (s *Store) LineCountForTest(ctx context.Context, uid string) (int, bool, error) {
	item, err := s.basketItem(ctx, uid)
	if err != nil {
		return 0, false, err
	}
	_, has := item[attrLineCount]
	n, _ := linesOf(item)
	return n, has, nil
}

// UnlistForTest removes an item's staff listing, as an item written before the lists.
func (s *Store) UnlistForTest(ctx context.Context, pk, sk string) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(pk, sk),
		UpdateExpression: aws.String("REMOVE gsi3pk, gsi3sk, #s"), ExpressionAttributeNames: map[string]string{"#s": "search"}})
	return err
}

// ReadAtMostForTest reads at most limit items of partition pk as Backlogs does: how many
// and whether there are more.
func (s *Store) ReadAtMostForTest(ctx context.Context, pk string, limit int) (int, bool, error) {
	items, more, err := partitionAtMost[backlogItem](ctx, s, pk, limit, []string{"createdAt"})
	return len(items), more, err
}
