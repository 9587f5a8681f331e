package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
)

// Invoice numbers are one gap-free sequence (docs/invoices.md). The counter item
// (COUNTER#INVOICE) holds the last number issued; issuing number n+1 is one transaction
// that moves the counter from n to n+1 (on condition it still holds n), writes the
// invoice on its order (on condition the order has none), records the number (pk INVOICE,
// sk the number: one item per number, so none is issued twice) and deletes the order's
// to-invoice marker. Either all of it is written or none, so a number is never taken
// without its invoice. The placement writes the marker (pk INVOICING, sk the order number)
// with the order, so an order whose invoicing a crash interrupted is found and invoiced
// by the sweep.

// supplierItem is the supplier as an invoice keeps it.
type supplierItem struct {
	TradingName       string `dynamodbav:"tradingName"`
	LegalName         string `dynamodbav:"legalName"`
	RegisteredIn      string `dynamodbav:"registeredIn"`
	RegisteredAddress string `dynamodbav:"registeredAddress"`
	CompanyNumber     string `dynamodbav:"companyNumber"`
	VATNumber         string `dynamodbav:"vatNumber"`
}

type rateItem struct {
	Rate     int   `dynamodbav:"rate"`
	NetExVAT int64 `dynamodbav:"netExVat"`
	VAT      int64 `dynamodbav:"vat"`
}

// invoiceItem is an order's VAT invoice as stored, in its order item (attribute invoice).
type invoiceItem struct {
	Number       int64        `dynamodbav:"number"`
	IssuedAt     int64        `dynamodbav:"issuedAt"` // Unix ms
	Supplier     supplierItem `dynamodbav:"supplier"`
	Rates        []rateItem   `dynamodbav:"rates"`
	PaymentTerms string       `dynamodbav:"paymentTerms"`
	// TermsDays is absent on invoices issued before the terms were kept (issue 35): read
	// as the terms of the order's payment method then, which have not changed since.
	TermsDays *int `dynamodbav:"termsDays,omitempty"`
}

func invoiceToItem(inv orders.Invoice) invoiceItem {
	it := invoiceItem{Number: inv.Number, IssuedAt: inv.IssuedAt.UnixMilli(), Supplier: supplierItem(inv.Supplier),
		PaymentTerms: inv.PaymentTerms, TermsDays: &inv.TermsDays}
	for _, r := range inv.Rates {
		it.Rates = append(it.Rates, rateItem(r))
	}
	return it
}

func (it invoiceItem) toInvoice() orders.Invoice {
	inv := orders.Invoice{Number: it.Number, IssuedAt: time.UnixMilli(it.IssuedAt).UTC(), Supplier: config.Business(it.Supplier),
		PaymentTerms: it.PaymentTerms}
	if it.TermsDays != nil {
		inv.TermsDays = *it.TermsDays
	}
	for _, r := range it.Rates {
		inv.Rates = append(inv.Rates, orders.RateTotal(r))
	}
	return inv
}

// issuedNumberItem records that a number of a gap-free sequence (an invoice's in INVOICE,
// a credit note's in CREDITNOTE) was issued, and to which order.
type issuedNumberItem struct {
	PK       string `dynamodbav:"pk"`
	SK       string `dynamodbav:"sk"`
	Number   int64  `dynamodbav:"number"`
	OrderID  string `dynamodbav:"orderId"`
	UID      string `dynamodbav:"uid"`
	IssuedAt int64  `dynamodbav:"issuedAt"`
}

// invoiceNumberSK keys number's record: zero-padded, so the partition reads in order.
func invoiceNumberSK(n int64) string { return fmt.Sprintf("%012d", n) }

// toInvoiceItem is an order waiting for its invoice (pk INVOICING, sk the order number).
type toInvoiceItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	UID       string `dynamodbav:"uid"`
	CreatedAt int64  `dynamodbav:"createdAt"`
}

// markToInvoice adds the put of o's to-invoice marker to a placement's transaction.
func (s *Store) markToInvoice(t *txn, o orders.Order) error {
	return t.put(role{}, s.table, toInvoiceItem{PK: pkToInvoice, SK: o.ID, UID: o.UID, CreatedAt: o.PlacedAt.UnixMilli()}, notThere)
}

// issueAttempts bounds the tries of one IssueInvoice: each lost race to the counter is
// one, and every round of a race has a winner.
const issueAttempts = 200

// IssueInvoice gives order o (as stored) its VAT invoice: build makes it for the order
// and the number it is to have. An order invoiced already keeps its invoice (the answer
// is the order as stored). It answers the order with its invoice.
func (s *Store) IssueInvoice(ctx context.Context, o orders.Order, build func(o orders.Order, number int64) orders.Invoice, notices func(o orders.Order) []outbox.Message) (orders.Order, error) {
	if o.Invoice != nil {
		// Invoiced already: a marker left by a crash after that is only a leftover.
		return o, s.dropMarker(ctx, o.ID)
	}
	id := o.ID
	last := int64(-1) // the counter as last seen; -1 to read it
	for attempt := 0; attempt < issueAttempts; attempt++ {
		if last < 0 {
			n, err := s.InvoiceCounter(ctx)
			if err != nil {
				return orders.Order{}, err
			}
			last = n
		}
		inv := build(o, last+1)
		var emails []outbox.Message
		if notices != nil {
			invoiced := o
			invoiced.Invoice = &inv
			emails = notices(invoiced)
		}
		err := s.issue(ctx, o, last, inv, emails)
		var cancelled *types.TransactionCanceledException
		switch {
		case err == nil:
			o.Invoice = &inv
			return o, nil
		case errors.As(err, &cancelled):
			reasons := cancelled.CancellationReasons
			code := func(i int) string {
				if i < len(reasons) {
					return aws.ToString(reasons[i].Code)
				}
				return ""
			}
			switch {
			case code(1) == "ConditionalCheckFailed":
				// Invoiced meanwhile (another request, or the sweep), or the order is gone.
				it, err := getItem[orderItem](ctx, s, prefixUser+o.UID, prefixOrder+id)
				if err != nil {
					return orders.Order{}, fmt.Errorf("order %s: %w", id, err)
				}
				if o = it.toOrder(); o.Invoice != nil {
					return o, nil
				}
				return orders.Order{}, fmt.Errorf("invoice %s: the order could not take its invoice", id)
			case code(0) == "ConditionalCheckFailed":
				// Another invoice took the number: the counter's value came back with
				// the refusal, so try the next one at once.
				n, ok := numberOf(reasons[0].Item["n"])
				if !ok {
					n = -1
				}
				last = n
				continue
			case code(2) == "ConditionalCheckFailed":
				return orders.Order{}, fmt.Errorf("invoice %s: number %d is recorded but the counter says %d", id, last+1, last)
			}
		case !isTxnConflict(err):
			return orders.Order{}, fmt.Errorf("invoice %s: %w", id, err)
		}
		// Another transaction held one of the items: read the counter again after a pause.
		last = -1
		pause(ctx, attempt)
	}
	return orders.Order{}, fmt.Errorf("invoice %s: the invoice counter stayed busy for %d attempts", id, issueAttempts)
}

// issue runs the transaction that issues inv for o, the counter holding last.
func (s *Store) issue(ctx context.Context, o orders.Order, last int64, inv orders.Invoice, emails []outbox.Message) error {
	n := expression.Name("n")
	counterCond := n.Equal(expression.Value(last))
	if last == 0 {
		counterCond = expression.AttributeNotExists(n).Or(n.Equal(expression.Value(0)))
	}
	t := &txn{}
	errs := []error{
		t.update(role{}, key(pkInvoiceCounter, skItem), s.table, expression.Set(n, expression.Value(inv.Number)), &counterCond),
		t.update(role{}, key(prefixUser+o.UID, prefixOrder+o.ID), s.table,
			expression.Set(expression.Name("invoice"), expression.Value(invoiceToItem(inv))),
			ptr(expression.AttributeExists(expression.Name("pk")).And(expression.AttributeNotExists(expression.Name("invoice"))))),
		t.put(role{}, s.table, issuedNumberItem{PK: pkInvoice, SK: invoiceNumberSK(inv.Number), Number: inv.Number, OrderID: o.ID,
			UID: o.UID, IssuedAt: inv.IssuedAt.UnixMilli()}, notThere),
	}
	for _, m := range emails {
		errs = append(errs, s.putOutbox(t, m, inv.IssuedAt))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("build invoice %s: %w", o.ID, err)
	}
	t.add(role{}, types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(s.table), Key: key(pkToInvoice, o.ID)}})
	_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
	return err
}

// isTxnConflict reports a transaction refused because another held its items.
func isTxnConflict(err error) bool {
	var conflict *types.TransactionConflictException
	var inProgress *types.TransactionInProgressException
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) {
		for _, r := range cancelled.CancellationReasons {
			if aws.ToString(r.Code) == "TransactionConflict" {
				return true
			}
		}
		return false
	}
	return errors.As(err, &conflict) || errors.As(err, &inProgress)
}

// pause waits a little (jittered, growing up to 50 ms) before another attempt, or until
// ctx ends.
func pause(ctx context.Context, attempt int) {
	d := time.Duration(1+rand.IntN(min(5+5*attempt, 50))) * time.Millisecond
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// InvoiceCounter reads the last invoice number issued (0 before the first).
func (s *Store) InvoiceCounter(ctx context.Context) (int64, error) {
	return s.counter(ctx, pkInvoiceCounter, "invoice")
}

// counter reads the last number a sequence's counter item (pk) issued, 0 before the first;
// what names the sequence in an error.
func (s *Store) counter(ctx context.Context, pk, what string) (int64, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key(pk, skItem),
		ConsistentRead: aws.Bool(true)})
	if err != nil {
		return 0, fmt.Errorf("read the %s counter: %w", what, err)
	}
	n, _ := numberOf(out.Item["n"])
	return n, nil
}

// dropMarker deletes order id's to-invoice marker (there may be none).
func (s *Store) dropMarker(ctx context.Context, id string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(pkToInvoice, id)})
	if err != nil {
		return fmt.Errorf("drop the to-invoice marker of %s: %w", id, err)
	}
	return nil
}

// ToInvoice answers the orders placed before before that still wait for their invoice.
func (s *Store) ToInvoice(ctx context.Context, before time.Time) ([]orders.OrderRef, error) {
	items, err := partition[toInvoiceItem](ctx, s, pkToInvoice)
	if err != nil {
		return nil, fmt.Errorf("orders to invoice: %w", err)
	}
	var out []orders.OrderRef
	for _, it := range items {
		if it.CreatedAt < before.UnixMilli() {
			out = append(out, orders.OrderRef{UID: it.UID, ID: it.SK})
		}
	}
	return out, nil
}

// InvoiceNumbers answers every invoice number issued, in order, with its order: what the
// invariant check reads (one number per invoice, 1 to N with no gap).
func (s *Store) InvoiceNumbers(ctx context.Context) ([]orders.IssuedNumber, error) {
	return s.issuedNumbers(ctx, pkInvoice, "invoice")
}

// issuedNumbers reads every number of a sequence's partition (pk), in order, with its
// order; what names the sequence in an error.
func (s *Store) issuedNumbers(ctx context.Context, pk, what string) ([]orders.IssuedNumber, error) {
	items, err := partition[issuedNumberItem](ctx, s, pk)
	if err != nil {
		return nil, fmt.Errorf("%s numbers: %w", what, err)
	}
	out := make([]orders.IssuedNumber, len(items))
	for i, it := range items {
		out[i] = orders.IssuedNumber{Number: it.Number, Order: orders.OrderRef{UID: it.UID, ID: it.OrderID}}
	}
	return out, nil
}
