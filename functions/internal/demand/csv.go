package demand

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strconv"

	"github.com/tradeshop/functions/internal/catimport"
)

// csvHeader is the demand CSV's header: one row per product and account, then the
// product's total row (account "Total").
var csvHeader = []string{"range", "sku", "name", "pack_size", "delivery_from", "order_by", "expected_units", "received_units",
	"account_uid", "company", "email", "orders",
	"ordered_packs", "ordered_units", "open_units", "allocated_packs", "allocated_units",
	"backordered_packs", "backordered_units", "cancelled_packs", "cancelled_units"}

// CSV writes r as a spreadsheet reads it, for the buyer placing the supplier order. Every
// cell staff or buyers typed goes through catimport.SafeCell, so a spreadsheet never runs
// a company name as a formula.
func CSV(r Report) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(csvHeader); err != nil {
		return nil, err
	}
	for _, d := range r.Products {
		p, f := d.Product, forwardOf(d.Product)
		head := []string{p.RangeURLText, p.SKU, catimport.SafeCell(p.Name), strconv.Itoa(p.PackSize), f.DeliveryFrom, f.OrderBy,
			strconv.Itoa(f.Expected), strconv.Itoa(d.Received)}
		row := func(uid, company, email, orders string, u Units) error {
			k := u.Packs(p.PackSize)
			return w.Write(slices.Concat(head, []string{uid, catimport.SafeCell(company), catimport.SafeCell(email), orders,
				strconv.Itoa(k.Ordered), strconv.Itoa(u.Ordered), strconv.Itoa(u.Open), strconv.Itoa(k.Allocated), strconv.Itoa(u.Allocated),
				strconv.Itoa(k.Backordered), strconv.Itoa(u.Backordered), strconv.Itoa(k.Cancelled), strconv.Itoa(u.Cancelled)}))
		}
		orders := 0
		for _, a := range d.Accounts {
			orders += a.Orders
			if err := row(a.UID, a.Company, a.Email, strconv.Itoa(a.Orders), a.Units); err != nil {
				return nil, err
			}
		}
		if err := row("", "Total", "", strconv.Itoa(orders), d.Units); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}
