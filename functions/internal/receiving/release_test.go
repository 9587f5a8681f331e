package receiving

import (
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/orders"
)

// TestReleaseIsTheForwardOrdersLinesAtItsPrices: a release order's lines are the
// allocated units at the forward order's unit prices and VAT rates, VAT per line as
// pricing rounds it, no delivery charge; billed and delivered as the forward order.
func TestReleaseIsTheForwardOrdersLinesAtItsPrices(t *testing.T) {
	t.Parallel()
	billing := &account.Billing{Company: "Robin Cards", PaymentMethod: account.PayOnAccount}
	fo := orders.Order{ID: "TS-100010", UID: "u1", Email: "buyer@example.com", Billing: billing, DeliverTo: &billing.Address, DeliveryOption: "standard",
		DeliveryCharge: 795, Lines: []orders.Line{
			{SKU: "XM-1", Name: "Robin", PackSize: 6, Quantity: 60, ListPrice: 130, DiscountPercent: 10, UnitPrice: 117, LineAmount: 7020, VATRate: 20, VAT: 1404},
			{SKU: "XM-2", Name: "Holly", PackSize: 12, Quantity: 24, ListPrice: 45, UnitPrice: 45, LineAmount: 1080, VATRate: 0},
		}}
	lines := []orders.Line{
		releaseLine(fo, forward.Line{SKU: "XM-1", PackSize: 6}, 18, 20),
		releaseLine(fo, forward.Line{SKU: "XM-2", PackSize: 12}, 12, 20),
		releaseLine(fo, forward.Line{SKU: "XM-9", Name: "Not on the order", PackSize: 1, UnitPrice: 33}, 3, 20),
	}
	at := time.Date(2027, 9, 2, 10, 0, 0, 0, time.UTC)
	rel := release(fo, "TS-100050", "RCV-000003", lines, at)
	want := []struct {
		qty                int
		price, amount, vat int64
	}{{18, 117, 2106, 421}, {12, 45, 540, 0}, {3, 33, 99, 20}}
	for i, w := range want {
		l := rel.Lines[i]
		if l.Quantity != w.qty || l.UnitPrice != w.price || l.LineAmount != w.amount || l.VAT != w.vat {
			t.Errorf("line %d: %+v, want %+v", i, l, w)
		}
	}
	if rel.GoodsExVAT != 2745 || rel.VAT != 441 || rel.TotalIncVAT != 3186 || rel.DeliveryCharge != 0 || rel.NetExVAT != 2745 {
		t.Errorf("totals: goods %d, vat %d, total %d, delivery %d", rel.GoodsExVAT, rel.VAT, rel.TotalIncVAT, rel.DeliveryCharge)
	}
	if rel.ForwardOf != fo.ID || rel.Receipt != "RCV-000003" || rel.Status != orders.StatusPlaced || rel.Billing == fo.Billing || rel.Billing.Company != "Robin Cards" ||
		rel.Email != fo.Email || rel.ProForma() || !rel.PlacedAt.Equal(at) || rel.Version != 1 {
		t.Errorf("release %+v", rel)
	}
}
