package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/orders"
)

// orderLineItem is one line of an order as stored.
type orderLineItem struct {
	SKU             string `dynamodbav:"sku"`
	Name            string `dynamodbav:"name"`
	PackSize        int    `dynamodbav:"packSize"`
	Quantity        int    `dynamodbav:"quantity"`
	ListPrice       int64  `dynamodbav:"listPrice"`
	DiscountPercent int    `dynamodbav:"discountPercent"`
	UnitPrice       int64  `dynamodbav:"unitPrice"`
	LineAmount      int64  `dynamodbav:"lineAmount"`
	VATRate         int    `dynamodbav:"vatRate"`
	VAT             int64  `dynamodbav:"vat"`
	// How the line was priced (docs/pricing.md "The rule"); absent on lines stored before
	// breaks and price groups, and when zero.
	BasePrice  int64  `dynamodbav:"basePrice,omitempty"`
	BreakFrom  int    `dynamodbav:"breakFrom,omitempty"`
	BreakPrice int64  `dynamodbav:"breakPrice,omitempty"`
	Group      string `dynamodbav:"group,omitempty"`
	GroupName  string `dynamodbav:"groupName,omitempty"`
	// DeliveryFrom is a forward order line's delivery date (ISO).
	DeliveryFrom string `dynamodbav:"deliveryFrom,omitempty"`
	OrderBy      string `dynamodbav:"orderBy,omitempty"`
}

// orderItem is an order as stored (pk USER#{uid}, sk ORDER#{number}).
type orderItem struct {
	PK             string          `dynamodbav:"pk"`
	SK             string          `dynamodbav:"sk"`
	ID             string          `dynamodbav:"id"`
	UID            string          `dynamodbav:"uid"`
	PlacedAt       int64           `dynamodbav:"placedAt"` // Unix ms
	Lines          []orderLineItem `dynamodbav:"lines"`
	GoodsExVAT     int64           `dynamodbav:"goodsExVat"`
	CouponID       string          `dynamodbav:"couponId,omitempty"`
	CouponDiscount int64           `dynamodbav:"couponDiscount"`
	DeliveryCharge int64           `dynamodbav:"deliveryCharge"`
	DeliveryVAT    *int64          `dynamodbav:"deliveryVat"` // absent on orders stored before it was kept
	DeliveryOption string          `dynamodbav:"deliveryOption"`
	NetExVAT       int64           `dynamodbav:"netExVat"`
	VAT            int64           `dynamodbav:"vat"`
	TotalIncVAT    int64           `dynamodbav:"totalIncVat"`
	Status         string          `dynamodbav:"status"`
	Billing        *Billing        `dynamodbav:"billing,omitempty"`
	DeliverTo      *Address        `dynamodbav:"deliverTo,omitempty"`
	DeliveryNote   string          `dynamodbav:"deliveryNote,omitempty"`
	Invoice        *invoiceItem    `dynamodbav:"invoice,omitempty"` // set once, by IssueInvoice
	// CreditNotes are appended to, never changed (creditnote.go).
	CreditNotes []creditNoteItem `dynamodbav:"creditNotes,omitempty"`
	Email       string           `dynamodbav:"email,omitempty"`
	// Version moves on with each staff action (absent, 0, on orders placed before it was kept).
	Version      int64         `dynamodbav:"version"`
	PaidAt       int64         `dynamodbav:"paidAt,omitempty"` // Unix ms, 0: unpaid
	ConfirmedAt  int64         `dynamodbav:"confirmedAt,omitempty"`
	DispatchedAt int64         `dynamodbav:"dispatchedAt,omitempty"`
	CompletedAt  int64         `dynamodbav:"completedAt,omitempty"`
	CancelledAt  int64         `dynamodbav:"cancelledAt,omitempty"`
	Dispatch     *dispatchItem `dynamodbav:"dispatch,omitempty"`
	CancelReason string        `dynamodbav:"cancelReason,omitempty"`
	// InvoicePaid is what payments allocated to the invoice add up to (payments.go).
	InvoicePaid int64 `dynamodbav:"invoicePaid,omitempty"`
	// Card is the latest card payment attempt (card.go): written by StartCardAttempt and
	// SetCardOutcome only, never with the rest of the order.
	Card *cardItem `dynamodbav:"card,omitempty"`
	// Returned are the chunks of lines (orders.ChunkLines each) whose stock a
	// cancellation has given back.
	Returned []int `dynamodbav:"returned,numberset,omitempty"`
	// GSI3PK and GSI3SK list the order for staff (index gsi3: ORDERS, newest number
	// first); Search is what the staff search looks in (lower case).
	GSI3PK string `dynamodbav:"gsi3pk,omitempty"`
	GSI3SK string `dynamodbav:"gsi3sk,omitempty"`
	Search string `dynamodbav:"search,omitempty"`
	// Forward orders and their releases (docs/forward-orders.md).
	Kind         string `dynamodbav:"kind,omitempty"`
	Companion    string `dynamodbav:"companion,omitempty"`
	NoBackorders bool   `dynamodbav:"noBackorders,omitempty"`
	ForwardOf    string `dynamodbav:"forwardOf,omitempty"`
	Receipt      string `dynamodbav:"receipt,omitempty"`
}

type dispatchItem struct {
	Carrier  string `dynamodbav:"carrier"`
	Tracking string `dynamodbav:"tracking"`
}

// orderListSK is an order's sort key in the staff list: its number, zero-padded, so the
// numbers sort as numbers.
func orderListSK(id string) string {
	n, _ := strconv.ParseInt(strings.TrimPrefix(id, "TS-"), 10, 64)
	return fmt.Sprintf("%012d", n)
}

// orderSearchText is what the staff search matches: number, company, contact, PO.
func orderSearchText(o orders.Order) string {
	parts := []string{o.ID}
	if o.Billing != nil {
		parts = append(parts, o.Billing.Company, o.Billing.Contact, o.Billing.PORef)
	}
	parts = append(parts, o.Email)
	return strings.ToLower(strings.Join(parts, " "))
}

func msOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func timeOfMs(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

func orderToItem(o orders.Order) orderItem {
	it := orderItem{PK: prefixUser + o.UID, SK: prefixOrder + o.ID, ID: o.ID, UID: o.UID, PlacedAt: o.PlacedAt.UnixMilli(),
		GoodsExVAT: o.GoodsExVAT, CouponID: o.CouponID, CouponDiscount: o.CouponDiscount, DeliveryCharge: o.DeliveryCharge,
		DeliveryVAT: &o.DeliveryVAT, DeliveryOption: o.DeliveryOption, NetExVAT: o.NetExVAT, VAT: o.VAT, TotalIncVAT: o.TotalIncVAT,
		Status: o.Status, DeliveryNote: o.DeliveryNote, Email: o.Email, Version: o.Version, PaidAt: msOrZero(o.PaidAt),
		ConfirmedAt: msOrZero(o.ConfirmedAt), DispatchedAt: msOrZero(o.DispatchedAt), CompletedAt: msOrZero(o.CompletedAt),
		CancelledAt: msOrZero(o.CancelledAt), CancelReason: o.CancelReason, InvoicePaid: o.InvoicePaid,
		GSI3PK: pkOrderList, GSI3SK: orderListSK(o.ID), Search: orderSearchText(o),
		Kind: o.Kind, Companion: o.Companion, NoBackorders: o.NoBackorders, ForwardOf: o.ForwardOf, Receipt: o.Receipt}
	if o.Card != nil {
		c := cardToItem(*o.Card)
		it.Card = &c
	}
	if o.Dispatch != nil {
		it.Dispatch = &dispatchItem{Carrier: o.Dispatch.Carrier, Tracking: o.Dispatch.Tracking}
	}
	if o.Invoice != nil {
		inv := invoiceToItem(*o.Invoice)
		it.Invoice = &inv
	}
	for _, c := range o.CreditNotes {
		it.CreditNotes = append(it.CreditNotes, creditNoteToItem(c))
	}
	for _, l := range o.Lines {
		it.Lines = append(it.Lines, orderLineItem(l))
	}
	if o.Billing != nil {
		b := BillingOf(*o.Billing)
		it.Billing = &b
	}
	if o.DeliverTo != nil {
		a := AddressOf(*o.DeliverTo)
		it.DeliverTo = &a
	}
	return it
}

// fromStoredLine reads a line as stored. Lines stored before list prices were kept
// (no listPrice) hold the list price in unitPrice and a line amount priced on the whole
// line: their list price is that, and their unit price charged is the line amount per
// unit where it divides exactly (otherwise no whole-penny unit price exists and the
// list price stays). Lines stored before breaks and price groups (no basePrice) were
// priced at the list price with no break and no group.
func fromStoredLine(l orderLineItem) orders.Line {
	if l.ListPrice == 0 && l.UnitPrice != 0 {
		l.ListPrice = l.UnitPrice
		if l.Quantity > 0 && l.LineAmount%int64(l.Quantity) == 0 {
			l.UnitPrice = l.LineAmount / int64(l.Quantity)
		}
	}
	if l.BasePrice == 0 {
		l.BasePrice = l.ListPrice
	}
	if l.BreakPrice == 0 {
		l.BreakPrice = l.BasePrice
	}
	return orders.Line(l)
}

func (it orderItem) toOrder() orders.Order {
	o := orders.Order{ID: it.ID, UID: it.UID, PlacedAt: time.UnixMilli(it.PlacedAt).UTC(), GoodsExVAT: it.GoodsExVAT,
		CouponID: it.CouponID, CouponDiscount: it.CouponDiscount, DeliveryOption: it.DeliveryOption, DeliveryCharge: it.DeliveryCharge,
		NetExVAT: it.NetExVAT, VAT: it.VAT, TotalIncVAT: it.TotalIncVAT, Status: it.Status, DeliveryNote: it.DeliveryNote,
		Email: it.Email, Version: it.Version, PaidAt: timeOfMs(it.PaidAt), ConfirmedAt: timeOfMs(it.ConfirmedAt),
		DispatchedAt: timeOfMs(it.DispatchedAt), CompletedAt: timeOfMs(it.CompletedAt), CancelledAt: timeOfMs(it.CancelledAt),
		CancelReason: it.CancelReason, InvoicePaid: it.InvoicePaid,
		Kind: it.Kind, Companion: it.Companion, NoBackorders: it.NoBackorders, ForwardOf: it.ForwardOf, Receipt: it.Receipt}
	if it.Card != nil {
		o.Card = it.Card.toCardState()
	}
	if it.Dispatch != nil {
		o.Dispatch = &orders.Dispatch{Carrier: it.Dispatch.Carrier, Tracking: it.Dispatch.Tracking}
	}
	if it.DeliveryVAT != nil {
		o.DeliveryVAT = *it.DeliveryVAT
	} else {
		// Orders stored before delivery VAT was kept charged it at 20%.
		o.DeliveryVAT = (it.DeliveryCharge*20 + 50) / 100
	}
	o.Lines = make([]orders.Line, len(it.Lines))
	for i, l := range it.Lines {
		o.Lines[i] = fromStoredLine(l)
	}
	if it.Billing != nil {
		b := it.Billing.toAccount()
		o.Billing = &b
	}
	if it.DeliverTo != nil {
		a := it.DeliverTo.toAccount()
		o.DeliverTo = &a
	}
	if it.Invoice != nil {
		inv := it.Invoice.toInvoice()
		if it.Invoice.TermsDays == nil {
			inv.TermsDays = orders.TermsDaysOf(o)
		}
		o.Invoice = &inv
	}
	for _, c := range it.CreditNotes {
		o.CreditNotes = append(o.CreditNotes, c.toCreditNote(o.Lines))
	}
	return o
}

// NextOrderNumber hands out the next human-friendly order number (TS-100001, …) from an
// atomic counter. A number taken by an attempt that did not place its order is not
// reused: order numbers may have gaps (invoice numbers are another matter).
func (s *Store) NextOrderNumber(ctx context.Context) (string, error) {
	n, err := s.nextNumber(ctx, pkOrderCounter, "order")
	if err != nil {
		return "", err
	}
	return "TS-" + strconv.FormatInt(100000+n, 10), nil
}

// nextNumber adds one to a sequence's counter item (pk) and answers the number, 1 for the
// first; what names the sequence in an error. A number taken and not used is not handed
// out again, so such a sequence may have gaps (the invoice sequence, which may not, is
// kept otherwise: invoice.go).
func (s *Store) nextNumber(ctx context.Context, pk, what string) (int64, error) {
	expr, err := expression.NewBuilder().WithUpdate(expression.Add(expression.Name("n"), expression.Value(1))).Build()
	if err != nil {
		return 0, err
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(pk, skItem),
		UpdateExpression: expr.Update(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValues: types.ReturnValueUpdatedNew})
	if err != nil {
		return 0, fmt.Errorf("next %s number: %w", what, err)
	}
	n, _ := numberOf(out.Attributes["n"])
	return n, nil
}

// keyItem is an idempotency key's record: the order it was used for. It expires (TTL)
// after 30 days.
type keyItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	OrderID   string `dynamodbav:"orderId"`
	CreatedAt int64  `dynamodbav:"createdAt"`
	TTL       int64  `dynamodbav:"ttl"`
}

// OrderIDForKey answers the order uid's idempotency key was used for, "" if none.
func (s *Store) OrderIDForKey(ctx context.Context, uid, idemKey string) (string, error) {
	it, err := getItem[keyItem](ctx, s, prefixUser+uid, prefixIdem+idemKey)
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read idempotency key: %w", err)
	}
	return it.OrderID, nil
}

// Order reads uid's order id; another buyer's order is ErrNotFound, never theirs.
func (s *Store) Order(ctx context.Context, uid, id string) (orders.Order, error) {
	it, err := getItem[orderItem](ctx, s, prefixUser+uid, prefixOrder+id)
	if err != nil {
		return orders.Order{}, fmt.Errorf("order %s: %w", id, err)
	}
	return it.toOrder(), nil
}

// Orders reads uid's orders, newest first.
func (s *Store) Orders(ctx context.Context, uid string) ([]orders.Order, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(prefixUser + uid)).
		And(expression.Key("sk").BeginsWith(prefixOrder))).Build()
	if err != nil {
		return nil, err
	}
	items, err := queryAll[orderItem](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ScanIndexForward: aws.Bool(false),
		ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("orders of %s: %w", uid, err)
	}
	out := make([]orders.Order, len(items))
	for i, it := range items {
		out[i] = it.toOrder()
	}
	return out, nil
}

// OrdersPage reads at most n of uid's orders, newest first, starting after the order
// after (from the newest when ""), and answers the id to start the next page after (""
// when no orders are left). The partition is always uid's: after only says where in it
// to start, so it can never reach another buyer's orders.
func (s *Store) OrdersPage(ctx context.Context, uid, after string, n int) ([]orders.Order, string, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(prefixUser + uid)).
		And(expression.Key("sk").BeginsWith(prefixOrder))).Build()
	if err != nil {
		return nil, "", err
	}
	var start map[string]types.AttributeValue
	if after != "" {
		start = key(prefixUser+uid, prefixOrder+after)
	}
	var items []orderItem
	// One more than the page, to know whether another page follows; a call may stop
	// short of its limit (1 MB read), so read on until the page is full or the orders end.
	for len(items) <= n {
		out, err := s.db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
			ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ScanIndexForward: aws.Bool(false),
			ConsistentRead: aws.Bool(true), Limit: aws.Int32(int32(n + 1 - len(items))), ExclusiveStartKey: start})
		if err != nil {
			return nil, "", fmt.Errorf("orders of %s: %w", uid, err)
		}
		var page []orderItem
		if err := attributevalue.UnmarshalListOfMaps(out.Items, &page); err != nil {
			return nil, "", fmt.Errorf("orders of %s: %w", uid, err)
		}
		items = append(items, page...)
		if out.LastEvaluatedKey == nil {
			break
		}
		start = out.LastEvaluatedKey
	}
	next := ""
	if len(items) > n {
		items = items[:n]
		next = items[n-1].ID
	}
	list := make([]orders.Order, len(items))
	for i, it := range items {
		list[i] = it.toOrder()
	}
	return list, next, nil
}
