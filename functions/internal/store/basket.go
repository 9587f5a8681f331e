package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
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
	"github.com/tradeshop/functions/internal/shoperr"
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
	// The item as read (a nil map when there is none: still a non-nil Item, so a write
	// given this basket knows it was read, and that no item exists).
	b.Item = item
	return b
}

// itemOf answers the basket item b holds as read, and whether b holds one at all (false:
// b did not come from the store, so the write must read the item itself).
func itemOf(b *basket.Basket) (map[string]types.AttributeValue, bool) {
	if b == nil || b.Item == nil {
		return nil, false
	}
	item, ok := b.Item.(map[string]types.AttributeValue)
	return item, ok
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
	found, err := s.BasketAndProducts(ctx, uid, nil, true)
	return found.Account, found.Basket, err
}

// BasketAndProducts reads, in one strongly consistent call (one more per 100 keys, side
// by side), uid's basket as a write of it will find it, the products of skus (unknown
// SKUs are absent) and, withAccount, uid's account (empty when none is saved): what a
// basket write checks before it writes, or a quick order's check reads.
func (s *Store) BasketAndProducts(ctx context.Context, uid string, skus []string, withAccount bool) (basket.Found, error) {
	return s.userAndProducts(ctx, uid, skus, true, withAccount)
}

// AccountAndProducts reads uid's account (empty when none is saved) and the products of
// skus in one strongly consistent call (one more per 100 keys): a page's own prices.
func (s *Store) AccountAndProducts(ctx context.Context, uid string, skus []string) (account.Account, map[string]catalogue.Product, error) {
	found, err := s.userAndProducts(ctx, uid, skus, false, true)
	return found.Account, found.Products, err
}

// userAndProducts reads in one call the products of skus and, as asked, uid's basket and
// account.
func (s *Store) userAndProducts(ctx context.Context, uid string, skus []string, withBasket, withAccount bool) (basket.Found, error) {
	keys := make([]map[string]types.AttributeValue, 0, len(skus)+2)
	if withBasket {
		keys = append(keys, basketItemKey(uid))
	}
	if withAccount {
		keys = append(keys, profileKey(uid))
	}
	for _, sku := range skus {
		keys = append(keys, productKey(sku))
	}
	items, err := s.batchGet(ctx, keys, true)
	if err != nil {
		return basket.Found{}, fmt.Errorf("read the basket, account or products of %s: %w", uid, err)
	}
	found := basket.Found{Account: account.Account{UID: uid}, Basket: basketFromItem(nil)}
	var productItems []map[string]types.AttributeValue
	for _, it := range items {
		switch pk, sk := partitionKeyOf(it), sortKeyOf(it); {
		case strings.HasPrefix(pk, prefixProduct):
			productItems = append(productItems, it)
		case sk == skProfile:
			p, err := unmarshalProfile(it, uid)
			if err != nil {
				return basket.Found{}, err
			}
			found.Account = p.Account()
		case sk == skBasket:
			found.Basket = basketFromItem(it)
		}
	}
	found.Products, err = productsOf(productItems)
	return found, err
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

// attrLineCount is the number of lines (q#{sku} attributes) of a basket, kept by every
// write that adds or removes one, so a write can be refused atomically when it would take
// the basket past basket.MaxLines. A basket item without it (new, emptied by an order
// before it was kept, or written before it was kept) gets it from the lines read, on
// condition that the version is still the one read.
const attrLineCount = "lineCount"

// maxBasketAttempts bounds the rereads of a basket whose lines changed between the read
// and the write (another tab added or removed the same line).
const maxBasketAttempts = 8

// errBasketMoved means a write's condition failed only because the basket changed since
// it was read: read it again and retry.
var errBasketMoved = errors.New("basket changed while being written")

// hasLine says the basket item holds a line for sku.
func hasLine(item map[string]types.AttributeValue, sku string) bool {
	_, ok := item[lineQuantity+sku]
	return ok
}

// linesOf answers the number of lines of a basket item, and whether the item keeps it.
func linesOf(item map[string]types.AttributeValue) (int, bool) {
	if n, ok := numberOf(item[attrLineCount]); ok {
		return int(n), true
	}
	n := 0
	for name := range item {
		if strings.HasPrefix(name, lineQuantity) {
			n++
		}
	}
	return n, false
}

// countLines adds to a write of item (as read) what keeps its line count right when the
// write changes the number of lines by delta, refusing past basket.MaxLines.
func countLines(item map[string]types.AttributeValue, delta int, upd expression.UpdateBuilder, cond expression.ConditionBuilder) (expression.UpdateBuilder, expression.ConditionBuilder) {
	n, kept := linesOf(item)
	count := expression.Name(attrLineCount)
	if !kept {
		// Counted from the lines read: right only while the basket is as read.
		if v, ok := numberOf(item[attrVersion]); ok {
			cond = cond.And(expression.Name(attrVersion).Equal(expression.Value(v)))
		} else {
			cond = cond.And(expression.AttributeNotExists(expression.Name(attrVersion)))
		}
		return upd.Set(count, expression.Value(max(n+delta, 0))), cond
	}
	if delta > 0 {
		cond = cond.And(count.LessThanEqual(expression.Value(basket.MaxLines - delta)))
	}
	if delta != 0 {
		upd = upd.Add(count, expression.Value(delta))
	}
	return upd, cond
}

// basketItem reads uid's basket item as it is (nil: none yet).
func (s *Store) basketItem(ctx context.Context, uid string) (map[string]types.AttributeValue, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: basketItemKey(uid), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("get basket %s: %w", uid, err)
	}
	return out.Item, nil
}

// basketRead is the basket item a write works from: as a read before the write found it
// (BasketAndProducts, AccountAndBasket), as a failed attempt of the write found it, or,
// when neither has, read by the write itself. Each attempt of a write is then one call.
type basketRead struct {
	item map[string]types.AttributeValue
	ok   bool
}

func readFrom(b *basket.Basket) *basketRead {
	item, ok := itemOf(b)
	return &basketRead{item: item, ok: ok}
}

// get answers the item, reading it when nothing has.
func (r *basketRead) get(ctx context.Context, s *Store, uid string) (map[string]types.AttributeValue, error) {
	if !r.ok {
		item, err := s.basketItem(ctx, uid)
		if err != nil {
			return nil, err
		}
		r.item, r.ok = item, true
	}
	return r.item, nil
}

// moved keeps the item a write's failed condition found (the basket as it is now, which
// the next attempt works from) and answers errBasketMoved. A failure that brought no item
// back (the basket item is gone, or the store did not send it) makes the next attempt
// read the item itself.
func (r *basketRead) moved(failed *types.ConditionalCheckFailedException) error {
	r.item, r.ok = failed.Item, failed.Item != nil
	return errBasketMoved
}

// retryMoved runs write (one conditional write of the basket as last found) until it does
// not answer errBasketMoved, at most maxBasketAttempts times; then a 409 to try again.
func retryMoved(uid string, write func() (basket.Basket, error)) (basket.Basket, error) {
	for range maxBasketAttempts {
		if b, err := write(); !errors.Is(err, errBasketMoved) {
			return b, err
		}
	}
	return basket.Basket{}, &shoperr.ConflictError{Msg: fmt.Sprintf("Your basket changed while this was being saved (%d times): nothing was changed, try again.", maxBasketAttempts)}
}

// maxUpdateLines is the most lines one UpdateItem adds: its update and condition
// expressions (4 KB each at most) hold that many lines of 64-character SKUs. A larger
// add is one conditional put of the whole basket item (putLines).
const maxUpdateLines = 80

// AddLines is AddLinesTo for a caller that has not read the basket (tests, benches).
func (s *Store) AddLines(ctx context.Context, uid string, adds []basket.Add, at time.Time) error {
	_, err := s.AddLinesTo(ctx, uid, adds, at, nil)
	return err
}

// AddLinesTo adds every line in one write to uid's basket, as b holds it (read by
// BasketAndProducts; nil: the write reads it first), and answers the basket after the
// write: all or nothing. Lines that would pass their limits are a *basket.LineFullError,
// new lines that would take the basket past basket.MaxLines are basket.ErrBasketFull. Up to
// maxUpdateLines lines are one UpdateItem (two buyers' adds to different lines never
// conflict); more are one put of the basket on condition that its version is the one read.
// A write whose condition finds the basket changed since b works again from the basket as
// the failed write found it.
func (s *Store) AddLinesTo(ctx context.Context, uid string, adds []basket.Add, at time.Time, b *basket.Basket) (basket.Basket, error) {
	read := readFrom(b)
	if len(adds) == 0 {
		item, err := read.get(ctx, s, uid)
		return basketFromItem(item), err
	}
	if len(adds) > maxUpdateLines {
		return retryMoved(uid, func() (basket.Basket, error) { return s.putLines(ctx, uid, adds, at, read) })
	}
	return retryMoved(uid, func() (basket.Basket, error) {
		item, err := read.get(ctx, s, uid)
		if err != nil {
			return basket.Basket{}, err
		}
		ms := at.UnixMilli()
		upd := bumpVersion(expression.UpdateBuilder{}, at)
		cond := notLocked()
		added := 0
		for _, a := range adds {
			q, first := lineNames(a.SKU)
			upd = upd.Add(q, expression.Value(a.Quantity)).Set(first, expression.IfNotExists(first, expression.Value(ms)))
			if hasLine(item, a.SKU) {
				// Fails, as it should, when the line is gone since the read.
				cond = cond.And(q.LessThanEqual(expression.Value(a.Limit - a.Quantity)))
			} else {
				cond = cond.And(expression.AttributeNotExists(q))
				added++
			}
		}
		if err := refuseAdds(item, adds); err != nil {
			return basket.Basket{}, err
		}
		upd, cond = countLines(item, added, upd, cond)
		after, err := s.updateBasket(ctx, uid, upd, cond, "add to")
		var failed *types.ConditionalCheckFailedException
		if !errors.As(err, &failed) {
			return after, err
		}
		if err := refuseAdds(failed.Item, adds); err != nil {
			return basket.Basket{}, err
		}
		return basket.Basket{}, read.moved(failed)
	})
}

// refuseAdds answers why adds cannot be written to the basket item as it is: an order
// is being placed from it (basket.ErrLocked), lines would pass their limits
// (*basket.LineFullError), or new lines would not fit (basket.ErrBasketFull); nil if none.
func refuseAdds(item map[string]types.AttributeValue, adds []basket.Add) error {
	if _, locked := item[attrPending]; locked {
		return basket.ErrLocked
	}
	full := map[string]int{}
	fresh := 0
	for _, a := range adds {
		held, there := numberOf(item[lineQuantity+a.SKU])
		if !there {
			fresh++
		}
		if int(held) > a.Limit-a.Quantity {
			full[a.SKU] = int(held)
		}
	}
	if len(full) > 0 {
		return &basket.LineFullError{InBasket: full}
	}
	if n, _ := linesOf(item); fresh > 0 && n+fresh > basket.MaxLines {
		return basket.ErrBasketFull
	}
	return nil
}

// putLines adds lines too many for one UpdateItem: the basket item as read, with the
// lines added, its version moved on and its line count set, put on condition that the
// version is still the one read and no order is being placed from it.
func (s *Store) putLines(ctx context.Context, uid string, adds []basket.Add, at time.Time, read *basketRead) (basket.Basket, error) {
	item, err := read.get(ctx, s, uid)
	if err != nil {
		return basket.Basket{}, err
	}
	if err := refuseAdds(item, adds); err != nil {
		return basket.Basket{}, err
	}
	next := maps.Clone(item)
	if next == nil {
		next = basketItemKey(uid)
	}
	v, _ := numberOf(item[attrVersion])
	cond := notLocked().And(expression.AttributeNotExists(expression.Name(attrVersion)))
	if _, ok := item[attrVersion]; ok {
		cond = notLocked().And(expression.Name(attrVersion).Equal(expression.Value(v)))
	}
	next[attrVersion] = &types.AttributeValueMemberN{Value: strconv.FormatInt(v+1, 10)}
	ms := &types.AttributeValueMemberN{Value: strconv.FormatInt(at.UnixMilli(), 10)}
	for _, a := range adds {
		held, there := numberOf(item[lineQuantity+a.SKU])
		next[lineQuantity+a.SKU] = &types.AttributeValueMemberN{Value: strconv.FormatInt(held+int64(a.Quantity), 10)}
		if !there {
			next[lineAdded+a.SKU] = ms
		}
	}
	n, _ := linesOf(item) // counted from the lines read when not kept: right, as the version is
	for _, a := range adds {
		if !hasLine(item, a.SKU) {
			n++
		}
	}
	next[attrLineCount] = &types.AttributeValueMemberN{Value: strconv.Itoa(n)}
	next[attrUpdatedAt] = ms
	err = s.putIf(ctx, next, cond)
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		if err := refuseAdds(failed.Item, adds); err != nil {
			return basket.Basket{}, err
		}
		return basket.Basket{}, read.moved(failed)
	}
	if err != nil {
		return basket.Basket{}, fmt.Errorf("add to basket %s: %w", uid, err)
	}
	return basketFromItem(next), nil // what was put is the basket now
}

// SetLine is SetLineIn for a caller that has not read the basket (tests).
func (s *Store) SetLine(ctx context.Context, uid, sku string, quantity int, at time.Time) error {
	_, err := s.SetLineIn(ctx, uid, sku, quantity, at, nil)
	return err
}

// SetLineIn sets a line of uid's basket, as b holds it (nil: read it first), to exactly
// quantity units, and answers the basket after; a new line past basket.MaxLines is
// basket.ErrBasketFull.
func (s *Store) SetLineIn(ctx context.Context, uid, sku string, quantity int, at time.Time, b *basket.Basket) (basket.Basket, error) {
	read := readFrom(b)
	return retryMoved(uid, func() (basket.Basket, error) {
		item, err := read.get(ctx, s, uid)
		if err != nil {
			return basket.Basket{}, err
		}
		q, added := lineNames(sku)
		upd := bumpVersion(expression.Set(q, expression.Value(quantity)), at).
			Set(added, expression.IfNotExists(added, expression.Value(at.UnixMilli())))
		cond := notLocked()
		if hasLine(item, sku) {
			cond = cond.And(expression.AttributeExists(q))
		} else {
			if n, _ := linesOf(item); n+1 > basket.MaxLines {
				if _, locked := item[attrPending]; locked {
					return basket.Basket{}, basket.ErrLocked
				}
				return basket.Basket{}, basket.ErrBasketFull
			}
			cond = cond.And(expression.AttributeNotExists(q))
			upd, cond = countLines(item, 1, upd, cond)
		}
		after, err := s.updateBasket(ctx, uid, upd, cond, "set in")
		return after, refusedOr(err, sku, read)
	})
}

// RemoveLine is RemoveLineFrom for a caller that has not read the basket (tests).
func (s *Store) RemoveLine(ctx context.Context, uid, sku string, at time.Time) error {
	_, err := s.RemoveLineFrom(ctx, uid, sku, at, nil)
	return err
}

// RemoveLineFrom removes a line of uid's basket, as b holds it (nil: read it first), and
// answers the basket after; removing one that is not there is not an error.
func (s *Store) RemoveLineFrom(ctx context.Context, uid, sku string, at time.Time, b *basket.Basket) (basket.Basket, error) {
	read := readFrom(b)
	return retryMoved(uid, func() (basket.Basket, error) {
		item, err := read.get(ctx, s, uid)
		if err != nil {
			return basket.Basket{}, err
		}
		q, added := lineNames(sku)
		upd := bumpVersion(expression.Remove(q).Remove(added), at)
		cond := notLocked()
		if hasLine(item, sku) {
			cond = cond.And(expression.AttributeExists(q))
			if _, kept := linesOf(item); kept {
				upd, cond = countLines(item, -1, upd, cond)
			}
		} else {
			cond = cond.And(expression.AttributeNotExists(q))
		}
		after, err := s.updateBasket(ctx, uid, upd, cond, "remove from")
		return after, refusedOr(err, sku, read)
	})
}

// refusedOr reads a failed basket write of one line: ErrLocked while an order is being
// placed, ErrBasketFull when a new line no longer fits, else errBasketMoved (the next
// attempt works from the basket as the failed write found it).
func refusedOr(err error, sku string, read *basketRead) error {
	var failed *types.ConditionalCheckFailedException
	if !errors.As(err, &failed) {
		return err
	}
	if _, locked := failed.Item[attrPending]; locked {
		return basket.ErrLocked
	}
	if n, _ := linesOf(failed.Item); !hasLine(failed.Item, sku) && n+1 > basket.MaxLines {
		return basket.ErrBasketFull
	}
	return read.moved(failed)
}

// updateBasket runs one conditional update of uid's basket and answers the basket after
// it (the update's ALL_NEW values: no read); a failed condition comes back as the
// *types.ConditionalCheckFailedException with the item as it is.
func (s *Store) updateBasket(ctx context.Context, uid string, upd expression.UpdateBuilder, cond expression.ConditionBuilder, what string) (basket.Basket, error) {
	expr, err := expression.NewBuilder().WithUpdate(upd).WithCondition(cond).Build()
	if err != nil {
		return basket.Basket{}, fmt.Errorf("build basket write: %w", err)
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: basketItemKey(uid),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValues:                        types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return basket.Basket{}, err
	}
	if err != nil {
		return basket.Basket{}, fmt.Errorf("%s basket %s: %w", what, uid, err)
	}
	return basketFromItem(out.Attributes), nil
}
