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
// the version moved on, its audit entry), the account's owed balance moves down by
// what invoices on account were allocated, and the account's audit entry is written.
// Credit on account is a payment item too (sk PAYMENT#CN-…, method credit_note), put by
// the credit note's transaction. A refund (sk REFUND#{id}) is put in one transaction
// with its allocation on its source, on the same condition as an allocation's. A card
// payment (method card, docs/payments.md) is recorded by the same transaction as any new
// payment, its id derived from its PaymentIntent so that a second delivery's put fails;
// a flagged one writes its staff notice to the outbox in that transaction.

// prefixPayment keys a payment in its account's partition; prefixRefund a refund.
const (
	prefixPayment = "PAYMENT#"
	prefixRefund  = "REFUND#"
)

// allocationItem is one allocation of a payment: to an invoice (invoice, orderId) or to
// a refund (refund, the invoice 0).
type allocationItem struct {
	Invoice int64  `dynamodbav:"invoice"`
	Refund  string `dynamodbav:"refund,omitempty"`
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
	OrderID     string           `dynamodbav:"orderId,omitempty"` // credit on account's order
	Flag        string           `dynamodbav:"flag,omitempty"`    // why staff must look (a card payment's)
}

func allocationToItem(a payments.Allocation) allocationItem {
	return allocationItem{Invoice: a.Invoice, Refund: a.Refund, OrderID: a.OrderID, Amount: a.Amount, At: a.At.UnixMilli(), ByUID: a.By.UID, ByEmail: a.By.Email}
}

func (a allocationItem) toAllocation() payments.Allocation {
	return payments.Allocation{Invoice: a.Invoice, Refund: a.Refund, OrderID: a.OrderID, Amount: a.Amount,
		At: time.UnixMilli(a.At).UTC(), By: orders.Staff{UID: a.ByUID, Email: a.ByEmail}}
}

func paymentToItem(p payments.Payment) paymentItem {
	it := paymentItem{PK: prefixUser + p.UID, SK: prefixPayment + p.ID, ID: p.ID, UID: p.UID, Method: p.Method, Date: p.Date,
		Amount: p.Amount, Reference: p.Reference, RecordedAt: p.RecordedAt.UnixMilli(), ByUID: p.By.UID, ByEmail: p.By.Email,
		Allocated: p.Allocated, Allocations: []allocationItem{}, OrderID: p.OrderID, Flag: p.Flag}
	for _, a := range p.Allocations {
		it.Allocations = append(it.Allocations, allocationToItem(a))
	}
	return it
}

func (it paymentItem) toPayment() payments.Payment {
	p := payments.Payment{ID: it.ID, UID: it.UID, Method: it.Method, Date: it.Date, Amount: it.Amount, Reference: it.Reference,
		RecordedAt: time.UnixMilli(it.RecordedAt).UTC(), By: orders.Staff{UID: it.ByUID, Email: it.ByEmail}, Allocated: it.Allocated,
		OrderID: it.OrderID, Flag: it.Flag}
	for _, a := range it.Allocations {
		p.Allocations = append(p.Allocations, a.toAllocation())
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

// Payments reads uid's payments, credit on account included (strongly consistent).
func (s *Store) Payments(ctx context.Context, uid string) ([]payments.Payment, error) {
	out, err := accountDocuments(ctx, s, uid, prefixPayment, paymentItem.toPayment)
	if err != nil {
		return nil, fmt.Errorf("payments of %s: %w", uid, err)
	}
	return out, nil
}

// accountDocuments reads the items of uid's partition whose sort key starts with
// prefix (strongly consistent), each as toDoc makes it.
func accountDocuments[T, D any](ctx context.Context, s *Store, uid, prefix string, toDoc func(T) D) ([]D, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(prefixUser + uid)).
		And(expression.Key("sk").BeginsWith(prefix))).Build()
	if err != nil {
		return nil, err
	}
	items, err := queryAll[T](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, err
	}
	out := make([]D, len(items))
	for i, it := range items {
		out[i] = toDoc(it)
	}
	return out, nil
}

// refundItem is a refund as stored.
type refundItem struct {
	PK         string `dynamodbav:"pk"`
	SK         string `dynamodbav:"sk"`
	ID         string `dynamodbav:"id"`
	UID        string `dynamodbav:"uid"`
	Source     string `dynamodbav:"source"`
	Method     string `dynamodbav:"method"`
	Date       string `dynamodbav:"date"`
	Amount     int64  `dynamodbav:"amount"`
	Reference  string `dynamodbav:"reference"`
	RecordedAt int64  `dynamodbav:"recordedAt"`
	ByUID      string `dynamodbav:"byUid"`
	ByEmail    string `dynamodbav:"byEmail"`
	// A refund to a card's (card_refunds.go).
	PaymentIntent string `dynamodbav:"paymentIntent,omitempty"`
	StripeRefund  string `dynamodbav:"stripeRefund,omitempty"`
	Status        string `dynamodbav:"status,omitempty"`
	Failure       string `dynamodbav:"failure,omitempty"`
	OrderID       string `dynamodbav:"orderId,omitempty"`
}

func refundToItem(r payments.Refund) refundItem {
	return refundItem{PK: prefixUser + r.UID, SK: prefixRefund + r.ID, ID: r.ID, UID: r.UID, Source: r.Source, Method: r.Method,
		Date: r.Date, Amount: r.Amount, Reference: r.Reference, RecordedAt: r.RecordedAt.UnixMilli(), ByUID: r.By.UID, ByEmail: r.By.Email,
		PaymentIntent: r.PaymentIntent, StripeRefund: r.StripeRefund, Status: r.Status, Failure: r.Failure, OrderID: r.OrderID}
}

func (it refundItem) toRefund() payments.Refund {
	return payments.Refund{ID: it.ID, UID: it.UID, Source: it.Source, Method: it.Method, Date: it.Date, Amount: it.Amount,
		Reference: it.Reference, RecordedAt: time.UnixMilli(it.RecordedAt).UTC(), By: orders.Staff{UID: it.ByUID, Email: it.ByEmail},
		PaymentIntent: it.PaymentIntent, StripeRefund: it.StripeRefund, Status: it.Status, Failure: it.Failure, OrderID: it.OrderID}
}

// Refunds reads uid's refunds (strongly consistent).
func (s *Store) Refunds(ctx context.Context, uid string) ([]payments.Refund, error) {
	out, err := accountDocuments(ctx, s, uid, prefixRefund, refundItem.toRefund)
	if err != nil {
		return nil, fmt.Errorf("refunds of %s: %w", uid, err)
	}
	return out, nil
}

// WriteRefund writes w in one transaction (see payments.Store): the refund, new; its
// source's allocated total up by its amount and the allocation on its list, on
// condition the source held that much unallocated (allocated <= amount − :took, as an
// allocation's); the account's audit entry.
func (s *Store) WriteRefund(ctx context.Context, w payments.RefundWrite) error {
	r := w.Refund
	t, err := s.refundTxn(w)
	if err != nil {
		return err
	}
	_, err = s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
	if err == nil {
		return nil
	}
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) {
		for i, reason := range cancelled.CancellationReasons {
			// A source short of the amount, or (once in 2^48) a refund id taken: both are
			// read again and tried again with a new id.
			if i < len(t.roles) && aws.ToString(reason.Code) == "ConditionalCheckFailed" {
				return payments.ErrPaymentMoved
			}
		}
	}
	if isTxnConflict(err) {
		return payments.ErrBusy
	}
	return fmt.Errorf("refund %s from %s: %w", r.ID, w.Source.ID, err)
}

// refundTxn builds refund w's transaction: the refund (new: its role roleRefund), its
// allocation on its source (rolePayment, on condition the source still holds the amount)
// and the account's audit entry. A refund to a card adds its marker to it.
func (s *Store) refundTxn(w payments.RefundWrite) (*txn, error) {
	r := w.Refund
	t := &txn{}
	added := []allocationItem{allocationToItem(payments.Allocation{Refund: r.ID, Amount: r.Amount, At: r.RecordedAt, By: r.By})}
	errs := []error{
		t.put(role{kind: roleRefund}, s.table, refundToItem(r), notThere),
		s.takeFrom(t, r.UID, w.Source.ID, w.Source.Amount, r.Amount, added),
		s.putAudit(t, AuditAccount+r.UID, w.Audit),
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("build the refund %s: %w", r.ID, err)
	}
	return t, nil
}

// takeFrom adds to t the update of uid's payment id (or credit on account) that takes took
// of what it holds unallocated, its allocations added on its list. The condition is on
// what it had (allocated <= amount − took), so two writes at once can never take more
// than it holds.
func (s *Store) takeFrom(t *txn, uid, id string, amount, took int64, added []allocationItem) error {
	allocated := expression.Name("allocated")
	return t.update(role{kind: rolePayment}, key(prefixUser+uid, prefixPayment+id), s.table,
		expression.Set(allocated, expression.Plus(allocated, expression.Value(took))).
			Set(expression.Name("allocations"), expression.ListAppend(expression.Name("allocations"), expression.Value(added))),
		ptr(expression.AttributeExists(expression.Name("pk")).And(allocated.LessThanEqual(expression.Value(amount-took)))))
}

// The roles of a payment write's items, to read which condition failed.
const (
	rolePayment = "payment"
	roleInvoice = "invoice"
	roleRefund  = "refund"
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
		// The payment holds what it took before plus what this takes.
		errs = append(errs, s.takeFrom(t, p.UID, p.ID, p.Amount, p.Allocated-w.Seen, added))
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
	for _, m := range w.Messages {
		errs = append(errs, s.putOutbox(t, m, p.RecordedAt))
	}
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
