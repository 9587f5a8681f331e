package invoicepdf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pdftext"
)

// Text reads back the text of a PDF with a PDF text extractor, the way an accounts
// package or a search index would.
func Text(t testing.TB, doc []byte) string {
	t.Helper()
	text, err := pdftext.Of(doc)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// pdfWords fails t unless doc is a PDF drawn without error, and answers its text with
// its lines joined by single spaces: a wrapped sentence reads as one.
func pdfWords(t *testing.T, doc []byte, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(doc, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", doc[:16])
	}
	return strings.Join(strings.Fields(Text(t, doc)), " ")
}

// holds fails t for each of want that text lacks.
func holds(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("the PDF's text lacks %q:\n%s", w, text)
		}
	}
}

func order(lines int) orders.Order {
	o := orders.Order{ID: "TS-100042", PlacedAt: time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC), DeliveryOption: "standard",
		Billing: &account.Billing{Company: "Corner Cards Ltd", Contact: "Ann Example", VATNumber: "GB123456789", PORef: "PO-77",
			PaymentMethod: account.PayOnAccount, Address: account.Address{Line1: "2 Market St", Town: "Leeds", Postcode: "LS1 1AA"}},
		DeliverTo: &account.Address{Line1: "Back door, 2 Market St", Town: "Leeds", Postcode: "LS1 1AA"}}
	for i := range lines {
		rate := []int{20, 5, 0}[i%3]
		l := orders.Line{SKU: fmt.Sprintf("GC101-%05d", i), Name: fmt.Sprintf("Christmas card, robin on a snowy gate, assorted verses %d", i),
			PackSize: 6, Quantity: 12, ListPrice: 300, DiscountPercent: 5, UnitPrice: 285, LineAmount: 3420, VATRate: rate, VAT: 3420 * int64(rate) / 100}
		o.Lines = append(o.Lines, l)
		o.GoodsExVAT += l.LineAmount
		o.VAT += l.VAT
	}
	o.DeliveryCharge, o.DeliveryVAT = 795, 159
	o.NetExVAT = o.GoodsExVAT + o.DeliveryCharge
	o.VAT += o.DeliveryVAT
	o.TotalIncVAT = o.NetExVAT + o.VAT
	shop := config.Shop{DefaultVATRate: 20, Business: config.Business{TradingName: "TradeShop Wholesale", LegalName: "TradeShop Wholesale Limited",
		RegisteredIn: "England and Wales", RegisteredAddress: "Unit 4, Meadow Lane, Exampleton, EX1 2AB", CompanyNumber: "01234567", VATNumber: "GB987654321"}}
	inv := orders.NewInvoice(o, shop, 42, o.PlacedAt)
	o.Invoice = &inv
	return o
}

func TestRenderHoldsWhatAVATInvoiceMust(t *testing.T) {
	t.Parallel()
	o := order(3)
	doc, err := Render(o, config.Shop{DeliveryOptions: []config.DeliveryOption{{ID: "standard", Name: "Standard UK mainland delivery"}}})
	text := pdfWords(t, doc, err)
	holds(t, text,
		"VAT invoice", "TradeShop Wholesale Limited", "Trading as TradeShop Wholesale", "Unit 4, Meadow Lane, Exampleton, EX1 2AB",
		"company number 01234567", "VAT registration number GB987654321",
		"Invoice number INV-000042", "Invoice date 24 November 2026", "Tax point 24 November 2026", "Order number TS-100042",
		"Your PO reference PO-77", "Corner Cards Ltd", "VAT registration number GB123456789", "Back door, 2 Market St",
		"GC101-00000", "£2.85", "5%", "£34.20", "Standard UK mainland delivery",
		"VAT summary", "Total inc VAT", "On account: payment of", "due within 30 days of the invoice date, by 24 December 2026.",
	)
	// One row per VAT rate: the net and VAT of each, as the invoice computed them.
	for _, r := range o.Invoice.Rates {
		row := fmt.Sprintf("%d%% %s %s", r.Rate, orders.Pounds(r.NetExVAT), orders.Pounds(r.VAT))
		if !strings.Contains(text, row) {
			t.Errorf("no VAT summary row %q in:\n%s", row, text)
		}
	}
}

// A line priced at a break, a price group's price or a discount says how, and the
// invoice names the price group that priced it.
func TestRenderSaysHowEachLineWasPriced(t *testing.T) {
	t.Parallel()
	o := order(3)
	o.Lines[0].BreakFrom, o.Lines[0].BreakPrice, o.Lines[0].UnitPrice = 12, 95, 90
	o.Lines[0].ListPrice, o.Lines[0].BasePrice = 100, 100
	o.Lines[1].Group, o.Lines[1].GroupName = "independents", "Independents"
	o.Lines[2].DiscountPercent, o.Lines[2].ListPrice, o.Lines[2].UnitPrice = 0, 285, 285
	doc, err := Render(o, config.Shop{})
	text := pdfWords(t, doc, err)
	holds(t, text, "£0.90 (list £1.00, 12+ packs £0.95, 5% off)", "£2.85 (list £3.00, 5% off)", "Prices: Independents")
	if strings.Count(text, "(list ") != 2 {
		t.Errorf("a line at its list price explains it:\n%s", text)
	}
	plain := order(1)
	plain.Lines[0].DiscountPercent, plain.Lines[0].UnitPrice = 0, 300
	doc, err = Render(plain, config.Shop{})
	if text := pdfWords(t, doc, err); strings.Contains(text, "Prices:") || strings.Contains(text, "(list ") {
		t.Errorf("an order at list prices names a price group or explains a price:\n%s", text)
	}
}

func TestRenderBreaksLongOrdersOntoPages(t *testing.T) {
	t.Parallel()
	o := order(500)
	doc, err := Render(o, config.Shop{})
	if err != nil {
		t.Fatal(err)
	}
	text := Text(t, doc)
	if !strings.Contains(text, "GC101-00499") || !strings.Contains(text, "Page 2") || !strings.Contains(text, "Total inc VAT") {
		t.Fatalf("a 500-line invoice lost its last line, its second page or its totals (%d bytes)", len(doc))
	}
	if strings.Count(text, "Description") < 2 {
		t.Error("the lines table's header is not repeated on the next page")
	}
}

func TestRenderRefusesAnOrderWithoutItsInvoice(t *testing.T) {
	t.Parallel()
	o := order(1)
	o.Invoice = nil
	if _, err := Render(o, config.Shop{}); err == nil {
		t.Fatal("rendered an invoice that was never issued")
	}
}
