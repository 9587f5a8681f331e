package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
)

// The accounts package's exports (docs/exports.md) read as the orders export does: the
// staff's ORDERS list in index gsi3 for invoices and credit notes, and for payments and
// refunds every account of the ACCOUNTS list, one query of its partition each (money
// documents live with their account, and no index lists them by date). An export is a
// staff's occasional read, so its cost grows with the shop, as the orders export's does.

// refundExportItem is a refund as the export reads it.
type refundExportItem struct {
	ID        string `dynamodbav:"id"`
	SK        string `dynamodbav:"sk"`
	Date      string `dynamodbav:"date"`
	Amount    int64  `dynamodbav:"amount"`
	Method    string `dynamodbav:"method"`
	Reference string `dynamodbav:"reference"`
	Source    string `dynamodbav:"source"`
}

var _ payments.ExportStore = (*Store)(nil)

// ExportOrders reads every order whose invoice was issued in [from, to), and every order
// with a credit note, in number order.
func (s *Store) ExportOrders(ctx context.Context, from, to time.Time) ([]orders.Order, error) {
	issued := expression.Name("invoice.issuedAt")
	filter := issued.GreaterThanEqual(expression.Value(from.UnixMilli())).And(issued.LessThan(expression.Value(to.UnixMilli()))).
		Or(expression.AttributeExists(expression.Name("creditNotes")))
	list, err := s.listedOrders(ctx, filter)
	if err != nil {
		return nil, fmt.Errorf("orders to export from %s: %w", from.Format(time.DateOnly), err)
	}
	return list, nil
}

// ExportMoney reads every account's payments and refunds dated from day from to day to
// (YYYY-MM-DD, both included), and the names of the accounts.
func (s *Store) ExportMoney(ctx context.Context, from, to string) ([]payments.Payment, []payments.Refund, map[string]payments.AccountName, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("gsi3pk").Equal(expression.Value(pkAccountList))).Build()
	if err != nil {
		return nil, nil, nil, err
	}
	accounts, err := queryAll[profileItem](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), IndexName: aws.String(indexStaff),
		KeyConditionExpression: expr.KeyCondition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("accounts to export: %w", err)
	}
	names := map[string]payments.AccountName{}
	var pays []payments.Payment
	var refunds []payments.Refund
	for _, a := range accounts {
		uid := strings.TrimPrefix(a.PK, prefixUser)
		names[uid] = payments.AccountName{Email: a.Email, Business: a.Business}
		if a.Billing != nil && a.Billing.Company != "" {
			names[uid] = payments.AccountName{Email: a.Email, Business: a.Billing.Company}
		}
		ps, err := datedIn[paymentItem](ctx, s, uid, prefixPayment, from, to)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, it := range ps {
			pays = append(pays, it.toPayment())
		}
		rs, err := datedIn[refundExportItem](ctx, s, uid, prefixRefund, from, to)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, it := range rs {
			id := it.ID
			if id == "" {
				id = strings.TrimPrefix(it.SK, prefixRefund)
			}
			refunds = append(refunds, payments.Refund{ID: id, UID: uid, Date: it.Date, Amount: it.Amount, Method: it.Method,
				Reference: it.Reference, Source: it.Source})
		}
	}
	return pays, refunds, names, nil
}

// datedIn reads account uid's items under prefix whose date (YYYY-MM-DD) is from from to
// to, both included.
func datedIn[T any](ctx context.Context, s *Store, uid, prefix, from, to string) ([]T, error) {
	date := expression.Name("date")
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(prefixUser + uid)).
		And(expression.Key("sk").BeginsWith(prefix))).
		WithFilter(date.Between(expression.Value(from), expression.Value(to))).Build()
	if err != nil {
		return nil, err
	}
	items, err := queryAll[T](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		FilterExpression: expr.Filter(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	if err != nil {
		return nil, fmt.Errorf("%s items of %s to export: %w", strings.TrimSuffix(prefix, "#"), uid, err)
	}
	return items, nil
}
