package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/demand"
	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/receiving"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// TestForwardDemandFromTheLedger seeds forward line items of two products (as the
// placement and the receiving write them) and reads the demand by product and by range:
// each bucket summed from the ledger, by account with the profile's business name.
func TestForwardDemandFromTheLedger(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	fw := &catalogue.Forward{DeliveryFrom: "2099-09-01", OrderBy: "2099-06-30", Expected: 600}
	ranges := []catalogue.Range{{URLText: "christmas", Name: "Christmas", Order: 1}, {URLText: "easter", Name: "Easter", Order: 2}}
	cats := []catalogue.Category{{ID: 7, Slug: "cards", Name: "Cards", RangeURLText: "christmas"}, {ID: 8, Slug: "eggs", Name: "Eggs", RangeURLText: "easter"}}
	products := []catalogue.Product{
		{SKU: "XM-1", Slug: "robin-xm-1", Name: "Robin card", CategoryID: 7, RangeURLText: "christmas", PackSize: 6, UnitPrice: 95, VATRate: 20, Forward: fw},
		{SKU: "XM-2", Slug: "holly-xm-2", Name: "Holly card", CategoryID: 7, RangeURLText: "christmas", PackSize: 12, UnitPrice: 80, VATRate: 20,
			Forward: &catalogue.Forward{DeliveryFrom: "2099-10-01", OrderBy: "2099-07-31"}},
		{SKU: "XM-3", Slug: "plain-xm-3", Name: "Plain card", CategoryID: 7, RangeURLText: "christmas", PackSize: 6, UnitPrice: 50, VATRate: 20, Stock: 60},
		{SKU: "EA-1", Slug: "egg-ea-1", Name: "Egg card", CategoryID: 8, RangeURLText: "easter", PackSize: 6, UnitPrice: 50, VATRate: 20, Forward: fw},
	}
	if err := st.PutCatalogue(ctx, ranges, cats, products, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateProfile(ctx, store.Profile{UID: "uid-a", Business: "Acme Cards Ltd", Email: "a@example.com"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	placed := time.Date(2099, 3, 1, 9, 0, 0, 0, time.UTC)
	put := func(l forward.Line) {
		t.Helper()
		if err := l.Check(); err != nil {
			t.Fatal(err)
		}
		l.PlacedAt = placed.Add(time.Duration(len(l.OrderID)) * time.Minute)
		item := map[string]any{"pk": "FWD#" + l.SKU, "sk": forward.LineSK(l.PlacedAt, l.OrderID), "sku": l.SKU, "orderId": l.OrderID, "uid": l.UID,
			"email": l.Email, "name": l.Name, "placedAt": l.PlacedAt.UnixMilli(), "packSize": l.PackSize, "ordered": l.Ordered, "open": l.Open,
			"allocated": l.Allocated, "cancelled": l.Cancelled, "deliveryFrom": "2099-09-01", "orderBy": "2099-06-30", "unitPrice": 95}
		if err := st.PutRawForTest(ctx, item); err != nil {
			t.Fatal(err)
		}
		if len(l.Receipts) > 0 {
			if err := st.AddReceiptsForTest(ctx, l.SKU, forward.LineSK(l.PlacedAt, l.OrderID), l.Receipts); err != nil {
				t.Fatal(err)
			}
		}
	}
	put(forward.Line{SKU: "XM-1", OrderID: "F-1", UID: "uid-a", Email: "a@example.com", PackSize: 6, Ordered: 60, Open: 60})
	put(forward.Line{SKU: "XM-1", OrderID: "F-22", UID: "uid-a", Email: "a@example.com", PackSize: 6, Ordered: 30, Allocated: 24, Cancelled: 6, Receipts: []string{"RCV-000001"}})
	put(forward.Line{SKU: "XM-1", OrderID: "F-333", UID: "uid-b", Email: "b@example.com", PackSize: 6, Ordered: 120, Open: 24, Allocated: 96, Receipts: []string{"RCV-000001"}})
	put(forward.Line{SKU: "XM-2", OrderID: "F-4444", UID: "uid-b", Email: "b@example.com", PackSize: 12, Ordered: 24, Open: 24})
	put(forward.Line{SKU: "EA-1", OrderID: "F-55555", UID: "uid-b", Email: "b@example.com", PackSize: 6, Ordered: 6, Open: 6})

	// Two deliveries of XM-1: one applied (120 units received), one only recorded (not yet).
	applied, err := st.CreateReceipt(ctx, receiving.Receipt{State: receiving.StateRecorded, CreatedAt: placed, By: "stock@example.com",
		Lines: []receiving.Line{{SKU: "XM-1", Name: "Robin card", PackSize: 6, Units: 120}}})
	if err != nil {
		t.Fatal(err)
	}
	applied.State, applied.Rule, applied.StartedAt = receiving.StateApplying, "pro-rata", placed
	if err := st.StartApply(ctx, applied); err != nil {
		t.Fatal(err)
	}
	if err := st.CloseReceipt(ctx, applied.ID, map[string]int{}, placed); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateReceipt(ctx, receiving.Receipt{State: receiving.StateRecorded, CreatedAt: placed, By: "stock@example.com",
		Lines: []receiving.Line{{SKU: "XM-1", Name: "Robin card", PackSize: 6, Units: 60}}}); err != nil {
		t.Fatal(err)
	}

	svc := demand.Service{Store: st}
	one, err := svc.ForSKU(ctx, "XM-1")
	if err != nil || len(one.Products) != 1 {
		t.Fatalf("XM-1: %+v %v", one, err)
	}
	d := one.Products[0]
	if want := (demand.Units{Ordered: 210, Open: 84, Allocated: 120, Backordered: 24, Cancelled: 6}); d.Units != want || d.Received != 120 || one.Range.Name != "Christmas" {
		t.Fatalf("XM-1 demand %+v received %d range %+v, want %+v", d.Units, d.Received, one.Range, want)
	}
	if len(d.Accounts) != 2 || d.Accounts[0].UID != "uid-b" || d.Accounts[0].Company != "b@example.com" ||
		d.Accounts[1].Company != "Acme Cards Ltd" || d.Accounts[1].Orders != 2 || d.Accounts[1].Units.Allocated != 24 {
		t.Fatalf("XM-1 accounts %+v", d.Accounts)
	}

	rg, err := svc.ForRange(ctx, "christmas")
	if err != nil || len(rg.Products) != 2 || rg.Products[0].Product.SKU != "XM-1" || rg.Products[1].Product.SKU != "XM-2" || rg.Products[1].Units.Ordered != 24 {
		t.Fatalf("christmas range: %+v %v", rg, err)
	}
	doc, err := demand.CSV(rg)
	if err != nil || strings.Count(string(doc), "\n") != 1+3+2 || !strings.Contains(string(doc), ",Acme Cards Ltd,a@example.com,2,15,90,60,4,24,0,0,1,6\n") {
		t.Fatalf("CSV (%v):\n%s", err, doc)
	}
	list, err := svc.List(ctx)
	if err != nil || len(list) != 2 || list[0].Range.URLText != "christmas" || len(list[0].Products) != 2 || list[1].Products[0].SKU != "EA-1" {
		t.Fatalf("list %+v %v", list, err)
	}
	for _, bad := range []func() error{
		func() error { _, err := svc.ForSKU(ctx, "NO-SUCH"); return err },
		func() error { _, err := svc.ForRange(ctx, "summer"); return err },
	} {
		if err := bad(); err == nil || !strings.HasPrefix(err.Error(), "There is no") {
			t.Errorf("an unknown product or range: %v", err)
		}
	}
}
