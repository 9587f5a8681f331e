package invoicepdf

import (
	"fmt"

	"github.com/signintech/gopdf"

	"github.com/tradeshop/functions/internal/orders"
)

// creditColumns are the columns of a credit note's lines table.
var creditColumns = []column{
	{"SKU", margin, 62, false},
	{"Description", margin + 64, 190, false},
	{"Units", margin + 256, 40, true},
	{"Unit ex VAT", margin + 298, 60, true},
	{"VAT rate", margin + 360, 40, true},
	{"Net ex VAT", margin + 402, 56, true},
	{"VAT", margin + 459, 56, true},
}

// RenderCreditNote draws credit note c of order o: what HMRC asks of a credit note (its
// number and date, the supplier with their address and VAT number, the buyer, the
// number and date of the invoice it credits, each line credited with its units, unit
// price ex VAT and VAT rate, the totals per rate, the VAT credited and the reason).
func RenderCreditNote(o orders.Order, c orders.CreditNote) ([]byte, error) {
	number := orders.CreditNoteNumber(c.Number)
	d, err := newDoc(gopdf.PdfInfo{Title: "VAT credit note " + number, Author: c.Supplier.LegalName,
		Subject: "VAT credit note for order " + o.ID, Creator: c.Supplier.TradingName})
	if err != nil {
		return nil, err
	}
	d.creditHead(o, c)
	d.creditLines(c)
	d.creditSummary(c)
	d.paragraph("Reason: " + c.Reason)
	return d.finish()
}

// creditHead draws the title, the note's numbers and dates, the supplier and the buyer.
func (d *doc) creditHead(o orders.Order, c orders.CreditNote) {
	s := c.Supplier
	d.font(fontBold, headSize)
	d.text(margin, d.y, "VAT credit note")
	d.y += 30
	supplier := supplierLines(s)
	facts := []string{
		"Credit note number " + orders.CreditNoteNumber(c.Number),
		"Credit note date " + orders.InvoiceDate(c.IssuedAt),
		"Credits invoice " + orders.InvoiceNumber(c.Invoice) + " of " + orders.InvoiceDate(c.InvoiceDate),
		"Order number " + o.ID,
	}
	if o.Billing != nil && o.Billing.PORef != "" {
		facts = append(facts, "Your PO reference "+o.Billing.PORef)
	}
	left := d.block(margin, d.y, 250, "Supplier", supplier)
	rightY := d.block(330, d.y, right-330, "Credit note", facts)
	d.y = max(left, rightY) + 10
	buyer := buyerLines(o)
	d.y = d.block(margin, d.y, 250, "Credit to", buyer) + 14
}

// creditLines draws every line credited, and the delivery charge credited if any.
func (d *doc) creditLines(c orders.CreditNote) {
	d.tableHead(creditColumns)
	row := func(sku, name string, units, unit, rate, net, vat string) {
		d.lineRow(creditColumns, name, []string{sku, "", units, unit, rate, net, vat})
	}
	for _, l := range c.Lines {
		row(l.SKU, fmt.Sprintf("%s (packs of %d)", l.Name, l.PackSize), fmt.Sprint(l.Units), orders.Pounds(l.UnitPrice),
			fmt.Sprintf("%d%%", l.VATRate), orders.Pounds(l.NetExVAT), orders.Pounds(l.VAT))
	}
	if c.DeliveryExVAT > 0 || c.DeliveryVAT > 0 {
		row("", "Delivery", "", "", "", orders.Pounds(c.DeliveryExVAT), orders.Pounds(c.DeliveryVAT))
	}
	d.y += 8
}

// creditSummary draws the amounts credited per VAT rate and the totals.
func (d *doc) creditSummary(c orders.CreditNote) {
	d.room(float64(len(c.Rates)+6) * lineH)
	top := d.y
	d.rateTable("VAT credited", c.Rates)
	leftEnd := d.y
	y := top
	for i, t := range [][2]string{{"Total credited ex VAT", orders.Pounds(c.NetExVAT())}, {"VAT credited", orders.Pounds(c.VAT())},
		{"Total credited inc VAT", orders.Pounds(c.TotalIncVAT())}} {
		name := fontReg
		if i == 2 {
			name = fontBold
		}
		d.font(name, bodySize)
		d.text(330, y, t[0])
		d.textRight(right, y, t[1])
		y += lineH + labelGapY/2
	}
	d.y = max(leftEnd, y) + 12
}
