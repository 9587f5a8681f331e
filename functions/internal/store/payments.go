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

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
)

// Payments (docs/invoices.md "Payments") are items of their account's partition (pk
// USER#{uid}, sk PAYMENT#{id}), recorded once. An allocation is one transaction: the
// payment's allocated total moves up on condition it stays within the payment (and the
// allocation joins its list), each invoice's order's invoicePaid moves from what was read
// (on condition it is still that, and the order is not being cancelled), an invoice paid in
// full sets its order paid (version moved on, its audit entry, the account's owed balance
// down by its total when on account), and the account's audit entry is written.

// prefixPayment keys a payment in its account's partition.
const prefixPayment = "PAYMENT#"

type allocationItem struct {
	Invoice int64  `dynamodbav:"invoice"`
	OrderID string `dynamodbav:"orderId"`
	Amount  int64  `dynamodbav:"amount"`
	At      int64  `dynamodbav:"at"`
	ByUID   string `dynamodbav:"byUid"`
	ByEmail string `dynamodbav:"byEmail"`
}

// paymentItem is a payment as stored.
type paymentItem struct {
	PK          string           `dynamodbav:"pk"`
	SK          string           `dynamodbav:"sk"`
	ID          string           `dynamodbav:"id"`
	UID         string           `dynamodbav:"uid"`
	Method      string           `dynamodbav:"method"`
	Date        string           `dynamodbav:"date"`
	Amount      int64            `dynamodbav:"amount"`
	Reference   string           `dynamodbav:"reference"`
	RecordedAt  int64            `dynamodbav:"recordedAt"`
	ByUID       string           `dynamodbav:"byUid"`
	ByEmail     string           `dynamodbav:"byEmail"`
	Allocated   int64            `dynamodbav:"allocated"`
	Allocations []allocationItem `dynamodbav:"allocations"`
}

func allocationToItem(a payments.Allocation) allocationItem {
	return allocationItem{Invoice: a.Invoice, OrderID: a.OrderID, Amount: a.Amount, At: a.At.UnixMilli(), ByUID: a.By.UID, ByEmail: a.By.Email}
}

func paymentToItem(p payments.Payment) paymentItem {
	it := paymentItem{PK: prefixUser + p.UID, SK: prefixPayment + p.ID, ID: p.ID, UID: p.UID, Method: p.Method, Date: p.Date,
		Amount: p.Amount, Reference: p.Reference, RecordedAt: p.RecordedAt.UnixMilli(), ByUID: p.By.UID, ByEmail: p.By.Email,
		Allocated: p.Allocated, Allocations: []allocationItem{}}
	for _, a := range p.Allocations {
		it.Allocations = append(it.Allocations, allocationToItem(a))
	}
	return it
}

func (it paymentItem) toPayment() payments.Payment {
	p := payments.Payment{ID: it.ID, UID: it.UID, Method: it.Method, Date: it.Date, Amount: it.Amount, Reference: it.Reference,
		RecordedAt: time.UnixMilli(it.RecordedAt).UTC(), By: orders.Staff{UID: it.ByUID, Email: it.ByEmail}, Allocated: it.Allocated}
	for _, a := range it.Allocations {
		p.Allocations = append(p.Allocations, payments.Allocation{Invoice: a.Invoice, OrderID: a.OrderID, Amount: a.Amount,
			At: time.UnixMilli(a.At).UTC(), By: orders.Staff{UID: a.ByUID, Email: a.ByEmail}})
	}
	return p
}

var _ payments.Store = (*Store)(nil)

// AccountBusiness answers account uid's business name; ErrNotFound when there is none.
func (s *Store) AccountBusiness(ctx context.Context, uid string) (string, error) {
	p, err := s.Profile(ctx, uid)
	if err != nil {
		return "", err
	}
	return p.Business, nil
}

// Payment reads uid's payment id; ErrNotFound when there is none.
func (s *Store) Payment(ctx context.Context, uid, id string) (payments.Payment, error) {
	it, err := getItem[paymentItem](ctx, s, prefixUser+uid, prefixPayment+id)
	if err != nil {
		return payments.Payment{}, fmt.Errorf("payment %s: %w", id, err)
	}
	return it.toPayment(), nil
}

// Payments reads uid's payments (strongly consistent).
func (s *Store) Payments(ctx context.Context, uid string) ([]payments.Payment, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(prefixUser + uid)).
		And(expression.Key("sk").BeginsWith(prefixPayment))).Build()
	if err != nil {
		return nil, err
	}
	items, err := queryAll[paymentItem](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("payments of %s: %w", uid, err)
	}
	out := make([]payments.Payment, len(items))
	for i, it := range items {
		out[i] = it.toPayment()
	}
	return out, nil
}

// The roles of a payment write's items, to read which condition failed.
const (
	rolePayment = "payment"
	roleInvoice = "invoice"
)

// WriteAllocation writes w in one transaction (see payments.Store).
func (s *Store) WriteAllocation(ctx context.Context, w payments.Write) error {
	p := w.Payment
	t := &txn{}
	var errs []error
	if w.New {
		errs = append(errs, t.put(role{kind: rolePayment}, s.table, paymentToItem(p), notThere))
	} else if len(w.Lines) > 0 {
		added := make([]allocationItem, 0, len(w.Lines))
		for _, a := range p.Allocations[len(p.Allocations)-len(w.Lines):] {
			added = append(added, allocationToItem(a))
		}
		allocated := expression.Name("allocated")
		// The payment holds what it took before plus what this takes: the condition is
		// on what it had, so two allocations at once can never take more than it holds.
		errs = append(errs, t.update(role{kind: rolePayment}, key(prefixUser+p.UID, prefixPayment+p.ID), s.table,
			expression.Set(allocated, expression.Plus(allocated, expression.Value(p.Allocated-w.Seen))).
				Set(expression.Name("allocations"), expression.ListAppend(expression.Name("allocations"), expression.Value(added))),
			ptr(expression.AttributeExists(expression.Name("pk")).And(allocated.LessThanEqual(expression.Value(p.Amount-(p.Allocated-w.Seen)))))))
	}
	status, paid := expression.Name("status"), expression.Name("invoicePaid")
	for _, l := range w.Lines {
		inv := l.Invoice
		cond := expression.AttributeExists(expression.Name("invoice")).
			And(status.NotEqual(expression.Value(orders.StatusCancelling))).
			And(status.NotEqual(expression.Value(orders.StatusCancelled))).
			And(expression.AttributeNotExists(expression.Name("paidAt")))
		if inv.Paid == 0 {
			cond = cond.And(expression.AttributeNotExists(paid).Or(paid.Equal(expression.Value(0))))
		} else {
			cond = cond.And(paid.Equal(expression.Value(inv.Paid)))
		}
		// A credit note issued since the invoice was read lowers what it owes: the
		// allocation is planned again (docs/invoices.md "Credit notes and payments").
		notes := expression.Name("creditNotes")
		if inv.Notes == 0 {
			cond = cond.And(expression.AttributeNotExists(notes).Or(expression.Size(notes).Equal(expression.Value(0))))
		} else {
			cond = cond.And(expression.Size(notes).Equal(expression.Value(inv.Notes)))
		}
		upd := expression.Set(paid, expression.Value(inv.Paid+l.Amount))
		if l.Covers {
			upd = upd.Set(expression.Name("paidAt"), expression.Value(l.At.UnixMilli())).
				Add(expression.Name("version"), expression.Value(1))
			errs = append(errs, s.putAudit(t, AuditOrder+inv.OrderID, l.OrderAudit))
		}
		errs = append(errs, t.update(role{kind: roleInvoice}, orderKey(p.UID, inv.OrderID), s.table, upd, &cond))
	}
	if w.OwedDelta != 0 {
		errs = append(errs, s.owe(t, p.UID, w.OwedDelta))
	}
	errs = append(errs, s.putAudit(t, AuditAccount+p.UID, w.Audit))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("build the allocation of %s: %w", p.ID, err)
	}
	_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
	if err == nil {
		return nil
	}
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) {
		// The payment's condition first: a payment short of what the write takes is
		// read again whatever else failed.
		found := ""
		for i, r := range cancelled.CancellationReasons {
			if i < len(t.roles) && aws.ToString(r.Code) == "ConditionalCheckFailed" && (found == "" || t.roles[i].kind == rolePayment) {
				found = t.roles[i].kind
			}
		}
		switch found {
		case rolePayment:
			return payments.ErrPaymentMoved
		case roleInvoice:
			return payments.ErrInvoiceMoved
		case "":
			if isTxnConflict(err) {
				return payments.ErrBusy
			}
		}
		return fmt.Errorf("allocate payment %s: %w", p.ID, err)
	}
	if isTxnConflict(err) {
		return payments.ErrBusy
	}
	return fmt.Errorf("allocate payment %s: %w", p.ID, err)
}
