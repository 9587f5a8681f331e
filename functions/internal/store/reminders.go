package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/reminders"
)

var _ reminders.Store = (*Store)(nil)

// ForwardProducts reads every product marked forward: one Query of the catalogue index
// (TYPE#PRODUCT), filtered on the fwd attribute, so it reads the whole product list
// (its read capacity) but hands back only the forward products.
func (s *Store) ForwardProducts(ctx context.Context) ([]catalogue.Product, error) {
	in, err := s.byType(typeProduct)
	if err != nil {
		return nil, err
	}
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("gsi2pk").Equal(expression.Value(prefixType + typeProduct))).
		WithFilter(expression.AttributeExists(expression.Name("fwd"))).Build()
	if err != nil {
		return nil, err
	}
	in.KeyConditionExpression, in.FilterExpression = expr.KeyCondition(), expr.Filter()
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = expr.Names(), expr.Values()
	items, err := queryAll[productItem](ctx, s, in)
	if err != nil {
		return nil, fmt.Errorf("forward products: %w", err)
	}
	out := make([]catalogue.Product, 0, len(items))
	for _, it := range items {
		if p := it.toProduct(); p.Forward != nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// BasketsHolding reads the baskets holding a line of any of skus, each with its
// account's email address: the accounts list (pages of ACCOUNTS on gsi3, as the
// statements read it), then every account's basket item, 100 a BatchGetItem. A basket
// exists only for a signed-in buyer, and every buyer who signed in has a profile on
// the list, so no basket is missed.
func (s *Store) BasketsHolding(ctx context.Context, skus []string) ([]reminders.Basket, error) {
	accs, err := s.StatementAccounts(ctx)
	if err != nil {
		return nil, fmt.Errorf("baskets for reminders: %w", err)
	}
	emails := make(map[string]string, len(accs))
	keys := make([]map[string]types.AttributeValue, len(accs))
	for i, a := range accs {
		emails[a.UID] = a.Email
		keys[i] = basketItemKey(a.UID)
	}
	items, err := s.batchGet(ctx, keys, false)
	if err != nil {
		return nil, fmt.Errorf("baskets for reminders: %w", err)
	}
	var out []reminders.Basket
	for _, item := range items {
		uid := strings.TrimPrefix(partitionKeyOf(item), prefixUser)
		b := basketFromItem(item)
		units := map[string]int{}
		for _, l := range b.Lines {
			if slices.Contains(skus, l.SKU) && l.Quantity > 0 {
				units[l.SKU] = l.Quantity
			}
		}
		if len(units) > 0 {
			out = append(out, reminders.Basket{UID: uid, Email: emails[uid], Units: units})
		}
	}
	slices.SortFunc(out, func(a, b reminders.Basket) int { return strings.Compare(a.UID, b.UID) })
	return out, nil
}

// EnqueueReminder writes reminder email m to the outbox: reminders.ErrQueued when its id
// (the buyer's and the order-by date's) is queued already or was sent (Enqueue's
// conditions).
func (s *Store) EnqueueReminder(ctx context.Context, m outbox.Message, now time.Time) error {
	err := s.Enqueue(ctx, m, now)
	if errors.Is(err, ErrQueued) {
		return reminders.ErrQueued
	}
	return err
}
