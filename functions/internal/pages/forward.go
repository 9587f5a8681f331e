package pages

import "github.com/tradeshop/functions/internal/catalogue"

// ForwardAnswer is a forward product's marking as the buyer's pages and answers carry it
// (docs/forward-orders.md "Marking a product forward"): delivery expected from
// DeliveryFrom, pre-orders taken up to and including OrderBy (ISO dates, London). The
// site compares OrderBy with London's date today, so a page built before the order-by
// date still says the right thing after it. The expected units are staff's only.
type ForwardAnswer struct {
	DeliveryFrom string `json:"delivery_from"`
	OrderBy      string `json:"order_by"`
}

// ForwardOf is p's forward marking as the wire carries it; nil for an ordinary product.
func ForwardOf(p catalogue.Product) *ForwardAnswer {
	if p.Forward == nil {
		return nil
	}
	return &ForwardAnswer{DeliveryFrom: p.Forward.DeliveryFrom, OrderBy: p.Forward.OrderBy}
}
