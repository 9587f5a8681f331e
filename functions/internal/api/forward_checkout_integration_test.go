package api

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// TestOneCheckoutMakesTodaysOrderAndAForwardOrder places a basket of a line in stock and
// a forward line: two orders, each with its own number; the forward line takes no stock,
// gets no invoice, and is in the allocation ledger with every unit open.
func TestOneCheckoutMakesTodaysOrderAndAForwardOrder(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	cat := putSeedCatalogue(t, st, 300)
	stock, fwd := cat.Products[0], cat.Products[1]
	fwd.Stock = 0
	by := catalogue.LondonDate(time.Now().AddDate(0, 1, 0))
	fwd.Forward = &catalogue.Forward{DeliveryFrom: catalogue.LondonDate(time.Now().AddDate(0, 3, 0)), OrderBy: by, Expected: 1000}
	if err := st.PutCatalogue(ctx, nil, nil, []catalogue.Product{fwd}, nil); err != nil {
		t.Fatal(err)
	}
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	c := newClient(t, h)
	fill := func(u testenv.User, lines map[string]int) {
		t.Helper()
		if err := st.SaveBilling(ctx, u.UID, store.Billing{Company: "Shop Ltd", Contact: "Pat", PaymentMethod: "proforma",
			Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
			t.Fatal(err)
		}
		for sku, units := range lines {
			if err := st.SetLine(ctx, u.UID, sku, units, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	place := func(u testenv.User, key string) (int, map[string]any) {
		return c.post("/api/orders", fmt.Sprintf(`{"token":%q,"idempotency_key":%q,"delivery_option":"standard","same_as_billing":true,"no_backorders":true}`,
			u.IDToken, key), nil)
	}

	t.Run("a mixed basket becomes two orders", func(t *testing.T) {
		u := testenv.NewUser(t)
		packs := 40 // over the minimum order either way
		fill(u, map[string]int{stock.SKU: packs * stock.PackSize, fwd.SKU: packs * fwd.PackSize})
		code, today := place(u, "forward-mixed-key-0001")
		if code != 201 {
			t.Fatalf("place: %d %v", code, today)
		}
		companion, _ := today["companion"].(string)
		if today["kind"] != "" || companion == "" || companion == today["id"] {
			t.Fatalf("today's order should name its forward companion: %v", today)
		}
		all, err := st.Orders(ctx, u.UID)
		if err != nil || len(all) != 2 {
			t.Fatalf("orders %d %v, want 2", len(all), err)
		}
		fo, err := st.Order(ctx, u.UID, companion)
		if err != nil {
			t.Fatal(err)
		}
		if !fo.Forward() || fo.Status != "forward" || fo.Invoice != nil || fo.Companion != today["id"] || !fo.NoBackorders ||
			len(fo.Lines) != 1 || fo.Lines[0].SKU != fwd.SKU || fo.DeliveryCharge != 0 || fo.Lines[0].DeliveryFrom != fwd.Forward.DeliveryFrom {
			t.Fatalf("forward order: %+v", fo)
		}
		if lines := today["lines"].([]any); len(lines) != 1 || lines[0].(map[string]any)["sku"] != stock.SKU {
			t.Fatalf("today's order should hold the line in stock only: %v", lines)
		}
		got, err := st.ProductsBySKU(ctx, []string{fwd.SKU, stock.SKU})
		if err != nil || got[fwd.SKU].Stock != 0 || got[stock.SKU].Stock != stock.Stock-packs*stock.PackSize {
			t.Fatalf("stock after: %+v %v", got, err)
		}
		ledger, err := st.ForwardLinesOf(ctx, fo)
		if err != nil || len(ledger) != 1 {
			t.Fatalf("ledger %+v %v", ledger, err)
		}
		if l := ledger[0]; l.Ordered != packs*fwd.PackSize || l.Open != l.Ordered || l.State() != forward.StateOrdered || l.Check() != nil || !l.NoBackorders {
			t.Fatalf("ledger line %+v", l)
		}
		byLine, err := st.ForwardLines(ctx, fwd.SKU)
		if err != nil || !slices.ContainsFunc(byLine, func(l forward.Line) bool { return l.OrderID == fo.ID }) {
			t.Fatalf("the SKU's ledger does not list the order: %+v %v", byLine, err)
		}
		// The same key again answers today's order, and no third order is made.
		if code, again := place(u, "forward-mixed-key-0001"); code != 200 || again["id"] != today["id"] {
			t.Fatalf("retry: %d %v", code, again)
		}
	})

	t.Run("a large order commits its forward order with it", func(t *testing.T) {
		u := testenv.NewUser(t)
		lines := map[string]int{fwd.SKU: 2 * fwd.PackSize}
		for _, p := range cat.Products[2:] {
			if len(lines) == 100 {
				break
			}
			if p.Stock >= p.PackSize && p.Status != catalogue.StatusDiscontinued {
				lines[p.SKU] = p.PackSize
			}
		}
		fill(u, lines)
		code, today := place(u, "forward-large-key-0001")
		if code != 201 || len(today["lines"].([]any)) != 99 || today["companion"] == "" {
			t.Fatalf("place: %d %v lines, companion %v", code, len(today["lines"].([]any)), today["companion"])
		}
		fo, err := st.Order(ctx, u.UID, today["companion"].(string))
		if err != nil || !fo.Forward() || len(fo.Lines) != 1 {
			t.Fatalf("forward order %+v %v", fo, err)
		}
		if ledger, err := st.ForwardLinesOf(ctx, fo); err != nil || len(ledger) != 1 || ledger[0].Open != 2*fwd.PackSize {
			t.Fatalf("ledger %+v %v", ledger, err)
		}
	})

	t.Run("a basket of forward lines only becomes one forward order, carriage paid", func(t *testing.T) {
		u := testenv.NewUser(t)
		fill(u, map[string]int{fwd.SKU: 60 * fwd.PackSize})
		code, o := place(u, "forward-only-key-00001")
		if code != 201 || o["kind"] != "forward" || o["companion"] != "" || o["invoice"] != nil || o["delivery_charge"].(float64) != 0 {
			t.Fatalf("place: %d %v", code, o)
		}
	})
}
