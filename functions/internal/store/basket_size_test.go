package store

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/orders"
)

// itemSize is an item's size as DynamoDB counts it toward its 400 KB: each attribute's
// name and value in UTF-8 bytes; a number about one byte per two digits plus one; a map
// or list three bytes plus one per element plus its elements.
func itemSize(item map[string]types.AttributeValue) int {
	n := 0
	for name, v := range item {
		n += len(name) + valueSize(v)
	}
	return n
}

func valueSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return int(math.Ceil(float64(len(strings.TrimLeft(v.Value, "-")))/2)) + 1
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberM:
		return 3 + len(v.Value) + itemSize(v.Value)
	case *types.AttributeValueMemberL:
		n := 3 + len(v.Value)
		for _, e := range v.Value {
			n += valueSize(e)
		}
		return n
	}
	return 0
}

// The basket's maximum of lines fits DynamoDB's 400 KB item, as the basket and as the
// order placed from it, with room to spare: SKUs of 64 characters (the longest an id may
// be), names of 200 characters.
func TestMaxBasketFitsAnItem(t *testing.T) {
	t.Parallel()
	const limit = 400 * 1024
	now := time.Now()
	item := map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: prefixUser + strings.Repeat("u", 128)}, "sk": &types.AttributeValueMemberS{Value: skBasket},
		attrVersion: &types.AttributeValueMemberN{Value: "123456"}, attrLineCount: &types.AttributeValueMemberN{Value: fmt.Sprint(basket.MaxLines)},
		attrUpdatedAt: &types.AttributeValueMemberN{Value: fmt.Sprint(now.UnixMilli())},
	}
	o := orders.Order{ID: "TS-1000001", UID: strings.Repeat("u", 128), PlacedAt: now, Status: orders.StatusPlaced, DeliveryOption: "standard",
		Billing: &account.Billing{Company: strings.Repeat("c", 200), Contact: strings.Repeat("c", 200), PaymentMethod: account.PayOnAccount,
			Address: account.Address{Line1: strings.Repeat("a", 200), Line2: strings.Repeat("a", 200), Town: strings.Repeat("t", 100), Postcode: "EX1 2AB"}},
		DeliveryNote: strings.Repeat("n", 300)}
	for i := range basket.MaxLines {
		sku := fmt.Sprintf("%064d", i)
		item[lineQuantity+sku] = &types.AttributeValueMemberN{Value: "10000"}
		item[lineAdded+sku] = &types.AttributeValueMemberN{Value: fmt.Sprint(now.UnixMilli())}
		o.Lines = append(o.Lines, orders.Line{SKU: sku, Name: strings.Repeat("n", 200), PackSize: 100, Quantity: 10000, ListPrice: 99999,
			DiscountPercent: 50, UnitPrice: 99999, LineAmount: 999990000, VATRate: 20, VAT: 199998000})
	}
	basketSize := itemSize(item)
	stored, err := attributevalue.MarshalMap(orderToItem(o))
	if err != nil {
		t.Fatal(err)
	}
	orderSize := itemSize(stored)
	t.Logf("%d lines: basket item %d bytes, order item %d bytes (limit %d)", basket.MaxLines, basketSize, orderSize, limit)
	if basketSize > limit/2 || orderSize > limit*3/4 {
		t.Fatalf("too close to the 400 KB item: basket %d, order %d bytes", basketSize, orderSize)
	}
	// Cancelled, with its credit note of every line: still one item, with room for more
	// notes (its lines keep no description of their own: the order line's is read back).
	inv := orders.NewInvoice(o, config.Shop{DefaultVATRate: 20}, 1, now)
	o.Invoice, o.Status, o.CancelledAt, o.CancelReason = &inv, orders.StatusCancelled, now, strings.Repeat("r", 200)
	o.CreditNotes = []orders.CreditNote{orders.CancellationCreditNote(o, 1)}
	credited, err := attributevalue.MarshalMap(orderToItem(o))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cancelled with its credit note: order item %d bytes", itemSize(credited))
	if size := itemSize(credited); size > limit*3/4 {
		t.Fatalf("a cancelled order of %d lines with its credit note is %d bytes, too close to the 400 KB item", basket.MaxLines, size)
	}
	var back orderItem
	if err := attributevalue.UnmarshalMap(credited, &back); err != nil {
		t.Fatal(err)
	}
	want := o.CreditNotes[0] // its times as stored: Unix ms, UTC
	want.IssuedAt, want.InvoiceDate = time.UnixMilli(want.IssuedAt.UnixMilli()).UTC(), time.UnixMilli(want.InvoiceDate.UnixMilli()).UTC()
	if got := back.toOrder(); !reflect.DeepEqual(got.CreditNotes, []orders.CreditNote{want}) {
		t.Errorf("the credit note read back differs from the one stored: %+v", got.CreditNotes[0].Lines[:1])
	}
}
