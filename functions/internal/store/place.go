package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
)

// Placing an order writes, all or nothing, in one TransactWriteItems (docs/orders.md):
// the order (if new), the idempotency key (if unused), the basket emptied at the version
// that was priced, each line's stock decrement (if stock >= quantity and the product is
// not discontinued), the coupon's use (if under its limits), the account's active
// coupon cleared and the order's to-invoice marker (invoice.go). A large order reserves
// its lines in chunks under a pending record (pk PENDING) and commits or undoes.

// role says what one item of a transaction claims, to read its cancellation reason.
type role struct {
	kind string // orders.Refused* kind, or "" for an item whose failure means a race
	sku  string
}

// txn is a transaction being built: its items and what each claims.
type txn struct {
	items []types.TransactWriteItem
	roles []role
}

func (t *txn) add(r role, it types.TransactWriteItem) {
	t.items = append(t.items, it)
	t.roles = append(t.roles, r)
}

// update adds a conditional update of the item at k.
func (t *txn) update(r role, k map[string]types.AttributeValue, table string, upd expression.UpdateBuilder, cond *expression.ConditionBuilder) error {
	b := expression.NewBuilder().WithUpdate(upd)
	if cond != nil {
		b = b.WithCondition(*cond)
	}
	expr, err := b.Build()
	if err != nil {
		return err
	}
	t.add(r, types.TransactWriteItem{Update: &types.Update{TableName: aws.String(table), Key: k, UpdateExpression: expr.Update(),
		ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
	return nil
}

// put adds a Put of item under cond.
func (t *txn) put(r role, table string, item any, cond expression.ConditionBuilder) error {
	av, ok := item.(map[string]types.AttributeValue)
	if !ok {
		var err error
		if av, err = attributevalue.MarshalMap(item); err != nil {
			return err
		}
	}
	expr, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		return err
	}
	t.add(r, types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: av, ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
	return nil
}

// del adds a conditional Delete of the item at k.
func (t *txn) del(r role, table string, k map[string]types.AttributeValue, cond expression.ConditionBuilder) error {
	expr, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		return err
	}
	t.add(r, types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(table), Key: k, ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
	return nil
}

func ptr[T any](v T) *T { return &v }

var notThere = expression.AttributeNotExists(expression.Name("pk"))

// clientToken makes a ClientRequestToken (at most 36 characters) of a placement's
// attempt: the SDK's own retries of one call send it again, and DynamoDB applies the
// transaction once.
func clientToken(uid, token string) string {
	sum := sha256.Sum256([]byte(uid + "\x00" + token))
	return hex.EncodeToString(sum[:])[:36]
}

// run runs t; a cancelled transaction becomes an *orders.Refused saying which claim
// failed (with what the failed item holds now), or a race to try again.
func (s *Store) run(ctx context.Context, t *txn, token string) error {
	in := &dynamodb.TransactWriteItemsInput{TransactItems: t.items}
	if token != "" {
		in.ClientRequestToken = aws.String(token)
	}
	_, err := s.db.TransactWriteItems(ctx, in)
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) {
		return refusal(t, cancelled.CancellationReasons)
	}
	var mismatch *types.IdempotentParameterMismatchException
	var conflict *types.TransactionConflictException
	var inProgress *types.TransactionInProgressException
	if errors.As(err, &mismatch) || errors.As(err, &conflict) || errors.As(err, &inProgress) {
		return &orders.Refused{Kind: orders.RefusedBusy}
	}
	if err != nil {
		return fmt.Errorf("transaction: %w", err)
	}
	return nil
}

// refusal reads a cancelled transaction's reasons, most telling claim first: a used key,
// then the basket, then a discontinued line, then a short line, then the coupon, then
// the credit; anything else is a race.
func refusal(t *txn, reasons []types.CancellationReason) error {
	var found []*orders.Refused
	for i, r := range reasons {
		if i >= len(t.roles) || aws.ToString(r.Code) != "ConditionalCheckFailed" {
			continue
		}
		ro := t.roles[i]
		ref := &orders.Refused{Kind: ro.kind, SKU: ro.sku}
		switch ro.kind {
		case orders.RefusedKey:
			ref.OrderID = stringOf(r.Item["orderId"])
		case orders.RefusedBasket:
			ref.Basket = basketFromItem(r.Item)
		case orders.RefusedStock:
			n, _ := numberOf(r.Item["stock"])
			ref.Stock = int(n)
			if stringOf(r.Item["status"]) == catalogue.StatusDiscontinued {
				ref.Kind = orders.RefusedDiscontinued
			}
		case orders.RefusedCoupon:
		case orders.RefusedCredit:
			ref.Owed, _ = numberOf(r.Item[attrOwed])
			if _, ok := r.Item["creditLimit"]; ok {
				l, _ := numberOf(r.Item["creditLimit"])
				ref.Limit = &l
			}
		default:
			ref.Kind = orders.RefusedBusy
		}
		found = append(found, ref)
	}
	for _, kind := range []string{orders.RefusedKey, orders.RefusedBasket, orders.RefusedDiscontinued, orders.RefusedStock, orders.RefusedCoupon, orders.RefusedCredit} {
		for _, f := range found {
			if f.Kind == kind {
				return f
			}
		}
	}
	return &orders.Refused{Kind: orders.RefusedBusy}
}

// claimKey adds the put of the idempotency key, which must not have been used.
func (s *Store) claimKey(t *txn, p orders.Placement) error {
	o := p.Order
	return t.put(role{kind: orders.RefusedKey}, s.table, keyItem{PK: prefixUser + o.UID, SK: prefixIdem + p.Key, OrderID: o.ID,
		CreatedAt: p.StartedAt.UnixMilli(), TTL: p.StartedAt.Add(30 * 24 * time.Hour).Unix()}, notThere)
}

// useCoupon counts one use of the coupon overall and by the account, each under its
// limit; delta -1 gives a use back.
func (s *Store) useCoupon(t *txn, p orders.Placement, delta int) error {
	if p.Coupon == nil {
		return nil
	}
	c := p.Coupon
	used := expression.Name("used")
	var cond *expression.ConditionBuilder
	if delta > 0 && c.UsageLimit > 0 {
		cond = ptr(used.LessThan(expression.Value(c.UsageLimit)))
	}
	if err := t.update(role{kind: orders.RefusedCoupon}, key(prefixCoupon+c.ID, skItem), s.table,
		expression.Add(used, expression.Value(delta)), cond); err != nil {
		return err
	}
	uses := expression.Name(attrUses)
	cond = nil
	if delta > 0 && c.PerAccountLimit > 0 {
		cond = ptr(expression.AttributeNotExists(uses).Or(uses.LessThan(expression.Value(c.PerAccountLimit))))
	}
	return t.update(role{kind: orders.RefusedCoupon}, couponUseKey(c.ID, p.Order.UID), s.table,
		expression.Add(uses, expression.Value(delta)).Set(expression.Name("uid"), expression.Value(p.Order.UID)), cond)
}

// clearCoupon clears the account's active coupon if the placement says so, on
// condition that it is still the coupon the order was priced with.
func (s *Store) clearCoupon(t *txn, p orders.Placement) error {
	return s.accountUpdate(t, p, true, false)
}

// claimCredit adds what an order on account owes to the account, within its limit.
func (s *Store) claimCredit(t *txn, p orders.Placement) error {
	return s.accountUpdate(t, p, false, true)
}

// accountUpdate adds the one update of the account's profile a placement makes (a
// transaction may write an item once): clearing its active coupon (if clear and the
// placement says so, on condition it is still the coupon the order was priced with),
// and adding what the order owes (if credit and it is on account, on condition the
// account stays within its credit limit, which must be the limit the order was checked
// against).
func (s *Store) accountUpdate(t *txn, p orders.Placement, clear, credit bool) error {
	clear = clear && p.Coupon != nil && p.ClearCoupon
	credit = credit && p.Credit != nil
	if !clear && !credit {
		return nil
	}
	upd := expression.Set(expression.Name("updatedAt"), expression.Value(p.StartedAt.UnixMilli()))
	var conds []expression.ConditionBuilder
	r := role{}
	if clear {
		active := expression.Name("active_coupon_id")
		upd = upd.Remove(active)
		conds = append(conds, active.Equal(expression.Value(CouponPrefix+p.Coupon.ID)))
	}
	if credit {
		owed, limit := expression.Name(attrOwed), expression.Name("creditLimit")
		upd = upd.Add(owed, expression.Value(p.Credit.Amount))
		if l := p.Credit.Limit; l != nil {
			conds = append(conds, limit.Equal(expression.Value(*l)).And(
				expression.AttributeNotExists(owed).Or(owed.LessThanEqual(expression.Value(*l-p.Credit.Amount)))))
		} else {
			conds = append(conds, expression.AttributeNotExists(limit))
		}
		r.kind = orders.RefusedCredit
	}
	cond := conds[0]
	for _, c := range conds[1:] {
		cond = cond.And(c)
	}
	return t.update(r, profileKey(p.Order.UID), s.table, upd, &cond)
}

// stock adds each line's stock change: delta -1 takes the units (if there are enough
// and the product is not discontinued: a failed line's status tells refusal which),
// +1 gives them back (to a discontinued product too).
func (s *Store) stock(t *txn, lines []orders.Line, delta int) error {
	stock, status := expression.Name("stock"), expression.Name("status")
	for _, l := range lines {
		var cond expression.ConditionBuilder
		if delta < 0 {
			cond = stock.GreaterThanEqual(expression.Value(l.Quantity)).And(
				expression.AttributeNotExists(status).Or(status.NotEqual(expression.Value(catalogue.StatusDiscontinued))))
		} else {
			cond = expression.AttributeExists(expression.Name("pk"))
		}
		if err := t.update(role{kind: orders.RefusedStock, sku: l.SKU}, productKey(l.SKU), s.table,
			expression.Add(stock, expression.Value(delta*l.Quantity)), &cond); err != nil {
			return err
		}
	}
	return nil
}

// emptyBasket adds the put of the basket after its order, under cond: no lines, the
// next version, the order that emptied it.
func (s *Store) emptyBasket(t *txn, p orders.Placement, cond expression.ConditionBuilder) error {
	o := p.Order
	item := map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: prefixUser + o.UID}, "sk": &types.AttributeValueMemberS{Value: skBasket},
		attrVersion:     &types.AttributeValueMemberN{Value: fmt.Sprint(p.BasketVersion + 1)},
		attrLineCount:   &types.AttributeValueMemberN{Value: "0"},
		attrLastOrder:   &types.AttributeValueMemberS{Value: o.ID},
		attrLastOrderAt: &types.AttributeValueMemberN{Value: fmt.Sprint(o.PlacedAt.UnixMilli())},
	}
	return t.put(role{kind: orders.RefusedBasket}, s.table, item, cond)
}

func versionIs(v int64) expression.ConditionBuilder {
	return expression.Name(attrVersion).Equal(expression.Value(v)).And(notLocked())
}

// PlaceInOne places an order of up to orders.MaxOneTransaction lines (with its forward
// order, if the checkout has one) in one transaction. A forward order takes no stock and
// gets no to-invoice marker (writeForward).
func (s *Store) PlaceInOne(ctx context.Context, p orders.Placement) error {
	t := &txn{}
	var errs []error
	if p.Order.Forward() {
		errs = append(errs, s.writeForward(t, p.Order, p.ForwardEmails))
	} else {
		errs = append(errs, t.put(role{}, s.table, orderToItem(p.Order), notThere),
			s.stock(t, p.Order.Lines, -1), s.markToInvoice(t, p.Order))
	}
	if p.Forward != nil {
		errs = append(errs, s.writeForward(t, *p.Forward, p.ForwardEmails))
	}
	errs = append(errs,
		s.claimKey(t, p),
		s.emptyBasket(t, p, versionIs(p.BasketVersion)),
		s.useCoupon(t, p, 1),
		s.accountUpdate(t, p, true, true),
	)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("build order %s: %w", p.Order.ID, err)
	}
	return s.run(ctx, t, clientToken(p.Order.UID, p.Token))
}

// Pending record states.
const (
	pendingReserving = "reserving"
	pendingUndoing   = "undoing"
)

type pendingLine struct {
	SKU      string `dynamodbav:"sku"`
	Quantity int    `dynamodbav:"q"`
}

// pendingItem is a large order being placed (pk PENDING, sk its number): what it has
// reserved, so that a sweeper can give it back after a crash.
type pendingItem struct {
	PK        string          `dynamodbav:"pk"`
	SK        string          `dynamodbav:"sk"`
	UID       string          `dynamodbav:"uid"`
	Key       string          `dynamodbav:"key"`
	State     string          `dynamodbav:"state"`
	CreatedAt int64           `dynamodbav:"createdAt"`
	Chunks    [][]pendingLine `dynamodbav:"chunks"`
	Reserved  []int           `dynamodbav:"reserved,numberset,omitempty"`
	CouponID  string          `dynamodbav:"couponId,omitempty"`
	// Credit is what the order added to what its account owes (on account), to give back.
	Credit int64 `dynamodbav:"credit,omitempty"`
}

func pendingKey(id string) map[string]types.AttributeValue { return key(pkPending, id) }

// StartLarge writes the pending record, the key and the coupon's use, and locks the basket.
func (s *Store) StartLarge(ctx context.Context, p orders.Placement) error {
	o := p.Order
	rec := pendingItem{PK: pkPending, SK: o.ID, UID: o.UID, Key: p.Key, State: pendingReserving, CreatedAt: p.StartedAt.UnixMilli()}
	for _, c := range p.Chunks {
		var lines []pendingLine
		for _, l := range c {
			lines = append(lines, pendingLine{SKU: l.SKU, Quantity: l.Quantity})
		}
		rec.Chunks = append(rec.Chunks, lines)
	}
	if p.Coupon != nil {
		rec.CouponID = p.Coupon.ID
	}
	if p.Credit != nil {
		rec.Credit = p.Credit.Amount
	}
	t := &txn{}
	errs := []error{
		t.put(role{}, s.table, rec, notThere),
		s.claimKey(t, p),
		t.update(role{kind: orders.RefusedBasket}, basketItemKey(o.UID), s.table,
			expression.Set(expression.Name(attrPending), expression.Value(o.ID)).Set(expression.Name(attrPendingAt), expression.Value(p.StartedAt.UnixMilli())),
			ptr(versionIs(p.BasketVersion))),
		s.useCoupon(t, p, 1),
		s.claimCredit(t, p),
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("build pending order %s: %w", o.ID, err)
	}
	return s.run(ctx, t, clientToken(o.UID, p.Token+"|start"))
}

// ReserveChunk takes the stock of chunk i and records it on the pending record.
func (s *Store) ReserveChunk(ctx context.Context, p orders.Placement, i int) error {
	t := &txn{}
	state, reserved := expression.Name("state"), expression.Name("reserved")
	errs := []error{
		s.stock(t, p.Chunks[i], -1),
		t.update(role{}, pendingKey(p.Order.ID), s.table,
			expression.Add(reserved, expression.Value(&types.AttributeValueMemberNS{Value: []string{fmt.Sprint(i)}})),
			ptr(state.Equal(expression.Value(pendingReserving)).And(expression.Not(expression.Contains(reserved, i))))),
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("build reservation %s/%d: %w", p.Order.ID, i, err)
	}
	err := s.run(ctx, t, clientToken(p.Order.UID, fmt.Sprintf("%s|chunk%d", p.Token, i)))
	var refused *orders.Refused
	if errors.As(err, &refused) && refused.Kind == orders.RefusedBusy {
		// Reserved already (a retry) is done; a record being undone or gone is a race lost.
		rec, gerr := getItem[pendingItem](ctx, s, pkPending, p.Order.ID)
		if gerr == nil && rec.State == pendingReserving && slices.Contains(rec.Reserved, i) {
			return nil
		}
	}
	return err
}

// CommitLarge writes the order, deletes the pending record (every chunk reserved) and
// empties and unlocks the basket, in one transaction.
func (s *Store) CommitLarge(ctx context.Context, p orders.Placement) error {
	o := p.Order
	t := &txn{}
	errs := []error{
		t.put(role{}, s.table, orderToItem(o), notThere),
		t.del(role{}, s.table, pendingKey(o.ID), expression.Name("state").Equal(expression.Value(pendingReserving)).
			And(expression.Size(expression.Name("reserved")).Equal(expression.Value(len(p.Chunks))))),
		s.emptyBasket(t, p, expression.Name(attrPending).Equal(expression.Value(o.ID))),
		s.clearCoupon(t, p),
		s.markToInvoice(t, o),
	}
	if p.Forward != nil {
		errs = append(errs, s.writeForward(t, *p.Forward, p.ForwardEmails))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("build commit %s: %w", o.ID, err)
	}
	return s.run(ctx, t, clientToken(o.UID, p.Token+"|commit"))
}

// Undo gives back everything a pending large order reserved and deletes its record. Each
// step is a transaction that records its progress on the record, so running Undo again
// after a crash at any point finishes the job and never gives anything back twice.
func (s *Store) Undo(ctx context.Context, id string) error {
	rec, err := getItem[pendingItem](ctx, s, pkPending, id)
	if errors.Is(err, ErrNotFound) {
		return nil // placed, or undone already
	}
	if err != nil {
		return fmt.Errorf("read pending order %s: %w", id, err)
	}
	state, reserved := expression.Name("state"), expression.Name("reserved")
	if rec.State != pendingUndoing {
		// From now on no chunk can be reserved and the order cannot commit.
		t := &txn{}
		if err := t.update(role{}, pendingKey(id), s.table, expression.Set(state, expression.Value(pendingUndoing)),
			ptr(state.Equal(expression.Value(pendingReserving)))); err != nil {
			return err
		}
		if err := s.run(ctx, t, ""); err != nil {
			return fmt.Errorf("mark %s undoing: %w", id, err)
		}
	}
	for _, i := range rec.Reserved {
		var lines []orders.Line
		for _, l := range rec.Chunks[i] {
			lines = append(lines, orders.Line{SKU: l.SKU, Quantity: l.Quantity})
		}
		t := &txn{}
		errs := []error{
			s.stock(t, lines, 1),
			t.update(role{}, pendingKey(id), s.table,
				expression.Delete(reserved, expression.Value(&types.AttributeValueMemberNS{Value: []string{fmt.Sprint(i)}})),
				ptr(expression.Contains(reserved, i))),
		}
		if err := errors.Join(errs...); err != nil {
			return err
		}
		if err := s.run(ctx, t, ""); err != nil {
			var refused *orders.Refused
			if !errors.As(err, &refused) {
				return fmt.Errorf("give back %s/%d: %w", id, i, err)
			}
			// Given back already by an earlier run.
		}
	}
	p := orders.Placement{Order: orders.Order{ID: id, UID: rec.UID}}
	if rec.CouponID != "" {
		// Given back with no limit to check: its limits do not matter to a give-back.
		p.Coupon = &StoredCoupon{}
		p.Coupon.ID = rec.CouponID
	}
	t := &txn{}
	errs := []error{
		t.del(role{}, s.table, pendingKey(id), state.Equal(expression.Value(pendingUndoing)).And(expression.AttributeNotExists(reserved))),
		t.del(role{}, s.table, key(prefixUser+rec.UID, prefixIdem+rec.Key),
			expression.AttributeNotExists(expression.Name("pk")).Or(expression.Name("orderId").Equal(expression.Value(id)))),
		t.update(role{}, basketItemKey(rec.UID), s.table, expression.Remove(expression.Name(attrPending)).Remove(expression.Name(attrPendingAt)),
			ptr(expression.Name(attrPending).Equal(expression.Value(id)))),
		s.useCoupon(t, p, -1),
	}
	if rec.Credit != 0 {
		errs = append(errs, s.owe(t, rec.UID, -rec.Credit))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := s.run(ctx, t, ""); err != nil {
		if _, gerr := getItem[pendingItem](ctx, s, pkPending, id); errors.Is(gerr, ErrNotFound) {
			return nil // another sweeper finished it
		}
		return fmt.Errorf("release %s: %w", id, err)
	}
	return nil
}

// PendingOrders answers the numbers of the large orders pending since before.
func (s *Store) PendingOrders(ctx context.Context, before time.Time) ([]string, error) {
	items, err := partition[pendingItem](ctx, s, pkPending)
	if err != nil {
		return nil, fmt.Errorf("pending orders: %w", err)
	}
	var out []string
	for _, it := range items {
		if it.CreatedAt < before.UnixMilli() {
			out = append(out, it.SK)
		}
	}
	return out, nil
}
