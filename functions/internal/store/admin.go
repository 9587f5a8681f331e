package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
)

// The staff lists read index gsi3 (docs/back-office.md): ORDERS by number, ACCOUNTS by
// business name, COUPONS by id. A filter (status, search text) is applied while
// reading, so a page reads on until it is full or the list ends.

// ErrChanged is a staff write refused because the thing changed since the page read it.
var ErrChanged = errors.New("changed since it was read")

// staffQueryStep is how many index items one call of a staff list reads.
const staffQueryStep = 100

// ListCursor is where a staff list page starts: the key of the item before it ("" for
// the first page).
type ListCursor struct{ PK, SK, GSI3SK string }

// staffPage reads at most n items of list pk in gsi3 order (descending: newest number
// first) that pass filter (nil: all), starting after from.
func staffPage[T any](ctx context.Context, s *Store, pk string, descending bool, filter *expression.ConditionBuilder, from *ListCursor, n int) ([]T, *ListCursor, error) {
	b := expression.NewBuilder().WithKeyCondition(expression.Key("gsi3pk").Equal(expression.Value(pk)))
	if filter != nil {
		b = b.WithFilter(*filter)
	}
	expr, err := b.Build()
	if err != nil {
		return nil, nil, err
	}
	var start map[string]types.AttributeValue
	if from != nil {
		start = map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: from.PK}, "sk": &types.AttributeValueMemberS{Value: from.SK},
			"gsi3pk": &types.AttributeValueMemberS{Value: pk}, "gsi3sk": &types.AttributeValueMemberS{Value: from.GSI3SK}}
	}
	var raw []map[string]types.AttributeValue
	for {
		out, err := s.db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(s.table), IndexName: aws.String(indexStaff),
			KeyConditionExpression: expr.KeyCondition(), FilterExpression: expr.Filter(), ExpressionAttributeNames: expr.Names(),
			ExpressionAttributeValues: expr.Values(), ScanIndexForward: aws.Bool(!descending), Limit: aws.Int32(staffQueryStep),
			ExclusiveStartKey: start})
		if err != nil {
			return nil, nil, fmt.Errorf("list %s: %w", pk, err)
		}
		raw = append(raw, out.Items...)
		if len(raw) > n {
			raw = raw[:n]
			last := raw[n-1]
			return unmarshalList[T](raw, &ListCursor{PK: stringOf(last["pk"]), SK: stringOf(last["sk"]), GSI3SK: stringOf(last["gsi3sk"])})
		}
		if out.LastEvaluatedKey == nil {
			return unmarshalList[T](raw, nil)
		}
		start = out.LastEvaluatedKey
		if len(raw) == n {
			// Full: a next page exists only if the rest has a match; say there may be one.
			last := raw[n-1]
			return unmarshalList[T](raw, &ListCursor{PK: stringOf(last["pk"]), SK: stringOf(last["sk"]), GSI3SK: stringOf(last["gsi3sk"])})
		}
	}
}

func unmarshalList[T any](raw []map[string]types.AttributeValue, next *ListCursor) ([]T, *ListCursor, error) {
	var items []T
	if err := attributevalue.UnmarshalListOfMaps(raw, &items); err != nil {
		return nil, nil, fmt.Errorf("unmarshal list: %w", err)
	}
	return items, next, nil
}

// searchFilter matches items whose search text holds every word of q (lower case).
func searchFilter(q string) *expression.ConditionBuilder {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return nil
	}
	cond := expression.Contains(expression.Name("search"), words[0])
	for _, w := range words[1:] {
		cond = cond.And(expression.Contains(expression.Name("search"), w))
	}
	return &cond
}

// StaffOrders reads a page of n orders for staff, newest first: of one status ("" for
// all), matching q (its words in the number, company, contact, PO or email; "" for all),
// starting after from.
func (s *Store) StaffOrders(ctx context.Context, status, q string, from *ListCursor, n int) ([]orders.Order, *ListCursor, error) {
	filter := searchFilter(q)
	if status != "" {
		st := expression.Name("status").Equal(expression.Value(status))
		if status == orders.StatusCancelled {
			st = st.Or(expression.Name("status").Equal(expression.Value(orders.StatusCancelling)))
		}
		if filter != nil {
			st = st.And(*filter)
		}
		filter = &st
	}
	items, next, err := staffPage[orderItem](ctx, s, pkOrderList, true, filter, from, n)
	if err != nil {
		return nil, nil, err
	}
	list := make([]orders.Order, len(items))
	for i, it := range items {
		list[i] = it.toOrder()
	}
	return list, next, nil
}

// OrderByID reads order id for staff, whoever placed it: ErrNotFound when there is none.
func (s *Store) OrderByID(ctx context.Context, id string) (orders.Order, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("gsi3pk").Equal(expression.Value(pkOrderList)).
		And(expression.Key("gsi3sk").Equal(expression.Value(orderListSK(id))))).Build()
	if err != nil {
		return orders.Order{}, err
	}
	out, err := s.db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(s.table), IndexName: aws.String(indexStaff),
		KeyConditionExpression: expr.KeyCondition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ProjectionExpression: aws.String("pk, id")})
	if err != nil {
		return orders.Order{}, fmt.Errorf("find order %s: %w", id, err)
	}
	for _, item := range out.Items {
		if stringOf(item["id"]) == id {
			// The index lags the table: read the order itself, as it is now.
			return s.Order(ctx, strings.TrimPrefix(stringOf(item["pk"]), prefixUser), id)
		}
	}
	return orders.Order{}, fmt.Errorf("order %s: %w", id, ErrNotFound)
}

// OrdersPlaced reads every order placed in [from, to), in number order, for the export.
func (s *Store) OrdersPlaced(ctx context.Context, from, to time.Time) ([]orders.Order, error) {
	placed := expression.Name("placedAt")
	filter := placed.GreaterThanEqual(expression.Value(from.UnixMilli())).And(placed.LessThan(expression.Value(to.UnixMilli())))
	list, err := s.listedOrders(ctx, filter)
	if err != nil {
		return nil, fmt.Errorf("orders placed from %s: %w", from.Format(time.DateOnly), err)
	}
	return list, nil
}

// listedOrders reads the orders of the staff's order list (its index) that filter keeps,
// in number order.
func (s *Store) listedOrders(ctx context.Context, filter expression.ConditionBuilder) ([]orders.Order, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("gsi3pk").Equal(expression.Value(pkOrderList))).
		WithFilter(filter).Build()
	if err != nil {
		return nil, err
	}
	items, err := queryAll[orderItem](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), IndexName: aws.String(indexStaff),
		KeyConditionExpression: expr.KeyCondition(), FilterExpression: expr.Filter(), ExpressionAttributeNames: expr.Names(),
		ExpressionAttributeValues: expr.Values()})
	if err != nil {
		return nil, err
	}
	list := make([]orders.Order, len(items))
	for i, it := range items {
		list[i] = it.toOrder()
	}
	return list, nil
}

// StaffAccounts reads a page of n trade accounts for staff, by business name, matching
// q (its words in the business name or email; "" for all), starting after from.
func (s *Store) StaffAccounts(ctx context.Context, q string, from *ListCursor, n int) ([]Profile, *ListCursor, error) {
	items, next, err := staffPage[profileItem](ctx, s, pkAccountList, false, searchFilter(q), from, n)
	if err != nil {
		return nil, nil, err
	}
	list := make([]Profile, len(items))
	for i, it := range items {
		list[i] = it.toProfile(strings.TrimPrefix(it.PK, prefixUser))
	}
	return list, next, nil
}

// AccountChange is a staff change of an account's credit, discounts and price group, on condition
// the profile is still as the page read it (its updatedAt).
type AccountChange struct {
	UID               string
	Seen              time.Time // the profile's UpdatedAt the page read
	ApprovedForCredit bool
	CreditLimit       *int64
	DSC               string
	PriceGroup        string // the group's id; "" for none
	Audit             orders.AuditEntry
}

// ChangeAccount writes c and its audit entry in one transaction; ErrChanged when the
// profile changed since it was read, ErrNotFound when there is none.
func (s *Store) ChangeAccount(ctx context.Context, c AccountChange) error {
	upd := expression.Set(expression.Name("approvedForCredit"), expression.Value(c.ApprovedForCredit)).
		Set(expression.Name("updatedAt"), expression.Value(c.Audit.At.UnixMilli()))
	if c.CreditLimit != nil {
		upd = upd.Set(expression.Name("creditLimit"), expression.Value(*c.CreditLimit))
	} else {
		upd = upd.Remove(expression.Name("creditLimit"))
	}
	if c.DSC != "" {
		upd = upd.Set(expression.Name("dsc"), expression.Value(c.DSC))
	} else {
		upd = upd.Remove(expression.Name("dsc"))
	}
	if c.PriceGroup != "" {
		upd = upd.Set(expression.Name("pg"), expression.Value(c.PriceGroup))
	} else {
		upd = upd.Remove(expression.Name("pg"))
	}
	t := &txn{}
	errs := []error{
		t.update(role{}, profileKey(c.UID), s.table, upd, ptr(expression.Name("updatedAt").Equal(expression.Value(c.Seen.UnixMilli())))),
		s.putAudit(t, AuditAccount+c.UID, c.Audit),
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return changed(s.run(ctx, t, ""))
}

// changed turns a transaction's refused condition into ErrChanged.
func changed(err error) error {
	var refused *orders.Refused
	if errors.As(err, &refused) {
		return ErrChanged
	}
	return err
}

// CouponChange is a staff change of a coupon: created (Create: its id must be new) or
// edited on condition it is still at the version the page read.
type CouponChange struct {
	Coupon StoredCoupon
	Create bool
	Seen   int64 // the version the page read (edits)
	Audit  orders.AuditEntry
}

// ChangeCoupon writes c and its audit entry in one transaction: ErrChanged when the
// coupon changed since it was read, or (Create) its id is taken. Uses so far are never
// written here: orders count them.
func (s *Store) ChangeCoupon(ctx context.Context, c CouponChange) error {
	cp := c.Coupon
	t := &txn{}
	var err error
	if c.Create {
		err = t.put(role{}, s.table, couponItem{PK: prefixCoupon + cp.ID, SK: skItem, ID: cp.ID, Description: cp.Description, Kind: cp.Kind,
			Percent: cp.Percent, AmountPence: cp.AmountPence, MinSpendPence: cp.MinSpendPence, ValidFrom: unixOrZero(cp.ValidFrom),
			ValidTo: unixOrZero(cp.ValidTo), UsageLimit: cp.UsageLimit, PerAccount: cp.PerAccountLimit, AccountUID: cp.AccountUID,
			Version: 1, GSI3PK: pkCouponList, GSI3SK: cp.ID}, notThere)
	} else {
		version := expression.Name("version")
		cond := version.Equal(expression.Value(c.Seen))
		if c.Seen == 0 {
			cond = expression.AttributeNotExists(version).Or(cond)
		}
		cond = expression.AttributeExists(expression.Name("pk")).And(cond)
		upd := expression.Set(expression.Name("description"), expression.Value(cp.Description)).
			Set(expression.Name("kind"), expression.Value(cp.Kind)).
			Set(expression.Name("percent"), expression.Value(cp.Percent)).
			Set(expression.Name("amountPence"), expression.Value(cp.AmountPence)).
			Set(expression.Name("minSpendPence"), expression.Value(cp.MinSpendPence)).
			Set(expression.Name("validFrom"), expression.Value(unixOrZero(cp.ValidFrom))).
			Set(expression.Name("validTo"), expression.Value(unixOrZero(cp.ValidTo))).
			Set(expression.Name("usageLimit"), expression.Value(cp.UsageLimit)).
			Set(expression.Name("perAccountLimit"), expression.Value(cp.PerAccountLimit)).
			Set(version, expression.Value(c.Seen+1)).
			Set(expression.Name("gsi3pk"), expression.Value(pkCouponList)).
			Set(expression.Name("gsi3sk"), expression.Value(cp.ID))
		err = t.update(role{}, key(prefixCoupon+cp.ID, skItem), s.table, upd, &cond)
	}
	if err = errors.Join(err, s.putAudit(t, AuditCoupon+cp.ID, c.Audit)); err != nil {
		return err
	}
	return changed(s.run(ctx, t, ""))
}

// StaffCoupon is a coupon with its version, for staff.
type StaffCoupon struct {
	StoredCoupon
	Version int64
}

// Coupons reads every coupon, by id, for staff.
func (s *Store) Coupons(ctx context.Context) ([]StaffCoupon, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("gsi3pk").Equal(expression.Value(pkCouponList))).Build()
	if err != nil {
		return nil, err
	}
	items, err := queryAll[couponItem](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), IndexName: aws.String(indexStaff),
		KeyConditionExpression: expr.KeyCondition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	if err != nil {
		return nil, fmt.Errorf("coupons: %w", err)
	}
	out := make([]StaffCoupon, len(items))
	for i, it := range items {
		out[i] = StaffCoupon{StoredCoupon: it.toCoupon(), Version: it.Version}
	}
	return out, nil
}

// StaffCouponByID reads one coupon with its version.
func (s *Store) StaffCouponByID(ctx context.Context, id string) (StaffCoupon, error) {
	it, err := getItem[couponItem](ctx, s, prefixCoupon+id, skItem)
	if err != nil {
		return StaffCoupon{}, fmt.Errorf("coupon %s: %w", id, err)
	}
	return StaffCoupon{StoredCoupon: it.toCoupon(), Version: it.Version}, nil
}

// StockChange is a staff change of a product's stock to To, on condition it is still
// From (what the change was worked out from).
type StockChange struct {
	SKU      string
	From, To int
	Audit    orders.AuditEntry
}

// ChangeStock writes c and its audit entry in one transaction: ErrChanged when the
// stock is no longer c.From (an order took some meanwhile), ErrNotFound when there is
// no such product.
func (s *Store) ChangeStock(ctx context.Context, c StockChange) error {
	stock := expression.Name("stock")
	t := &txn{}
	errs := []error{
		t.update(role{}, productKey(c.SKU), s.table, expression.Set(stock, expression.Value(c.To)),
			ptr(expression.AttributeExists(expression.Name("pk")).And(stock.Equal(expression.Value(c.From))))),
		s.putAudit(t, AuditProduct+c.SKU, c.Audit),
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return changed(s.run(ctx, t, ""))
}

// Product reads one product as it is now (strongly consistent): ErrNotFound when there
// is none.
func (s *Store) Product(ctx context.Context, sku string) (catalogue.Product, error) {
	it, err := getItem[productItem](ctx, s, prefixProduct+sku, skItem)
	if err != nil {
		return catalogue.Product{}, fmt.Errorf("product %s: %w", sku, err)
	}
	return it.toProduct(), nil
}
