package api

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/testenv"
)

// TestCancellationEmailsTheBuyersWaiting: an order takes a product's last stock; another
// buyer asks for an alert (refused while it was in stock); staff cancel the order, its
// stock comes back, and the waiting buyer's email is queued once, their alert gone.
func TestCancellationEmailsTheBuyersWaiting(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	staff := testenv.Staff(t, testenv.NewUser(t))
	first, waiting := s.buyer(), s.buyer()
	p := s.product(5, 1, 5000)
	ask := func() (int, map[string]any) {
		return s.c.post("/api/alerts", fmt.Sprintf(`{"token":%q,"sku":%q}`, waiting.IDToken, p.SKU), nil)
	}
	if code, body := ask(); code != 409 || body["error"] != p.Name+" is in stock: add it to your basket." {
		t.Fatalf("an alert on a product in stock: %d %v", code, body)
	}
	id := s.placed(first, p, 5)
	if got := s.stock(p); got != 0 {
		t.Fatalf("stock after the order: %d", got)
	}
	for range 2 {
		code, body := ask()
		list, _ := body["alerts"].([]any)
		if code != 200 || len(list) != 1 || list[0].(map[string]any)["sku"] != p.SKU || list[0].(map[string]any)["in_stock"] != false {
			t.Fatalf("ask: %d %v", code, body)
		}
	}
	if code, body := s.act(staff, id, 1, "cancel", `,"reason":"Customer asked to cancel"`); code != 200 {
		t.Fatalf("cancel: %d %v", code, body)
	}
	code, body, _ := s.c.get("/api/alerts", waiting.IDToken)
	if list, _ := body["alerts"].([]any); code != 200 || len(list) != 0 {
		t.Fatalf("alerts after the cancel: %d %v", code, body)
	}
	ids, err := s.st.DueOutbox(ctx, time.Now().Add(time.Hour), 1000)
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for _, m := range ids {
		if strings.HasPrefix(m, "alert/"+p.SKU+"/"+waiting.UID+"/") {
			sent++
		}
	}
	if sent != 1 {
		t.Fatalf("alert emails %d in %v, want 1", sent, ids)
	}
}
