package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// BackfillStaffLists lists for staff (index gsi3) the orders, trade accounts and coupons
// written before the staff lists existed: each such item gets its gsi3pk, gsi3sk and
// search text, on condition it still has none. It reads the whole table once (a scan),
// so it runs with the seed, not per request; it answers how many items it listed.
func (s *Store) BackfillStaffLists(ctx context.Context) (int, error) {
	sk, pk := expression.Name("sk"), expression.Name("pk")
	filter := expression.AttributeNotExists(expression.Name("gsi3pk")).And(
		expression.BeginsWith(sk, prefixOrder).And(expression.BeginsWith(pk, prefixUser)).
			Or(sk.Equal(expression.Value(skProfile))).
			Or(expression.BeginsWith(pk, prefixCoupon).And(sk.Equal(expression.Value(skItem)))))
	expr, err := expression.NewBuilder().WithFilter(filter).Build()
	if err != nil {
		return 0, err
	}
	p := dynamodb.NewScanPaginator(s.db, &dynamodb.ScanInput{TableName: aws.String(s.table), FilterExpression: expr.Filter(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	n := 0
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return n, fmt.Errorf("backfill staff lists: %w", err)
		}
		for _, item := range page.Items {
			listPK, listSK, search, err := staffListing(item)
			if err != nil {
				return n, err
			}
			upd := expression.Set(expression.Name("gsi3pk"), expression.Value(listPK)).Set(expression.Name("gsi3sk"), expression.Value(listSK))
			if search != "" {
				upd = upd.Set(expression.Name("search"), expression.Value(search))
			}
			e, err := expression.NewBuilder().WithUpdate(upd).WithCondition(expression.AttributeExists(pk).And(
				expression.AttributeNotExists(expression.Name("gsi3pk")))).Build()
			if err != nil {
				return n, err
			}
			_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table),
				Key: map[string]types.AttributeValue{"pk": item["pk"], "sk": item["sk"]}, UpdateExpression: e.Update(),
				ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values()})
			var lost *types.ConditionalCheckFailedException
			if err != nil && !errors.As(err, &lost) {
				return n, fmt.Errorf("backfill %s %s: %w", stringOf(item["pk"]), stringOf(item["sk"]), err)
			}
			n++
		}
	}
	return n, nil
}

// staffListing is where item goes in the staff lists.
func staffListing(item map[string]types.AttributeValue) (pk, sk, search string, err error) {
	switch itemSK := stringOf(item["sk"]); {
	case strings.HasPrefix(itemSK, prefixOrder):
		var it orderItem
		if err := attributevalue.UnmarshalMap(item, &it); err != nil {
			return "", "", "", err
		}
		return pkOrderList, orderListSK(it.ID), orderSearchText(it.toOrder()), nil
	case itemSK == skProfile:
		var it profileItem
		if err := attributevalue.UnmarshalMap(item, &it); err != nil {
			return "", "", "", err
		}
		return pkAccountList, accountListSK(it.Business, strings.TrimPrefix(it.PK, prefixUser)), accountSearchText(it.Business, it.Email), nil
	default:
		return pkCouponList, stringOf(item["id"]), "", nil
	}
}
