package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

func TestOrdersAreNeverLostOrDuplicated(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	cat := putSeedCatalogue(t, st, 300)
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	c := newClient(t, h)

	var big = cat.Products[0]
	for _, p := range cat.Products {
		if p.Stock >= 50*p.PackSize && p.UnitPrice*int64(p.PackSize)*10 >= 15000 {
			big = p
			break
		}
	}
	fill := func(u testenv.User, packs int) {
		t.Helper()
		if err := st.SaveBilling(ctx, u.UID, store.Billing{Company: "Shop Ltd", Contact: "Pat", PaymentMethod: "proforma",
			Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := st.SetLine(ctx, u.UID, big.SKU, packs*big.PackSize, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	place := func(u testenv.User, key string) (int, map[string]any) {
		return c.post("/api/orders", fmt.Sprintf(`{"token":%q,"idempotency_key":%q,"delivery_option":"standard","same_as_billing":true}`, u.IDToken, key), nil)
	}

	t.Run("100 concurrent submissions with one key make exactly one order", func(t *testing.T) {
		u := testenv.NewUser(t)
		fill(u, 10)
		key := "checkout-" + u.UID
		ids := make(chan string, 100)
		var wg sync.WaitGroup
		for range 100 {
			wg.Go(func() {
				code, o := place(u, key)
				if code != 200 && code != 201 {
					t.Errorf("status %d %v", code, o)
					return
				}
				ids <- o["id"].(string)
			})
		}
		wg.Wait()
		close(ids)
		seen := map[string]bool{}
		for id := range ids {
			seen[id] = true
		}
		orders, _ := st.Orders(ctx, u.UID)
		if len(seen) != 1 || len(orders) != 1 {
			t.Fatalf("answers named %d orders, table holds %d", len(seen), len(orders))
		}
		if lines, _ := basketLines(ctx, st, u.UID); len(lines) != 0 {
			t.Fatalf("basket not cleared after the order: %+v", lines)
		}
	})

	t.Run("a retry after a lost answer, even after the basket is filled again, makes no second order", func(t *testing.T) {
		u := testenv.NewUser(t)
		fill(u, 10)
		code, first := place(u, "lost-answer-key-0001") // the answer is "lost": we only retry
		if code != 201 {
			t.Fatalf("%d %v", code, first)
		}
		code, again := place(u, "lost-answer-key-0001")
		if code != 200 || again["id"] != first["id"] {
			t.Fatalf("retry: %d %v, first %v", code, again, first["id"])
		}
		// The buyer fills the basket again; a late retry of the first checkout answers
		// its order and does not order the new lines.
		fill(u, 10)
		code, late := place(u, "lost-answer-key-0001")
		if code != 200 || late["id"] != first["id"] {
			t.Fatalf("late retry: %d %v", code, late)
		}
		if lines, _ := basketLines(ctx, st, u.UID); len(lines) != 1 {
			t.Fatalf("a late retry took the new basket: %+v", lines)
		}
		if orders, _ := st.Orders(ctx, u.UID); len(orders) != 1 {
			t.Fatalf("want 1 order, have %d", len(orders))
		}
	})

	t.Run("an order below the minimum is refused with its reason and the basket is kept", func(t *testing.T) {
		u := testenv.NewUser(t)
		small := cat.Products[3]
		if err := st.SetLine(ctx, u.UID, small.SKU, small.PackSize, time.Now()); err != nil {
			t.Fatal(err)
		}
		code, body := place(u, "below-minimum-key-01")
		if code != 409 || body["error"] == nil {
			t.Fatalf("%d %v", code, body)
		}
		if msg := body["error"].(string); !strings.HasPrefix(msg, "The minimum order is £100.00 ex VAT: add £") {
			t.Fatalf("reason: %q", msg)
		}
		if lines, _ := basketLines(ctx, st, u.UID); len(lines) != 1 {
			t.Fatalf("basket changed by a refused order: %+v", lines)
		}
		if orders, _ := st.Orders(ctx, u.UID); len(orders) != 0 {
			t.Fatal("a refused order was written")
		}
	})

	t.Run("an order needs the billing step; reorder reports what is no longer available", func(t *testing.T) {
		u := testenv.NewUser(t)
		if err := st.SetLine(ctx, u.UID, big.SKU, 10*big.PackSize, time.Now()); err != nil {
			t.Fatal(err)
		}
		if code, body := place(u, "no-billing-key-00001"); code != 409 {
			t.Fatalf("no billing: %d %v", code, body)
		}
		fill(u, 10)
		_, o := place(u, "reorder-key-0000001")
		code, a := c.post("/api/orders/"+o["id"].(string)+"/reorder", `{"token":"`+u.IDToken+`"}`, nil)
		if code != 200 || len(a["added"].([]any)) != 1 {
			t.Fatalf("reorder: %d %v", code, a)
		}
		if lines, _ := basketLines(ctx, st, u.UID); len(lines) != 1 || lines[0].Quantity != 10*big.PackSize {
			t.Fatalf("reorder did not refill the basket: %+v", lines)
		}
	})

	t.Run("history is the buyer's own; another buyer's order is 404", func(t *testing.T) {
		u, other := testenv.NewUser(t), testenv.NewUser(t)
		fill(u, 10)
		_, o := place(u, "history-key-0000001")
		get := func(who testenv.User, path string) int {
			r := httptest.NewRequest("GET", path, nil)
			r.Header.Set("Authorization", "Bearer "+who.IDToken)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			return rec.Code
		}
		if code := get(u, "/api/orders/"+o["id"].(string)); code != http.StatusOK {
			t.Fatalf("owner: %d", code)
		}
		if code := get(other, "/api/orders/"+o["id"].(string)); code != http.StatusNotFound {
			t.Fatalf("another buyer: %d, want 404", code)
		}
		if code := get(u, "/api/orders"); code != 200 {
			t.Fatalf("history: %d", code)
		}
	})
}
