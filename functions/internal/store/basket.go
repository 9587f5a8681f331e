package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
)

// A basket is one item (pk USER#{uid}, sk BASKET): a version every write moves on, the
// order last placed from it, a pending large order's lock, the time of the last write,
// and per line two top-level attributes, q#{sku} (units) and a#{sku} (first added, Unix
// ms). Top-level attributes, not a map, so one UpdateItem can create the item and add to
// a line that does not exist yet; two per line, and short conditions, so that one
// UpdateItem's expressions (4 KB at most) hold a whole "Add all to basket" of 100 lines.
// docs/orders.md explains why one item.
const (
	attrVersion     = "version"
	attrLastOrder   = "lastOrderId"
	attrLastOrderAt = "lastOrderAt"
	attrPending     = "pendingOrder"
	attrPendingAt   = "pendingAt"
	attrUpdatedAt   = "updatedAt"
	lineQuantity    = "q#"
	lineAdded       = "a#"
)

func basketItemKey(uid string) map[string]types.AttributeValue { return key(prefixUser+uid, skBasket) }

// basketFromItem reads a basket item (nil: no basket yet).
func basketFromItem(item map[string]types.AttributeValue) basket.Basket {
	var b basket.Basket
	lines := map[string]*basket.Line{}
	line := func(sku string) *basket.Line {
		if lines[sku] == nil {
			lines[sku] = &basket.Line{SKU: sku}
		}
		return lines[sku]
	}
	for name, v := range item {
		n, isNum := numberOf(v)
		switch {
		case name == attrVersion:
			b.Version = n
		case name == attrLastOrder:
			b.LastOrderID = stringOf(v)
		case name == attrLastOrderAt && isNum:
			b.LastOrderAt = time.UnixMilli(n).UTC()
		case name == attrPending:
			b.PendingOrderID = stringOf(v)
		case name == attrPendingAt && isNum:
			b.PendingSince = time.UnixMilli(n).UTC()
		case strings.HasPrefix(name, lineQuantity):
			line(name[len(lineQuantity):]).Quantity = int(n)
		case strings.HasPrefix(name, lineAdded):
			line(name[len(lineAdded):]).AddedAt = time.UnixMilli(n).UTC()
		}
	}
	for _, l := range lines {
		if l.Quantity > 0 {
			b.Lines = append(b.Lines, *l)
		}
	}
	basket.SortNewestAddedFirst(b.Lines)
	return b
}

func numberOf(v types.AttributeValue) (int64, bool) {
	if n, ok := v.(*types.AttributeValueMemberN); ok {
		i, err := strconv.ParseInt(n.Value, 10, 64)
		return i, err == nil
	}
	return 0, false
}

func stringOf(v types.AttributeValue) string {
	if s, ok := v.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// Basket reads uid's basket (empty when there is none).
func (s *Store) Basket(ctx context.Context, uid string) (basket.Basket, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: basketItemKey(uid), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return basket.Basket{}, fmt.Errorf("get basket %s: %w", uid, err)
	}
	return basketFromItem(out.Item), nil
}

// AccountAndBasket reads uid's account and basket in one call.
func (s *Store) AccountAndBasket(ctx context.Context, uid string) (account.Account, basket.Basket, error) {
	items, err := s.batchGet(ctx, []map[string]types.AttributeValue{profileKey(uid), basketItemKey(uid)}, true)
	if err != nil {
		return account.Account{}, basket.Basket{}, fmt.Errorf("read account and basket of %s: %w", uid, err)
	}
	acct := account.Account{UID: uid}
	var b basket.Basket
	for _, it := range items {
		switch sortKeyOf(it) {
		case skProfile:
			p, err := unmarshalProfile(it, uid)
			if err != nil {
				return account.Account{}, basket.Basket{}, err
			}
			acct = p.Account()
		case skBasket:
			b = basketFromItem(it)
		}
	}
	return acct, b, nil
}

// ProductsAndCoupon reads products and, when couponID is not "", the coupon and uid's
// uses of it, in one call per 100 keys.
func (s *Store) ProductsAndCoupon(ctx context.Context, uid string, skus []string, couponID string) (map[string]catalogue.Product, *basket.Coupon, error) {
	keys := make([]map[string]types.AttributeValue, 0, len(skus)+2)
	if couponID != "" {
		keys = append(keys, key(prefixCoupon+couponID, skItem), couponUseKey(couponID, uid))
	}
	for _, sku := range skus {
		keys = append(keys, productKey(sku))
	}
	raw, err := s.batchGet(ctx, keys, false)
	if err != nil {
		return nil, nil, fmt.Errorf("read products and coupon: %w", err)
	}
	var productItems []map[string]types.AttributeValue
	var coupon *basket.Coupon
	uses := 0
	for _, it := range raw {
		switch pk, sk := partitionKeyOf(it), sortKeyOf(it); {
		case strings.HasPrefix(pk, prefixProduct):
			productItems = append(productItems, it)
		case strings.HasPrefix(pk, prefixCoupon) && sk == skItem:
			c, err := unmarshalCoupon(it)
			if err != nil {
				return nil, nil, err
			}
			coupon = &c
		case strings.HasPrefix(pk, prefixCoupon):
			n, _ := numberOf(it[attrUses])
			uses = int(n)
		}
	}
	if coupon != nil {
		coupon.AccountUses = uses
	}
	products, err := productsOf(productItems)
	return products, coupon, err
}

// lineNames are the attribute names of sku's line.
func lineNames(sku string) (q, a expression.NameBuilder) {
	return expression.Name(lineQuantity + sku), expression.Name(lineAdded + sku)
}

// notLocked is the condition every basket write carries: no order is being placed from
// the basket.
func notLocked() expression.ConditionBuilder {
	return expression.AttributeNotExists(expression.Name(attrPending))
}

// bumpVersion moves the basket's version on (creating it at 1) and records the time.
func bumpVersion(u expression.UpdateBuilder, at time.Time) expression.UpdateBuilder {
	return u.Add(expression.Name(attrVersion), expression.Value(1)).Set(expression.Name(attrUpdatedAt), expression.Value(at.UnixMilli()))
}

// AddLines adds every line in one UpdateItem: all or nothing.
func (s *Store) AddLines(ctx context.Context, uid string, adds []basket.Add, at time.Time) error {
	if len(adds) == 0 {
		return nil
	}
	ms := at.UnixMilli()
	upd := bumpVersion(expression.UpdateBuilder{}, at)
	cond := notLocked()
	for _, a := range adds {
		q, added := lineNames(a.SKU)
		upd = upd.Add(q, expression.Value(a.Quantity)).Set(added, expression.IfNotExists(added, expression.Value(ms)))
		// A missing line compares false, so NOT (q > room) holds for it.
		cond = cond.And(expression.Not(q.GreaterThan(expression.Value(a.Limit - a.Quantity))))
	}
	err := s.updateBasket(ctx, uid, upd, cond, "add to")
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		b := basketFromItem(failed.Item)
		if b.PendingOrderID != "" {
			return basket.ErrLocked
		}
		for _, a := range adds {
			for _, l := range b.Lines {
				if l.SKU == a.SKU && l.Quantity > a.Limit-a.Quantity {
					return &basket.LineFullError{SKU: a.SKU}
				}
			}
		}
		return &basket.LineFullError{SKU: adds[0].SKU}
	}
	return err
}

// SetLine sets a line to exactly quantity units.
func (s *Store) SetLine(ctx context.Context, uid, sku string, quantity int, at time.Time) error {
	q, added := lineNames(sku)
	upd := bumpVersion(expression.Set(q, expression.Value(quantity)), at).
		Set(added, expression.IfNotExists(added, expression.Value(at.UnixMilli())))
	return lockedOr(s.updateBasket(ctx, uid, upd, notLocked(), "set in"))
}

// RemoveLine removes a line; removing one that is not there is not an error.
func (s *Store) RemoveLine(ctx context.Context, uid, sku string, at time.Time) error {
	q, added := lineNames(sku)
	upd := bumpVersion(expression.Remove(q).Remove(added), at)
	return lockedOr(s.updateBasket(ctx, uid, upd, notLocked(), "remove from"))
}

func lockedOr(err error) error {
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return basket.ErrLocked
	}
	return err
}

// updateBasket runs one conditional update of uid's basket; a failed condition comes
// back as the *types.ConditionalCheckFailedException with the item as it is.
func (s *Store) updateBasket(ctx context.Context, uid string, upd expression.UpdateBuilder, cond expression.ConditionBuilder, what string) error {
	expr, err := expression.NewBuilder().WithUpdate(upd).WithCondition(cond).Build()
	if err != nil {
		return fmt.Errorf("build basket write: %w", err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: basketItemKey(uid),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return err
	}
	if err != nil {
		return fmt.Errorf("%s basket %s: %w", what, uid, err)
	}
	return nil
}
