// Package invoicepdf draws an order's VAT invoice as an A4 PDF (signintech/gopdf, with
// the Go fonts embedded, so £, accents and every other character a name may hold print
// as they are on any machine and can be read back as text).
package invoicepdf

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
)

// Page geometry, in points (A4 is 595 × 842).
const (
	margin    = 40.0
	pageW     = 595.0
	pageH     = 842.0
	right     = pageW - margin
	bottom    = pageH - 50 // below it: the footer
	bodySize  = 9.0
	lineH     = 12.0
	headSize  = 18.0
	fontReg   = "regular"
	fontBold  = "bold"
	rowGap    = 3.0
	labelGapY = 4.0
)

// column is one column of the lines table: its header, its left edge and width, and
// whether its figures align right.
type column struct {
	head  string
	x, w  float64
	right bool
}

var columns = []column{
	{"SKU", margin, 62, false},
	{"Description", margin + 64, 165, false},
	{"Units", margin + 231, 34, true},
	{"Unit ex VAT", margin + 267, 52, true},
	{"Discount", margin + 321, 40, true},
	{"VAT rate", margin + 363, 36, true},
	{"Net ex VAT", margin + 401, 56, true},
	{"VAT", margin + 459, 56, true},
}

// Render draws o's VAT invoice. o must have its invoice (o.Invoice); shop names the
// delivery options.
func Render(o orders.Order, shop config.Shop) ([]byte, error) {
	if o.Invoice == nil {
		return nil, fmt.Errorf("order %s has no invoice yet", o.ID)
	}
	d, err := newDoc(gopdf.PdfInfo{Title: "VAT invoice " + orders.InvoiceNumber(o.Invoice.Number), Author: o.Invoice.Supplier.LegalName,
		Subject: "VAT invoice for order " + o.ID, Creator: o.Invoice.Supplier.TradingName})
	if err != nil {
		return nil, err
	}
	d.head(o)
	d.lines(o)
	d.summary(o, shop)
	d.paragraph(o.Invoice.PaymentTerms)
	return d.finish()
}

// doc is a PDF being drawn top to bottom: y is where the next line goes. The first
// error stops the drawing and is kept.
type doc struct {
	pdf  *gopdf.GoPdf
	y    float64
	page int
	err  error
}

// newDoc starts an A4 PDF with info and the regular and bold fonts every document of the
// shop is drawn in, on its first page.
func newDoc(info gopdf.PdfInfo) (*doc, error) {
	d := &doc{pdf: &gopdf.GoPdf{}}
	d.pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	d.pdf.SetInfo(info)
	if err := d.pdf.AddTTFFontData(fontReg, goregular.TTF); err != nil {
		return nil, err
	}
	if err := d.pdf.AddTTFFontData(fontBold, gobold.TTF); err != nil {
		return nil, err
	}
	d.newPage()
	return d, nil
}

// finish answers the PDF drawn, or the first error met drawing it.
func (d *doc) finish() ([]byte, error) {
	if d.err != nil {
		return nil, d.err
	}
	var buf bytes.Buffer
	if _, err := d.pdf.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (d *doc) keep(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *doc) newPage() {
	d.pdf.AddPage()
	d.page++
	d.y = margin
	d.font(fontReg, 8)
	d.pdf.SetTextColor(90, 90, 90)
	d.text(margin, pageH-35, fmt.Sprintf("Page %d", d.page))
	d.pdf.SetTextColor(0, 0, 0)
}

func (d *doc) font(name string, size float64) { d.keep(d.pdf.SetFont(name, "", size)) }

// text writes s with its top left at x, y.
func (d *doc) text(x, y float64, s string) {
	d.pdf.SetXY(x, y)
	d.keep(d.pdf.Cell(nil, s))
}

// textRight writes s ending at x.
func (d *doc) textRight(x, y float64, s string) {
	w, err := d.pdf.MeasureTextWidth(s)
	d.keep(err)
	d.text(x-w, y, s)
}

// wrap splits s into lines no wider than w (words longer than w are cut).
func (d *doc) wrap(s string, w float64) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		if strings.TrimSpace(para) == "" {
			continue
		}
		lines, err := d.pdf.SplitTextWithWordWrap(para, w)
		if err != nil {
			lines, err = d.pdf.SplitText(para, w)
		}
		d.keep(err)
		out = append(out, lines...)
	}
	return out
}

// room starts a new page unless h points fit above the footer; it reports whether it did.
func (d *doc) room(h float64) bool {
	if d.y+h <= bottom {
		return false
	}
	d.newPage()
	return true
}

// block writes a heading and lines under it at x, from y; it answers the y below it.
func (d *doc) block(x, y, w float64, heading string, lines []string) float64 {
	d.font(fontBold, bodySize)
	d.text(x, y, heading)
	y += lineH + 2
	d.font(fontReg, bodySize)
	for _, l := range lines {
		for _, part := range d.wrap(l, w) {
			d.text(x, y, part)
			y += lineH
		}
	}
	return y
}

// head draws the title, the invoice's numbers and dates, the supplier and the buyer.
func (d *doc) head(o orders.Order) {
	inv := o.Invoice
	s := inv.Supplier
	d.font(fontBold, headSize)
	d.text(margin, d.y, "VAT invoice")
	d.y += 30

	supplier := supplierLines(s)
	facts := []string{
		"Invoice number " + orders.InvoiceNumber(inv.Number),
		"Invoice date " + orders.InvoiceDate(inv.IssuedAt),
		"Tax point " + orders.InvoiceDate(inv.IssuedAt),
		"Order number " + o.ID,
	}
	if o.Billing != nil && o.Billing.PORef != "" {
		facts = append(facts, "Your PO reference "+o.Billing.PORef)
	}
	if g := o.PriceGroupName(); g != "" {
		facts = append(facts, "Prices: "+g)
	}
	left := d.block(margin, d.y, 250, "Supplier", supplier)
	rightY := d.block(330, d.y, right-330, "Invoice", facts)
	d.y = max(left, rightY) + 10

	buyer := buyerLines(o)
	var deliver []string
	if o.DeliverTo != nil {
		deliver = append(deliver, address(*o.DeliverTo))
	}
	if o.DeliveryNote != "" {
		deliver = append(deliver, "Note: "+o.DeliveryNote)
	}
	left = d.block(margin, d.y, 250, "Invoice to", buyer)
	rightY = d.block(330, d.y, right-330, "Deliver to", deliver)
	d.y = max(left, rightY) + 14
}

// supplierLines are the supplier's block, as an invoice or credit note names it: legal
// and trading name, registered office, company and VAT numbers.
func supplierLines(s config.Business) []string {
	lines := []string{s.LegalName}
	if s.TradingName != "" && s.TradingName != s.LegalName {
		lines = append(lines, "Trading as "+s.TradingName)
	}
	return append(lines, s.RegisteredAddress,
		fmt.Sprintf("Registered in %s, company number %s", s.RegisteredIn, s.CompanyNumber),
		"VAT registration number "+s.VATNumber)
}

// buyerLines are the buyer's block: company, contact, billing address and VAT number.
func buyerLines(o orders.Order) []string {
	var lines []string
	if b := o.Billing; b != nil {
		lines = append(lines, b.Company, b.Contact, address(b.Address))
		if b.VATNumber != "" {
			lines = append(lines, "VAT registration number "+b.VATNumber)
		}
	}
	return lines
}

func address(a account.Address) string {
	parts := []string{a.Line1}
	if a.Line2 != "" {
		parts = append(parts, a.Line2)
	}
	return strings.Join(append(parts, a.Town, a.Postcode), ", ")
}

// tableHead draws a lines table's header row: the invoice's columns or the credit note's.
func (d *doc) tableHead(cols []column) {
	d.font(fontBold, 8)
	for _, c := range cols {
		if c.right {
			d.textRight(c.x+c.w, d.y, c.head)
		} else {
			d.text(c.x, d.y, c.head)
		}
	}
	d.y += lineH
	d.pdf.SetLineWidth(0.5)
	d.pdf.Line(margin, d.y-2, right, d.y-2)
	d.y += rowGap
	d.font(fontReg, bodySize)
}

// lines draws every line of the order, the header again on each new page.
func (d *doc) lines(o orders.Order) {
	d.tableHead(columns)
	for _, l := range o.Lines {
		discount := ""
		if l.DiscountPercent > 0 {
			discount = fmt.Sprintf("%d%%", l.DiscountPercent)
		}
		description := fmt.Sprintf("%s (packs of %d)", l.Name, l.PackSize)
		if note := l.PriceNote(); note != "" {
			// How the unit price was reached: "£0.85 (list £0.95, 12+ packs £0.90, 5% off)".
			description += ", " + l.PriceText()
		}
		d.lineRow(columns, description, []string{l.SKU, "", fmt.Sprint(l.Quantity),
			orders.Pounds(l.UnitPrice), discount, fmt.Sprintf("%d%%", l.VATRate), orders.Pounds(l.LineAmount), orders.Pounds(l.VAT)})
	}
	d.y += 8
}

// lineRow draws one row of a lines table (the invoice's or the credit note's columns):
// description wrapped in the second column, cells in the others, on a new page with the
// header again when the row does not fit.
func (d *doc) lineRow(cols []column, description string, cells []string) {
	desc := d.wrap(description, cols[1].w)
	if d.room(float64(len(desc))*lineH + rowGap) {
		d.tableHead(cols)
	}
	for i, c := range cols {
		switch {
		case i == 1:
			for k, part := range desc {
				d.text(c.x, d.y+float64(k)*lineH, part)
			}
		case c.right:
			d.textRight(c.x+c.w, d.y, cells[i])
		default:
			d.text(c.x, d.y, cells[i])
		}
	}
	d.y += float64(len(desc))*lineH + rowGap
}

// tableRow draws one row of cells, each on one line, in cols, on a new page with the
// header again when the row does not fit.
func (d *doc) tableRow(cols []column, cells []string) {
	if d.room(lineH + rowGap) {
		d.tableHead(cols)
	}
	for i, c := range cols {
		if c.right {
			d.textRight(c.x+c.w, d.y, cells[i])
		} else {
			d.text(c.x, d.y, cells[i])
		}
	}
	d.y += lineH + rowGap
}

// rateTable draws heading over the net amount and VAT of each VAT rate.
func (d *doc) rateTable(heading string, rates []orders.RateTotal) {
	d.font(fontBold, bodySize)
	d.text(margin, d.y, heading)
	d.y += lineH + 2
	d.font(fontBold, 8)
	d.text(margin, d.y, "VAT rate")
	d.textRight(margin+150, d.y, "Net ex VAT")
	d.textRight(margin+220, d.y, "VAT")
	d.y += lineH
	d.font(fontReg, bodySize)
	for _, r := range rates {
		d.text(margin, d.y, fmt.Sprintf("%d%%", r.Rate))
		d.textRight(margin+150, d.y, orders.Pounds(r.NetExVAT))
		d.textRight(margin+220, d.y, orders.Pounds(r.VAT))
		d.y += lineH
	}
}

// summary draws the VAT per rate and the totals.
func (d *doc) summary(o orders.Order, shop config.Shop) {
	rows := len(o.Invoice.Rates) + 8
	d.room(float64(rows) * lineH)
	top := d.y
	d.rateTable("VAT summary", o.Invoice.Rates)
	leftEnd := d.y

	delivery := "Delivery"
	if opt, ok := orders.Option(shop, o.DeliveryOption); ok {
		delivery = opt.Name
	}
	type total struct {
		label, amount string
		bold          bool
	}
	totals := []total{{"Goods ex VAT", orders.Pounds(o.GoodsExVAT), false}}
	if o.CouponDiscount > 0 {
		totals = append(totals, total{"Coupon " + o.CouponID, orders.Pounds(-o.CouponDiscount), false})
	}
	totals = append(totals,
		total{"Delivery ex VAT", orders.Pounds(o.DeliveryCharge), false},
		total{"Total ex VAT", orders.Pounds(o.NetExVAT), false},
		total{"VAT", orders.Pounds(o.VAT), false},
		total{"Total inc VAT", orders.Pounds(o.TotalIncVAT), true})
	y := top
	d.font(fontReg, 8)
	d.text(330, y, "Delivery: "+delivery)
	y += lineH + 2
	for _, t := range totals {
		name := fontReg
		if t.bold {
			name = fontBold
		}
		d.font(name, bodySize)
		d.text(330, y, t.label)
		d.textRight(right, y, t.amount)
		y += lineH + labelGapY/2
	}
	d.y = max(leftEnd, y) + 12
}

// paragraph writes s across the page.
func (d *doc) paragraph(s string) {
	d.font(fontReg, bodySize)
	for _, l := range d.wrap(s, right-margin) {
		d.room(lineH)
		d.text(margin, d.y, l)
		d.y += lineH
	}
}
