package api

import (
	"encoding/json"
	"testing"

	"github.com/tradeshop/functions/internal/orders"
)

// An order line's answer says how it was priced: the base price, the break reached (null
// for none) and its price, and the price group's name (null for none).
func TestOrderLineAnswerSaysHowTheLineWasPriced(t *testing.T) {
	t.Parallel()
	o := orders.Order{Lines: []orders.Line{
		{SKU: "GC101-00001", Quantity: 72, PackSize: 6, ListPrice: 95, BasePrice: 90, BreakFrom: 12, BreakPrice: 85, DiscountPercent: 5,
			UnitPrice: 81, LineAmount: 72 * 81, Group: "independents", GroupName: "Independents"},
		{SKU: "GC101-00002", Quantity: 6, PackSize: 6, ListPrice: 300, BasePrice: 300, BreakPrice: 300, UnitPrice: 300, LineAmount: 1800},
	}}
	raw, err := json.Marshal(orderAnswerOf(o))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Lines []map[string]any `json:"lines"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	for i, want := range []map[string]any{
		{"base_price": 90.0, "break_from": 12.0, "break_price": 85.0, "price_group": "Independents", "unit_price": 81.0},
		{"base_price": 300.0, "break_from": nil, "break_price": 300.0, "price_group": nil, "unit_price": 300.0},
	} {
		for k, v := range want {
			if got.Lines[i][k] != v {
				t.Errorf("line %d: %s is %v, want %v", i, k, got.Lines[i][k], v)
			}
		}
	}
}
