package invoicepdf

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/orders"
)

func TestRenderCreditNoteHoldsWhatHMRCAsks(t *testing.T) {
	t.Parallel()
	o := order(3)
	o.CancelledAt, o.CancelReason = time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC), "Customer asked to cancel"
	c := orders.CancellationCreditNote(o, 7)
	doc, err := RenderCreditNote(o, c)
	text := pdfWords(t, doc, err)
	holds(t, text,
		"VAT credit note", "TradeShop Wholesale Limited", "Unit 4, Meadow Lane, Exampleton, EX1 2AB", "VAT registration number GB987654321",
		"Credit note number CN-000007", "Credit note date 26 November 2026", "Credits invoice INV-000042 of 24 November 2026",
		"Order number TS-100042", "Corner Cards Ltd", "VAT registration number GB123456789",
		"GC101-00000", "GC101-00002", "12", "£2.85", "20%", "5%", "0%", "Delivery", "£7.95",
		"VAT credited", "Total credited ex VAT", "Total credited inc VAT "+orders.Pounds(o.TotalIncVAT),
		"Reason: Order cancelled: Customer asked to cancel",
	)
	// The amounts credited per rate are the invoice's, to the penny.
	for _, r := range o.Invoice.Rates {
		row := fmt.Sprintf("%d%% %s %s", r.Rate, orders.Pounds(r.NetExVAT), orders.Pounds(r.VAT))
		if !strings.Contains(text, row) {
			t.Errorf("no row %q credited in:\n%s", row, text)
		}
	}
	if c.TotalIncVAT() != o.TotalIncVAT || c.VAT() != o.VAT {
		t.Errorf("credited %d (VAT %d), the order is %d (VAT %d)", c.TotalIncVAT(), c.VAT(), o.TotalIncVAT, o.VAT)
	}
}
