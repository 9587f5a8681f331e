package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ErrExists means a conditional create found the item already there.
var ErrExists = errors.New("already exists")

// OrderLine is one line of a placed order, priced when it was placed (pence):
// LineAmount is Quantity × UnitPrice, the unit price charged.
type OrderLine struct {
	SKU             string `dynamodbav:"sku" json:"sku"`
	Name            string `dynamodbav:"name" json:"name"`
	PackSize        int    `dynamodbav:"packSize" json:"pack_size"`
	Quantity        int    `dynamodbav:"quantity" json:"quantity"`
	ListPrice       int64  `dynamodbav:"listPrice" json:"list_price"`             // the catalogue's unit price
	DiscountPercent int    `dynamodbav:"discountPercent" json:"discount_percent"` // the buyer's discount on the line
	UnitPrice       int64  `dynamodbav:"unitPrice" json:"unit_price"`             // list less the discount: the price charged
	LineAmount      int64  `dynamodbav:"lineAmount" json:"line_amount"`
	VATRate         int    `dynamodbav:"vatRate" json:"vat_rate"`
	VAT             int64  `dynamodbav:"vat" json:"vat"`
}

// fromStoredLine reads a line as stored. Lines stored before list prices were kept
// (no listPrice) hold the list price in unitPrice and a line amount priced on the whole
// line: their list price is that, and their unit price charged is the line amount per
// unit where it divides exactly (otherwise no whole-penny unit price exists and the
// list price stays).
func fromStoredLine(l OrderLine) OrderLine {
	if l.ListPrice != 0 || l.UnitPrice == 0 {
		return l
	}
	l.ListPrice = l.UnitPrice
	if l.Quantity > 0 && l.LineAmount%int64(l.Quantity) == 0 {
		l.UnitPrice = l.LineAmount / int64(l.Quantity)
	}
	return l
}

func (it orderItem) toOrder() Order {
	o := it.Order
	o.Lines = make([]OrderLine, len(it.Lines))
	for i, l := range it.Lines {
		o.Lines[i] = fromStoredLine(l)
	}
	return o
}

// Order is a placed order. Money is pence.
type Order struct {
	ID             string      `dynamodbav:"id" json:"id"` // the human-friendly order number, TS-100001
	UID            string      `dynamodbav:"uid" json:"-"`
	PlacedAt       int64       `dynamodbav:"placedAt" json:"placed_at"` // Unix ms
	Lines          []OrderLine `dynamodbav:"lines" json:"lines"`
	GoodsExVAT     int64       `dynamodbav:"goodsExVat" json:"goods_ex_vat"`
	CouponID       string      `dynamodbav:"couponId,omitempty" json:"coupon_id,omitempty"`
	CouponDiscount int64       `dynamodbav:"couponDiscount" json:"coupon_discount"`
	DeliveryCharge int64       `dynamodbav:"deliveryCharge" json:"delivery_charge"`
	DeliveryOption string      `dynamodbav:"deliveryOption" json:"delivery_option"`
	NetExVAT       int64       `dynamodbav:"netExVat" json:"net_ex_vat"`
	VAT            int64       `dynamodbav:"vat" json:"vat"`
	TotalIncVAT    int64       `dynamodbav:"totalIncVat" json:"total_inc_vat"`
	Status         string      `dynamodbav:"status" json:"status"`
	Billing        *Billing    `dynamodbav:"billing,omitempty" json:"billing,omitempty"`
	DeliverTo      *Address    `dynamodbav:"deliverTo,omitempty" json:"deliver_to,omitempty"`
	DeliveryNote   string      `dynamodbav:"deliveryNote,omitempty" json:"delivery_note,omitempty"`
}

type orderItem struct {
	PK string `dynamodbav:"pk"`
	SK string `dynamodbav:"sk"`
	Order
}

// Claim is an idempotency key's record: the order number it reserved.
type Claim struct {
	OrderID   string `dynamodbav:"orderId"`
	CreatedAt int64  `dynamodbav:"createdAt"`
}

// NextOrderNumber hands out the next human-friendly order number (TS-100001, …) from an
// atomic counter.
func (s *Store) NextOrderNumber(ctx context.Context) (string, error) {
	expr, err := expression.NewBuilder().WithUpdate(expression.Add(expression.Name("n"), expression.Value(1))).Build()
	if err != nil {
		return "", err
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(pkOrderCounter, skItem),
		UpdateExpression: expr.Update(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValues: types.ReturnValueUpdatedNew})
	if err != nil {
		return "", fmt.Errorf("next order number: %w", err)
	}
	var got struct {
		N int64 `dynamodbav:"n"`
	}
	if err := attributevalue.UnmarshalMap(out.Attributes, &got); err != nil {
		return "", err
	}
	return "TS-" + strconv.FormatInt(100000+got.N, 10), nil
}

// ClaimIdempotencyKey records that key (uid's) will make order orderID; if the key was
// claimed before, it answers that earlier claim and ErrExists.
func (s *Store) ClaimIdempotencyKey(ctx context.Context, uid, idemKey, orderID string, at time.Time) (Claim, error) {
	c := Claim{OrderID: orderID, CreatedAt: at.UnixMilli()}
	err := s.putNew(ctx, struct {
		PK  string `dynamodbav:"pk"`
		SK  string `dynamodbav:"sk"`
		TTL int64  `dynamodbav:"ttl"`
		Claim
	}{prefixUser + uid, prefixIdem + idemKey, at.Add(30 * 24 * time.Hour).Unix(), c})
	if errors.Is(err, ErrExists) {
		earlier, gerr := getItem[Claim](ctx, s, prefixUser+uid, prefixIdem+idemKey)
		if gerr != nil {
			return Claim{}, fmt.Errorf("read idempotency key: %w", gerr)
		}
		return earlier, ErrExists
	}
	if err != nil {
		return Claim{}, fmt.Errorf("claim idempotency key: %w", err)
	}
	return c, nil
}

// CreateOrder writes an order unless one with its number exists (ErrExists).
func (s *Store) CreateOrder(ctx context.Context, o Order) error {
	err := s.putNew(ctx, orderItem{PK: prefixUser + o.UID, SK: prefixOrder + o.ID, Order: o})
	if err != nil && !errors.Is(err, ErrExists) {
		return fmt.Errorf("create order %s: %w", o.ID, err)
	}
	return err
}

// Order reads uid's order id; another buyer's order is ErrNotFound, never theirs.
func (s *Store) Order(ctx context.Context, uid, id string) (Order, error) {
	it, err := getItem[orderItem](ctx, s, prefixUser+uid, prefixOrder+id)
	if err != nil {
		return Order{}, fmt.Errorf("order %s: %w", id, err)
	}
	return it.toOrder(), nil
}

// Orders reads uid's orders, newest first.
func (s *Store) Orders(ctx context.Context, uid string) ([]Order, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(prefixUser + uid)).
		And(expression.Key("sk").BeginsWith(prefixOrder))).Build()
	if err != nil {
		return nil, err
	}
	items, err := queryAll[orderItem](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ScanIndexForward: aws.Bool(false)})
	if err != nil {
		return nil, fmt.Errorf("orders of %s: %w", uid, err)
	}
	out := make([]Order, len(items))
	for i, it := range items {
		out[i] = it.toOrder()
	}
	return out, nil
}

// ClearBasket removes every line of uid's basket.
func (s *Store) ClearBasket(ctx context.Context, uid string) error {
	lines, err := s.BasketLines(ctx, uid)
	if err != nil {
		return err
	}
	for _, l := range lines {
		if err := s.RemoveFromBasket(ctx, uid, l.SKU); err != nil {
			return err
		}
	}
	return nil
}
