package store

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/orders"
)

func TestFromStoredLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		in   orderLineItem
		want orders.Line
	}{
		{"a line with its list price is as stored",
			orderLineItem{Quantity: 6, ListPrice: 300, DiscountPercent: 5, UnitPrice: 285, LineAmount: 1710, BasePrice: 300, BreakPrice: 300},
			orders.Line{Quantity: 6, ListPrice: 300, DiscountPercent: 5, UnitPrice: 285, LineAmount: 1710, BasePrice: 300, BreakPrice: 300}},
		{"a line priced at a group's break is as stored",
			orderLineItem{Quantity: 144, ListPrice: 95, DiscountPercent: 5, UnitPrice: 81, LineAmount: 11664, BasePrice: 90, BreakFrom: 12,
				BreakPrice: 85, Group: "independents", GroupName: "Independents"},
			orders.Line{Quantity: 144, ListPrice: 95, DiscountPercent: 5, UnitPrice: 81, LineAmount: 11664, BasePrice: 90, BreakFrom: 12,
				BreakPrice: 85, Group: "independents", GroupName: "Independents"}},
		{"a line stored before breaks and groups was priced from its list price",
			orderLineItem{Quantity: 6, ListPrice: 300, DiscountPercent: 5, UnitPrice: 285, LineAmount: 1710},
			orders.Line{Quantity: 6, ListPrice: 300, DiscountPercent: 5, UnitPrice: 285, LineAmount: 1710, BasePrice: 300, BreakPrice: 300}},
		{"an older line without discount",
			orderLineItem{Quantity: 12, UnitPrice: 65, LineAmount: 780},
			orders.Line{Quantity: 12, ListPrice: 65, UnitPrice: 65, LineAmount: 780, BasePrice: 65, BreakPrice: 65}},
		{"an older discounted line: the unit price charged is the line per unit",
			orderLineItem{Quantity: 6, UnitPrice: 300, LineAmount: 1710},
			orders.Line{Quantity: 6, ListPrice: 300, UnitPrice: 285, LineAmount: 1710, BasePrice: 300, BreakPrice: 300}},
		{"an older line priced on the whole line has no whole-penny unit price",
			orderLineItem{Quantity: 6, UnitPrice: 75, LineAmount: 427},
			orders.Line{Quantity: 6, ListPrice: 75, UnitPrice: 75, LineAmount: 427, BasePrice: 75, BreakPrice: 75}},
		{"a free line", orderLineItem{Quantity: 6}, orders.Line{Quantity: 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := fromStoredLine(tc.in); got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// An invoice reads back with the terms it was issued with: its due date (the ledger's
// overdue, the credit hold) counts from them.
func TestInvoiceKeepsItsTerms(t *testing.T) {
	t.Parallel()
	for _, days := range []int{0, orders.PaymentDays} {
		if got := invoiceToItem(orders.Invoice{Number: 1, TermsDays: days}).toInvoice().TermsDays; got != days {
			t.Errorf("terms of %d days read back as %d", days, got)
		}
	}
}

// A line's pricing is stored under the contract's attribute names, left out when zero,
// and reads back as it was.
func TestOrderLinePricingAttributes(t *testing.T) {
	t.Parallel()
	group := orders.Line{SKU: "GC101-00001", Quantity: 144, PackSize: 12, ListPrice: 95, BasePrice: 90, BreakFrom: 12, BreakPrice: 85,
		DiscountPercent: 5, UnitPrice: 81, LineAmount: 144 * 81, VATRate: 20, Group: "independents", GroupName: "Independents"}
	plain := orders.Line{SKU: "GC101-00002", Quantity: 6, PackSize: 6, ListPrice: 300, BasePrice: 300, BreakPrice: 300, UnitPrice: 300,
		LineAmount: 1800, VATRate: 20}
	item, err := attributevalue.MarshalMap(orderToItem(orders.Order{ID: "TS-100001", Lines: []orders.Line{group, plain}}))
	if err != nil {
		t.Fatal(err)
	}
	lines := item["lines"].(*types.AttributeValueMemberL).Value
	first, second := lines[0].(*types.AttributeValueMemberM).Value, lines[1].(*types.AttributeValueMemberM).Value
	for _, name := range []string{"basePrice", "breakFrom", "breakPrice", "group", "groupName"} {
		if _, ok := first[name]; !ok {
			t.Errorf("a line priced at a group's break is stored without %s", name)
		}
	}
	for _, name := range []string{"breakFrom", "group", "groupName"} {
		if _, ok := second[name]; ok {
			t.Errorf("a line with no break or group is stored with %s", name)
		}
	}
	var back orderItem
	if err := attributevalue.UnmarshalMap(item, &back); err != nil {
		t.Fatal(err)
	}
	if got := back.toOrder().Lines; len(got) != 2 || got[0] != group || got[1] != plain {
		t.Fatalf("read back %+v", got)
	}
}
