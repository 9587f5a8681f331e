package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/testenv"
)

func TestShoppingCartSmallAgainstLocalStack(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	cat := putSeedCatalogue(t, st, 40)
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	alice, bob := testenv.NewUser(t), testenv.NewUser(t)

	post := func(body string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/shoppingCartSmall", strings.NewReader(body)))
		return rec.Code, rec.Body.String()
	}

	t.Run("refusals", func(t *testing.T) {
		for _, tc := range []struct {
			body   string
			status int
		}{
			{`{}`, 401},
			{`{"token":""}`, 401},
			{`{"token":"forged.token.here"}`, 401},
			{`not json`, 400},
			{``, 400},
			{`{"token":"x","uid":"` + alice.UID + `"}`, 400},
		} {
			code, body := post(tc.body)
			var e errorBody
			if code != tc.status || json.Unmarshal([]byte(body), &e) != nil || e.Error == "" {
				t.Errorf("body %q: got %d %s, want %d with a JSON error", tc.body, code, body, tc.status)
			}
		}
	})

	t.Run("empty basket answers id 1", func(t *testing.T) {
		code, body := post(`{"token":"` + alice.IDToken + `"}`)
		if code != 200 || strings.TrimSpace(body) != `[{"id":1}]` {
			t.Fatalf("got %d %s", code, body)
		}
	})

	p1, p2 := cat.Products[0], cat.Products[1]
	base := time.Now()
	if err := st.AddLines(ctx, alice.UID, []basket.Add{{SKU: p1.SKU, Quantity: 2 * p1.PackSize, Limit: pricing.MaxLineUnits}}, base); err != nil {
		t.Fatal(err)
	}
	if err := st.AddLines(ctx, alice.UID, []basket.Add{{SKU: p2.SKU, Quantity: p2.PackSize, Limit: pricing.MaxLineUnits}}, base.Add(time.Second)); err != nil {
		t.Fatal(err)
	}

	t.Run("lines most recent first with amounts in pence", func(t *testing.T) {
		code, body := post(`{"token":"` + alice.IDToken + `"}`)
		var rows []cartLine
		if code != 200 || json.Unmarshal([]byte(body), &rows) != nil || len(rows) != 2 {
			t.Fatalf("got %d %s", code, body)
		}
		want := []cartLine{
			{ID: p2.SKU, SKU: p2.SKU, Quantity: p2.PackSize, LineAmount: int64(p2.PackSize) * p2.UnitPrice,
				Product: cartProduct{Name: p2.Name, SmallImg: p2.SmallImg, PackSize: p2.PackSize}},
			{ID: p1.SKU, SKU: p1.SKU, Quantity: 2 * p1.PackSize, LineAmount: int64(2*p1.PackSize) * p1.UnitPrice,
				Product: cartProduct{Name: p1.Name, SmallImg: p1.SmallImg, PackSize: p1.PackSize}},
		}
		for i := range want {
			if rows[i] != want[i] {
				t.Fatalf("row %d: got %+v want %+v", i, rows[i], want[i])
			}
		}
	})

	t.Run("another buyer sees only their own basket", func(t *testing.T) {
		code, body := post(`{"token":"` + bob.IDToken + `"}`)
		if code != 200 || strings.TrimSpace(body) != `[{"id":1}]` {
			t.Fatalf("got %d %s", code, body)
		}
	})

	t.Run("concurrent adds of one SKU all count", func(t *testing.T) {
		const n = 20
		p := cat.Products[2]
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				if err := st.AddLines(ctx, bob.UID, []basket.Add{{SKU: p.SKU, Quantity: p.PackSize, Limit: pricing.MaxLineUnits}}, time.Now()); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		lines, err := basketLines(ctx, st, bob.UID)
		if err != nil || len(lines) != 1 || lines[0].Quantity != n*p.PackSize {
			t.Fatalf("lines %+v err %v, want one line of %d", lines, err, n*p.PackSize)
		}
	})

	t.Run("unknown API path answers JSON 404", func(t *testing.T) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/nothing", nil))
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "There is no API endpoint /api/nothing.") {
			t.Fatalf("got %d %s", rec.Code, rec.Body.String())
		}
	})
}
