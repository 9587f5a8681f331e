package store

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
)

// prefixForward keys the allocation ledger (docs/forward-orders.md): one item per forward
// order line, pk FWD#{sku}, sk forward.LineSK (placed time, then order number), so one
// Query answers a SKU's lines oldest first.
const prefixForward = "FWD#"

// forwardLineItem is one forward order line in the ledger. Open + Allocated + Cancelled =
// Ordered (units) always: each write moves units between them in one update.
type forwardLineItem struct {
	PK           string   `dynamodbav:"pk"`
	SK           string   `dynamodbav:"sk"`
	SKU          string   `dynamodbav:"sku"`
	OrderID      string   `dynamodbav:"orderId"`
	UID          string   `dynamodbav:"uid"`
	Email        string   `dynamodbav:"email,omitempty"`
	Name         string   `dynamodbav:"name"`
	PlacedAt     int64    `dynamodbav:"placedAt"` // Unix ms
	PackSize     int      `dynamodbav:"packSize"`
	Ordered      int      `dynamodbav:"ordered"`
	Open         int      `dynamodbav:"open"`
	Allocated    int      `dynamodbav:"allocated"`
	Cancelled    int      `dynamodbav:"cancelled"`
	NoBackorders bool     `dynamodbav:"noBackorders,omitempty"`
	DeliveryFrom string   `dynamodbav:"deliveryFrom"`
	OrderBy      string   `dynamodbav:"orderBy"`
	Receipts     []string `dynamodbav:"receipts,stringset,omitempty"`
	UnitPrice    int64    `dynamodbav:"unitPrice"`
}

// ForwardLineKey is the key of forward line l in the ledger.
func ForwardLineKey(sku, sk string) map[string]types.AttributeValue {
	return key(prefixForward+sku, sk)
}

func forwardLineToItem(l forward.Line) forwardLineItem {
	return forwardLineItem{PK: prefixForward + l.SKU, SK: l.SK(), SKU: l.SKU, OrderID: l.OrderID, UID: l.UID, Email: l.Email, Name: l.Name,
		PlacedAt: l.PlacedAt.UnixMilli(), PackSize: l.PackSize, Ordered: l.Ordered, Open: l.Open, Allocated: l.Allocated,
		Cancelled: l.Cancelled, NoBackorders: l.NoBackorders, DeliveryFrom: l.DeliveryFrom, OrderBy: l.OrderBy,
		Receipts: l.Receipts, UnitPrice: l.UnitPrice}
}

func (it forwardLineItem) toLine() forward.Line {
	return forward.Line{SKU: it.SKU, OrderID: it.OrderID, UID: it.UID, Email: it.Email, Name: it.Name,
		PlacedAt: time.UnixMilli(it.PlacedAt).UTC(), PackSize: it.PackSize, Ordered: it.Ordered, Open: it.Open,
		Allocated: it.Allocated, Cancelled: it.Cancelled, NoBackorders: it.NoBackorders, DeliveryFrom: it.DeliveryFrom,
		OrderBy: it.OrderBy, Receipts: it.Receipts, UnitPrice: it.UnitPrice}
}

// writeForward adds to a placement's transaction forward order o, its ledger lines (every
// unit open) and its emails: 1 + lines + 2 × emails items. It takes no stock, issues no
// invoice and claims no credit: the goods are not supplied until a delivery is allocated.
func (s *Store) writeForward(t *txn, o orders.Order, emails []outbox.Message) error {
	if err := t.put(role{}, s.table, orderToItem(o), notThere); err != nil {
		return err
	}
	for _, l := range forward.LinesOf(o) {
		if err := t.put(role{}, s.table, forwardLineToItem(l), notThere); err != nil {
			return err
		}
	}
	for _, m := range emails {
		if err := s.putOutbox(t, m, o.PlacedAt); err != nil {
			return err
		}
	}
	return nil
}

// ForwardLines answers every ledger line of sku, oldest first (strongly consistent).
func (s *Store) ForwardLines(ctx context.Context, sku string) ([]forward.Line, error) {
	items, err := partition[forwardLineItem](ctx, s, prefixForward+sku)
	if err != nil {
		return nil, fmt.Errorf("forward lines of %s: %w", sku, err)
	}
	out := make([]forward.Line, len(items))
	for i, it := range items {
		out[i] = it.toLine()
	}
	return out, nil
}

// ForwardLinesOf answers forward order o's ledger lines, in the order's line order, in one
// BatchGetItem (strongly consistent); a line not found (never, for a placed forward
// order) is left out.
func (s *Store) ForwardLinesOf(ctx context.Context, o orders.Order) ([]forward.Line, error) {
	keys := make([]map[string]types.AttributeValue, len(o.Lines))
	for i, l := range o.Lines {
		keys[i] = ForwardLineKey(l.SKU, forward.LineSK(o.PlacedAt, o.ID))
	}
	items, err := s.batchGet(ctx, keys, true)
	if err != nil {
		return nil, fmt.Errorf("forward lines of %s: %w", o.ID, err)
	}
	bySKU := make(map[string]forward.Line, len(items))
	for _, av := range items {
		var it forwardLineItem
		if err := attributevalue.UnmarshalMap(av, &it); err != nil {
			return nil, err
		}
		bySKU[it.SKU] = it.toLine()
	}
	out := make([]forward.Line, 0, len(o.Lines))
	for _, l := range o.Lines {
		if fl, ok := bySKU[l.SKU]; ok {
			out = append(out, fl)
		}
	}
	return out, nil
}
