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

	"github.com/tradeshop/functions/internal/basket"

	"github.com/tradeshop/functions/internal/pricing"
)

// StoredCoupon is a coupon with who may use it: an empty AccountUID means anyone.
type StoredCoupon = basket.Coupon

// attrUses counts an account's orders with a coupon, on its use item.
const attrUses = "uses"

func couponUseKey(id, uid string) map[string]types.AttributeValue {
	return key(prefixCoupon+id, prefixCouponUse+uid)
}

type couponItem struct {
	PK            string `dynamodbav:"pk"`
	SK            string `dynamodbav:"sk"`
	ID            string `dynamodbav:"id"`
	Description   string `dynamodbav:"description"`
	Kind          string `dynamodbav:"kind"`
	Percent       int    `dynamodbav:"percent"`
	AmountPence   int64  `dynamodbav:"amountPence"`
	MinSpendPence int64  `dynamodbav:"minSpendPence"`
	ValidFrom     int64  `dynamodbav:"validFrom"` // Unix seconds, 0 for none
	ValidTo       int64  `dynamodbav:"validTo"`
	UsageLimit    int    `dynamodbav:"usageLimit"`
	Used          int    `dynamodbav:"used"`
	PerAccount    int    `dynamodbav:"perAccountLimit"`
	AccountUID    string `dynamodbav:"accountUid,omitempty"`
	// Version moves on with each staff edit; GSI3PK and GSI3SK list the coupon for staff.
	Version int64  `dynamodbav:"version,omitempty"`
	GSI3PK  string `dynamodbav:"gsi3pk,omitempty"`
	GSI3SK  string `dynamodbav:"gsi3sk,omitempty"`
}

func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func timeOrZero(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}

// PutCoupons writes coupons (the seed's and tests'), overwriting same ids.
func (s *Store) PutCoupons(ctx context.Context, coupons []StoredCoupon) error {
	items := make([]any, len(coupons))
	for i, c := range coupons {
		items[i] = couponItem{PK: prefixCoupon + c.ID, SK: skItem, ID: c.ID, Description: c.Description, Kind: c.Kind,
			Percent: c.Percent, AmountPence: c.AmountPence, MinSpendPence: c.MinSpendPence, ValidFrom: unixOrZero(c.ValidFrom),
			ValidTo: unixOrZero(c.ValidTo), UsageLimit: c.UsageLimit, Used: c.Used, PerAccount: c.PerAccountLimit, AccountUID: c.AccountUID,
			GSI3PK: pkCouponList, GSI3SK: c.ID}
	}
	return s.batchPut(ctx, items, nil)
}

// Coupon reads a coupon by id; ErrNotFound when there is none.
func (s *Store) Coupon(ctx context.Context, id string) (StoredCoupon, error) {
	it, err := getItem[couponItem](ctx, s, prefixCoupon+id, skItem)
	if err != nil {
		return StoredCoupon{}, fmt.Errorf("coupon %s: %w", id, err)
	}
	return it.toCoupon(), nil
}

func (it couponItem) toCoupon() StoredCoupon {
	return StoredCoupon{Coupon: pricing.Coupon{ID: it.ID, Kind: it.Kind, Percent: it.Percent, AmountPence: it.AmountPence,
		MinSpendPence: it.MinSpendPence, ValidFrom: timeOrZero(it.ValidFrom), ValidTo: timeOrZero(it.ValidTo),
		UsageLimit: it.UsageLimit, Used: it.Used, PerAccountLimit: it.PerAccount}, Description: it.Description, AccountUID: it.AccountUID}
}

func unmarshalCoupon(item map[string]types.AttributeValue) (StoredCoupon, error) {
	var it couponItem
	if err := attributevalue.UnmarshalMap(item, &it); err != nil {
		return StoredCoupon{}, fmt.Errorf("unmarshal coupon: %w", err)
	}
	return it.toCoupon(), nil
}

// SetActiveCoupon records uid's one active coupon ("coupon-" + id), or clears it when
// prefixed is "".
func (s *Store) SetActiveCoupon(ctx context.Context, uid, prefixed string, at time.Time) error {
	var upd expression.UpdateBuilder
	if prefixed == "" {
		upd = expression.Remove(expression.Name("active_coupon_id"))
	} else {
		upd = expression.Set(expression.Name("active_coupon_id"), expression.Value(prefixed))
	}
	upd = upd.Set(expression.Name("updatedAt"), expression.Value(at.UnixMilli()))
	expr, err := expression.NewBuilder().WithUpdate(upd).Build()
	if err != nil {
		return fmt.Errorf("build coupon update: %w", err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: profileKey(uid),
		UpdateExpression: expr.Update(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	if err != nil {
		return fmt.Errorf("set coupon of %s: %w", uid, err)
	}
	return nil
}
