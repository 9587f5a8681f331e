package orders

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"time"
)

// ExportColumns are the columns of the staff export, one row per order line
// (docs/back-office.md "Export").
var ExportColumns = []string{"order", "placed_at", "status", "invoice", "account", "business", "po_ref", "payment_method",
	"sku", "name", "quantity", "unit_price", "line_net", "vat_rate", "line_vat", "order_goods_ex_vat", "order_coupon_discount",
	"order_delivery_ex_vat", "order_net_ex_vat", "order_vat", "order_total_inc_vat"}

// decimal formats pence as pounds with two decimals and no symbol (1234.50), for a
// spreadsheet.
func decimal(p int64) string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	return fmt.Sprintf("%s%d.%02d", sign, p/100, p%100)
}

// csvSafe keeps a cell a spreadsheet would read as a formula (=, +, -, @ first) as text.
func csvSafe(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r') {
		return "'" + s
	}
	return s
}

// ExportCSV writes list as the staff export, times in loc.
func ExportCSV(list []Order, loc *time.Location) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(ExportColumns); err != nil {
		return nil, err
	}
	for _, o := range list {
		invoice := ""
		if o.Invoice != nil {
			invoice = InvoiceNumber(o.Invoice.Number)
		}
		business, po, method := "", "", ""
		if o.Billing != nil {
			business, po, method = o.Billing.Company, o.Billing.PORef, o.Billing.PaymentMethod
		}
		for _, l := range o.Lines {
			row := []string{o.ID, o.PlacedAt.In(loc).Format("2006-01-02 15:04"), o.Status, invoice, csvSafe(o.Email), csvSafe(business),
				csvSafe(po), method, csvSafe(l.SKU), csvSafe(l.Name), strconv.Itoa(l.Quantity), decimal(l.UnitPrice), decimal(l.LineAmount),
				strconv.Itoa(l.VATRate), decimal(l.VAT), decimal(o.GoodsExVAT), decimal(o.CouponDiscount), decimal(o.DeliveryCharge),
				decimal(o.NetExVAT), decimal(o.VAT), decimal(o.TotalIncVAT)}
			if err := w.Write(row); err != nil {
				return nil, err
			}
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}
