package orders

import (
	"fmt"
	"strings"
)

// PriceNote says how a line's unit price was reached, as its order, invoice and emails
// show it beside the unit price: "list £0.95, 12+ packs £0.90, 5% off". It is "" for a
// line charged its list price: nothing to explain.
func (l Line) PriceNote() string {
	if l.BreakFrom == 0 && l.DiscountPercent == 0 && l.UnitPrice == l.ListPrice {
		return ""
	}
	parts := []string{"list " + Pounds(l.ListPrice)}
	if l.BasePrice > 0 && l.BasePrice != l.ListPrice {
		parts = append(parts, "group price "+Pounds(l.BasePrice))
	}
	if l.BreakFrom > 0 {
		parts = append(parts, fmt.Sprintf("%d+ packs %s", l.BreakFrom, Pounds(l.BreakPrice)))
	}
	if l.DiscountPercent > 0 {
		parts = append(parts, fmt.Sprintf("%d%% off", l.DiscountPercent))
	}
	return strings.Join(parts, ", ")
}

// PriceText is a line's unit price charged with its PriceNote in brackets: "£0.85 (list
// £0.95, 12+ packs price, 5% off)", or "£0.95" alone. The line amount is the units ×
// the first amount.
func (l Line) PriceText() string {
	if note := l.PriceNote(); note != "" {
		return Pounds(l.UnitPrice) + " (" + note + ")"
	}
	return Pounds(l.UnitPrice)
}

// PriceGroupName is the name of the price group whose rules priced any of the order's
// lines ("" for none): the invoice and the emails say "Prices: Independents". An order
// has one buyer and so at most one group.
func (o Order) PriceGroupName() string {
	for _, l := range o.Lines {
		if l.Group != "" {
			if l.GroupName != "" {
				return l.GroupName
			}
			return l.Group
		}
	}
	return ""
}
