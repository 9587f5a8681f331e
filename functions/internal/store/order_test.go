package store

import (
	"testing"

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
