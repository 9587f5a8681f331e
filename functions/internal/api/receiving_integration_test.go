package api

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// TestReceivingAShortDelivery: three buyers forward-order one product; staff record a
// short delivery (a line that is not whole packs is refused by name), read the pro-rata
// proposal, take a pack off one line and apply it: each buyer's units are on a release
// order with its invoice, the pack taken off goes to stock, and applying again changes
// nothing.
func TestReceivingAShortDelivery(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	cat := putSeedCatalogue(t, st, 40)
	fwd := cat.Products[1]
	fwd.Stock = 0
	fwd.Forward = &catalogue.Forward{DeliveryFrom: catalogue.LondonDate(time.Now().AddDate(0, 3, 0)), OrderBy: catalogue.LondonDate(time.Now().AddDate(0, 1, 0))}
	if err := st.PutCatalogue(ctx, nil, nil, []catalogue.Product{fwd}, nil); err != nil {
		t.Fatal(err)
	}
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	c := newClient(t, h)
	k := int(10000/(fwd.UnitPrice*int64(fwd.PackSize))) + 1 // packs over the minimum order
	var buyers []testenv.User
	for i, packs := range []int{5 * k, 3 * k, k} {
		u := testenv.NewUser(t)
		if err := st.SaveBilling(ctx, u.UID, store.Billing{Company: fmt.Sprintf("Shop %d Ltd", i), Contact: "Pat", PaymentMethod: "proforma",
			Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := st.SetLine(ctx, u.UID, fwd.SKU, packs*fwd.PackSize, time.Now()); err != nil {
			t.Fatal(err)
		}
		code, o := c.post("/api/orders", fmt.Sprintf(`{"token":%q,"idempotency_key":"receiving-key-%04d","delivery_option":"standard","same_as_billing":true}`, u.IDToken, i), nil)
		if code != 201 || o["kind"] != "forward" {
			t.Fatalf("forward order %d: %d %v", i, code, o)
		}
		buyers = append(buyers, u)
	}
	su := testenv.Staff(t, testenv.NewNamedUser(t, "Receiving Staff"))
	record := func(units int) (int, map[string]any) {
		return c.post("/api/admin/receipts", fmt.Sprintf(`{"token":%q,"lines":[{"sku":%q,"units":%d}]}`, su.IDToken, fwd.SKU, units), nil)
	}
	if code, out := record(fwd.PackSize + 1); code != 400 || out["problems"].(map[string]any)["lines.0.units"] == nil {
		t.Fatalf("a delivery not in whole packs: %d %v", code, out)
	}
	received := 4 * k
	code, out := record(received * fwd.PackSize)
	if code != 201 || out["state"] != "recorded" {
		t.Fatalf("record: %d %v", code, out)
	}
	var page adminReceiptPage
	code, _, raw := c.get("/api/admin/receipts/"+out["id"].(string), su.IDToken)
	if err := json.Unmarshal(raw, &page); code != 200 || err != nil {
		t.Fatalf("read: %d %v %s", code, err, raw)
	}
	rows := page.Proposal[0].Rows
	if page.Rule != "pro-rata" || len(rows) != 3 || page.Released != received || page.Leftover != 0 || rows[0].Want != 5*k || rows[0].Company != "Shop 0 Ltd" {
		t.Fatalf("proposal %+v", page)
	}
	apply := fmt.Sprintf(`{"token":%q,"allocations":[{"sku":%q,"line_sk":%q,"units":%d}]}`, su.IDToken, fwd.SKU, rows[0].LineSK, (rows[0].Proposed-1)*fwd.PackSize)
	code, done := c.post("/api/admin/receipts/"+page.ID+"/apply", apply, nil)
	if code != 200 || done["state"] != "applied" || done["released"] != float64(received-1) || done["leftover"] != float64(1) {
		t.Fatalf("apply: %d %v", code, done)
	}
	if code, again := c.post("/api/admin/receipts/"+page.ID+"/apply", apply, nil); code != 200 || again["released"] != done["released"] {
		t.Fatalf("apply again: %d %v", code, again)
	}
	units := 0
	for _, u := range buyers {
		os, err := st.Orders(ctx, u.UID)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range os {
			if o.ForwardOf != "" {
				if o.Invoice == nil || o.Receipt != page.ID || o.DeliveryCharge != 0 {
					t.Errorf("release %+v", o)
				}
				units += o.Lines[0].Quantity
			}
		}
	}
	if units != (received-1)*fwd.PackSize {
		t.Errorf("%d units released, want %d", units, (received-1)*fwd.PackSize)
	}
	if p, err := st.Product(ctx, fwd.SKU); err != nil || p.Stock != fwd.PackSize {
		t.Errorf("stock %d %v, want the one pack", p.Stock, err)
	}
	if code, list, _ := c.get("/api/admin/receipts", su.IDToken); code != 200 || len(list["receipts"].([]any)) != 1 {
		t.Errorf("list: %d %v", code, list)
	}
}
