package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/tradeshop/functions/internal/payments"
)

// The money invariant check (payments.AccountProblems, run by cmd/ordercheck) reads an
// account's items as they are stored, through the private structs below rather than the
// payment and order mappers, so that it reads every attribute the contract of
// docs/invoices.md names (a credit note's applied part, credit on account, refunds and
// an allocation's refund) whether or not the code that writes it has been merged yet,
// and an item written before it (absent: the old meaning) alike.

// heldAllocationItem is an allocation as stored: to an invoice, or to a refund.
type heldAllocationItem struct {
	Invoice int64  `dynamodbav:"invoice"`
	OrderID string `dynamodbav:"orderId"`
	Refund  string `dynamodbav:"refund"`
	Amount  int64  `dynamodbav:"amount"`
}

// heldItem is a payment, or credit on account, as stored (PAYMENT#…).
type heldItem struct {
	SK          string               `dynamodbav:"sk"`
	Method      string               `dynamodbav:"method"`
	Amount      int64                `dynamodbav:"amount"`
	Allocated   int64                `dynamodbav:"allocated"`
	OrderID     string               `dynamodbav:"orderId"`
	Allocations []heldAllocationItem `dynamodbav:"allocations"`
}

// refundSeenItem is a refund as stored (REFUND#…).
type refundSeenItem struct {
	SK     string `dynamodbav:"sk"`
	Amount int64  `dynamodbav:"amount"`
	Source string `dynamodbav:"source"`
}

// appliedItem is what the check reads of an order's credit notes: each one's number and
// its applied part (absent on a note issued before notes kept it).
type appliedItem struct {
	CreditNotes []struct {
		Number  int64  `dynamodbav:"number"`
		Applied *int64 `dynamodbav:"applied"`
	} `dynamodbav:"creditNotes"`
}

// MoneyBooks reads account uid's money for the invariant check: its owed balance, its
// orders, each credit note's applied part, its payments and credit on account, and its
// refunds (strongly consistent). The ledger is left for the caller to draw.
func (s *Store) MoneyBooks(ctx context.Context, uid string) (payments.Books, error) {
	b := payments.Books{UID: uid, Applied: map[int64]int64{}}
	p, err := s.Profile(ctx, uid)
	switch {
	case err == nil:
		b.Owed = p.Owed
	case !errors.Is(err, ErrNotFound):
		return payments.Books{}, err
	}
	if b.Orders, err = s.Orders(ctx, uid); err != nil {
		return payments.Books{}, err
	}
	applied, err := accountItems[appliedItem](ctx, s, uid, prefixOrder, "creditNotes")
	if err != nil {
		return payments.Books{}, err
	}
	for _, o := range applied {
		for _, n := range o.CreditNotes {
			if n.Applied != nil {
				b.Applied[n.Number] = *n.Applied
			}
		}
	}
	held, err := accountItems[heldItem](ctx, s, uid, prefixPayment)
	if err != nil {
		return payments.Books{}, err
	}
	for _, it := range held {
		h := payments.Held{ID: strings.TrimPrefix(it.SK, prefixPayment), Method: it.Method, Amount: it.Amount, Allocated: it.Allocated, OrderID: it.OrderID}
		for _, a := range it.Allocations {
			h.Allocations = append(h.Allocations, payments.HeldAllocation(a))
		}
		b.Held = append(b.Held, h)
	}
	refunds, err := accountItems[refundSeenItem](ctx, s, uid, prefixRefund)
	if err != nil {
		return payments.Books{}, err
	}
	for _, it := range refunds {
		b.Refunds = append(b.Refunds, payments.RefundSeen{ID: strings.TrimPrefix(it.SK, prefixRefund), Source: it.Source, Amount: it.Amount})
	}
	return b, nil
}

// accountItems reads the items of uid's partition whose sort key starts with prefix
// (strongly consistent), only the attributes named when any are (sk is always read).
func accountItems[T any](ctx context.Context, s *Store, uid, prefix string, names ...string) ([]T, error) {
	b := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(prefixUser + uid)).
		And(expression.Key("sk").BeginsWith(prefix)))
	if len(names) > 0 {
		proj := expression.NamesList(expression.Name("sk"))
		for _, n := range names {
			proj = proj.AddNames(expression.Name(n))
		}
		b = b.WithProjection(proj)
	}
	expr, err := b.Build()
	if err != nil {
		return nil, err
	}
	items, err := queryAll[T](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ProjectionExpression: expr.Projection(),
		ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("%s items of %s: %w", strings.TrimSuffix(prefix, "#"), uid, err)
	}
	return items, nil
}
