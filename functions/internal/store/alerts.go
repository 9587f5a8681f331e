package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/alerts"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/outbox"
)

// A back-in-stock alert (docs/alerts.md) is two items written and deleted together in
// one transaction: pk ALERT, sk {sku}#{uid}, which Notify queries by product (begins_with
// {sku}#) and the sweep reads whole; and its mirror pk USER#{uid}, sk ALERT#{sku}, the
// buyer's own list. Both hold every attribute.
const (
	pkAlert     = "ALERT"
	prefixAlert = "ALERT#"
)

var _ alerts.Store = (*Store)(nil)

// alertItem is an alert as stored, either item of the pair.
type alertItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	SKU       string `dynamodbav:"sku"`
	UID       string `dynamodbav:"uid"`
	Email     string `dynamodbav:"email"`
	Name      string `dynamodbav:"name"`
	Path      string `dynamodbav:"path"`
	CreatedAt int64  `dynamodbav:"createdAt"` // Unix ms
}

func alertKey(sku, uid string) map[string]types.AttributeValue { return key(pkAlert, sku+"#"+uid) }
func buyerAlertKey(uid, sku string) map[string]types.AttributeValue {
	return key(prefixUser+uid, prefixAlert+sku)
}

// alertItems are a's two items: the product's and the buyer's.
func alertItems(a alerts.Alert) (alertItem, alertItem) {
	it := alertItem{PK: pkAlert, SK: a.SKU + "#" + a.UID, SKU: a.SKU, UID: a.UID, Email: a.Email, Name: a.Name, Path: a.Path,
		CreatedAt: a.CreatedAt.UnixMilli()}
	mirror := it
	mirror.PK, mirror.SK = prefixUser+a.UID, prefixAlert+a.SKU
	return it, mirror
}

func (it alertItem) toAlert() alerts.Alert {
	return alerts.Alert{SKU: it.SKU, UID: it.UID, Email: it.Email, Name: it.Name, Path: it.Path, CreatedAt: time.UnixMilli(it.CreatedAt).UTC()}
}

// ProductsNow reads the products with these SKUs strongly consistently (a stock write
// just made shows); SKUs with no product are absent from the answer.
func (s *Store) ProductsNow(ctx context.Context, skus []string) (map[string]catalogue.Product, error) {
	return s.products(ctx, skus, true)
}

// PutAlert writes a's two items unless the buyer has an alert of its SKU already, which
// it answers unchanged; alerts.ErrFull when the buyer keeps limit alerts. The limit is
// counted before the write, so two asks at the same moment may pass it by one: it bounds
// what one account keeps, it is not a ledger.
func (s *Store) PutAlert(ctx context.Context, a alerts.Alert, limit int) (alerts.Alert, error) {
	if had, err := getItem[alertItem](ctx, s, prefixUser+a.UID, prefixAlert+a.SKU); err == nil {
		return had.toAlert(), nil
	} else if !errors.Is(err, ErrNotFound) {
		return alerts.Alert{}, fmt.Errorf("alert %s of %s: %w", a.SKU, a.UID, err)
	}
	n, err := s.countAlerts(ctx, a.UID)
	if err != nil {
		return alerts.Alert{}, err
	}
	if n >= limit {
		return alerts.Alert{}, alerts.ErrFull
	}
	it, mirror := alertItems(a)
	t := &txn{}
	if err := errors.Join(t.put(role{}, s.table, it, notThere), t.put(role{}, s.table, mirror, notThere)); err != nil {
		return alerts.Alert{}, fmt.Errorf("build alert %s of %s: %w", a.SKU, a.UID, err)
	}
	_, err = s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
	if conditionFailed(err) || isTxnConflict(err) {
		// The same ask twice at once: the other one's alert is the buyer's.
		had, gerr := getItem[alertItem](ctx, s, prefixUser+a.UID, prefixAlert+a.SKU)
		if gerr != nil {
			return alerts.Alert{}, fmt.Errorf("alert %s of %s: %w", a.SKU, a.UID, err)
		}
		return had.toAlert(), nil
	}
	if err != nil {
		return alerts.Alert{}, fmt.Errorf("put alert %s of %s: %w", a.SKU, a.UID, err)
	}
	return a, nil
}

// countAlerts counts uid's alerts.
func (s *Store) countAlerts(ctx context.Context, uid string) (int, error) {
	expr, err := expression.NewBuilder().
		WithKeyCondition(expression.Key("pk").Equal(expression.Value(prefixUser + uid)).And(expression.Key("sk").BeginsWith(prefixAlert))).Build()
	if err != nil {
		return 0, err
	}
	in := &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), Select: types.SelectCount, ConsistentRead: aws.Bool(true)}
	n := 0
	for p := dynamodb.NewQueryPaginator(s.db, in); p.HasMorePages(); {
		out, err := p.NextPage(ctx)
		if err != nil {
			return 0, fmt.Errorf("count alerts of %s: %w", uid, err)
		}
		n += int(out.Count)
	}
	return n, nil
}

// DeleteAlert deletes uid's alert of sku (both items, in one transaction), if there is one.
func (s *Store) DeleteAlert(ctx context.Context, uid, sku string) error {
	_, err := s.deleteAlert(ctx, uid, sku, nil)
	return err
}

// deleteAlert deletes uid's alert of sku, both items in one transaction, on condition
// cond when it is not nil: deleted false when cond failed.
func (s *Store) deleteAlert(ctx context.Context, uid, sku string, cond *expression.ConditionBuilder) (bool, error) {
	t := &txn{}
	for _, k := range []map[string]types.AttributeValue{alertKey(sku, uid), buyerAlertKey(uid, sku)} {
		if cond == nil {
			t.add(role{}, types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(s.table), Key: k}})
		} else if err := t.del(role{}, s.table, k, *cond); err != nil {
			return false, fmt.Errorf("build alert delete %s of %s: %w", sku, uid, err)
		}
	}
	for try := 0; ; try++ {
		_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
		switch {
		case err == nil:
			return true, nil
		case isTxnConflict(err) && try < alertTries:
			pause(ctx, try)
		case conditionFailed(err):
			return false, nil
		default:
			return false, fmt.Errorf("delete alert %s of %s: %w", sku, uid, err)
		}
	}
}

// alertTries bounds the tries of an alert's transaction that raced another one (a
// notifier and the buyer's remove, two notifiers).
const alertTries = 8

// AlertsOf answers uid's alerts, by SKU.
func (s *Store) AlertsOf(ctx context.Context, uid string) ([]alerts.Alert, error) {
	return s.queryAlerts(ctx, expression.Key("pk").Equal(expression.Value(prefixUser+uid)).And(expression.Key("sk").BeginsWith(prefixAlert)))
}

// AlertsFor answers the alerts waiting for sku, by buyer.
func (s *Store) AlertsFor(ctx context.Context, sku string) ([]alerts.Alert, error) {
	return s.queryAlerts(ctx, expression.Key("pk").Equal(expression.Value(pkAlert)).And(expression.Key("sk").BeginsWith(sku+"#")))
}

// WaitingAlerts answers every waiting alert, by SKU.
func (s *Store) WaitingAlerts(ctx context.Context) ([]alerts.Alert, error) {
	return s.queryAlerts(ctx, expression.Key("pk").Equal(expression.Value(pkAlert)))
}

func (s *Store) queryAlerts(ctx context.Context, cond expression.KeyConditionBuilder) ([]alerts.Alert, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(cond).Build()
	if err != nil {
		return nil, err
	}
	items, err := queryAll[alertItem](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("query alerts: %w", err)
	}
	var out []alerts.Alert
	for _, it := range items {
		out = append(out, it.toAlert())
	}
	return out, nil
}

// SendAlert deletes a's two items and writes its email m to the outbox, in one
// transaction conditioned on a still waiting as read (the same createdAt): sent false
// when it is not (another notifier sent it, or the buyer removed it or asked again).
// A transaction that raced another is tried again, when its condition says which won.
func (s *Store) SendAlert(ctx context.Context, a alerts.Alert, m outbox.Message, now time.Time) (bool, error) {
	same := expression.Name("createdAt").Equal(expression.Value(a.CreatedAt.UnixMilli()))
	t := &txn{}
	if err := errors.Join(
		t.del(role{}, s.table, alertKey(a.SKU, a.UID), same),
		t.del(role{}, s.table, buyerAlertKey(a.UID, a.SKU), same),
		s.putOutbox(t, m, now),
	); err != nil {
		return false, fmt.Errorf("build alert email %s: %w", m.ID, err)
	}
	for try := 0; ; try++ {
		_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
		var cancelled *types.TransactionCanceledException
		switch {
		case err == nil:
			return true, nil
		case errors.As(err, &cancelled) && failedAt(cancelled, 0, 1):
			return false, nil // no longer waiting
		case errors.As(err, &cancelled) && failedAt(cancelled, 2, 3):
			// Its email was written already (the alert written again within the same
			// millisecond after it): the alert is done, so it goes without a second one.
			_, err := s.deleteAlert(ctx, a.UID, a.SKU, &same)
			return false, err
		case isTxnConflict(err) && try < alertTries:
			pause(ctx, try)
			continue
		default:
			return false, fmt.Errorf("send alert %s: %w", m.ID, err)
		}
	}
}

// failedAt reports whether a condition of one of the items at idx failed.
func failedAt(c *types.TransactionCanceledException, idx ...int) bool {
	for _, i := range idx {
		if i < len(c.CancellationReasons) && aws.ToString(c.CancellationReasons[i].Code) == "ConditionalCheckFailed" {
			return true
		}
	}
	return false
}
