package api

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/aws/smithy-go/middleware"

	"github.com/tradeshop/functions/internal/callcount"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// forwardProduct writes a forward product (no stock on hand) pre-ordered until orderBy.
func (s *raceShop) forwardProduct(pack int, unitPrice int64, orderBy string) catalogue.Product {
	s.t.Helper()
	p := s.product(0, pack, unitPrice)
	p.Forward = &catalogue.Forward{DeliveryFrom: "2099-09-01", OrderBy: orderBy}
	if err := s.st.PutCatalogue(context.Background(), nil, nil, []catalogue.Product{p}, nil); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// forwardLine is line sku of forward order answer o.
func forwardLine(t *testing.T, o map[string]any, sku string) map[string]any {
	t.Helper()
	lines, _ := o["lines"].([]any)
	for _, l := range lines {
		if m, _ := l.(map[string]any); m["sku"] == sku {
			return m
		}
	}
	t.Fatalf("forward order %v has no line %s", o["id"], sku)
	return nil
}

// TestBuyersBookListsReducesAndCancelsForwardLines: a buyer's basket of two forward
// products checks out as a forward order; GET /api/forward-orders lists it with each
// line ordered and changeable; the buyer reduces one line and cancels the other (each
// answered as the list answers the order), a raise is refused, another buyer's reduce
// is a 404, and after the order-by date a change is refused with the date in words.
// The list's DynamoDB calls are 1 + its forward orders (docs/forward-orders.md).
func TestBuyersBookListsReducesAndCancelsForwardLines(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	robin, holly := s.forwardProduct(6, 400, "2099-06-30"), s.forwardProduct(12, 90, "2099-06-30")
	u := s.buyer()
	s.set(u, robin, 30)
	s.set(u, holly, 24)
	code, placed := s.place(u, "book-test-key-00001")
	if code != 201 || placed["kind"] != "forward" {
		t.Fatalf("place: %d %v", code, placed)
	}
	id, _ := placed["id"].(string)

	code, list, _ := s.c.get("/api/forward-orders", u.IDToken)
	orders, _ := list["orders"].([]any)
	if code != 200 || len(orders) != 1 {
		t.Fatalf("list: %d %v", code, list)
	}
	o := orders[0].(map[string]any)
	l := forwardLine(t, o, robin.SKU)
	if o["id"] != id || o["delivery_from"] != "2099-09-01" || l["state"] != "ordered" || l["ordered_packs"] != 5.0 || l["open_packs"] != 5.0 ||
		l["can_change"] != true || l["order_by"] != "2099-06-30" || l["pack_size"] != 6.0 {
		t.Fatalf("the listed order: %v", o)
	}

	reduce := func(who testenv.User, sku string, packs int) (int, map[string]any) {
		return s.c.post("/api/forward-orders/"+id+"/lines", fmt.Sprintf(`{"token":%q,"sku":%q,"packs":%d}`, who.IDToken, sku, packs), nil)
	}
	code, o = reduce(u, robin.SKU, 3)
	if l := forwardLine(t, o, robin.SKU); code != 200 || l["open_packs"] != 3.0 || l["cancelled_packs"] != 2.0 || l["state"] != "ordered" {
		t.Fatalf("reduce to 3 packs: %d %v", code, o)
	}
	code, o = reduce(u, robin.SKU, 4)
	if code != 409 || o["error"] != "You can only reduce a forward line: add more from the product page." {
		t.Fatalf("raise: %d %v", code, o)
	}
	code, o = reduce(u, holly.SKU, 0)
	if l := forwardLine(t, o, holly.SKU); code != 200 || l["state"] != "cancelled" || l["can_change"] != false || l["cancelled_packs"] != 2.0 {
		t.Fatalf("cancel: %d %v", code, o)
	}
	if code, o := reduce(s.buyer(), robin.SKU, 0); code != 404 {
		t.Fatalf("another buyer's reduce: %d %v", code, o)
	}
	if code, o := s.c.post("/api/forward-orders/"+id+"/lines", fmt.Sprintf(`{"token":%q,"sku":"ZZ999-99999","packs":0}`, u.IDToken), nil); code != 400 {
		t.Fatalf("a SKU not on the order: %d %v", code, o)
	}

	// After the order-by date (London) nothing can change.
	d := testDeps(t, s.st, testenv.Verifier(t))
	d.Now = func() time.Time { return time.Date(2099, 7, 1, 9, 0, 0, 0, time.UTC) }
	late := newClient(t, NewHandler(d))
	code, o = late.post("/api/forward-orders/"+id+"/lines", fmt.Sprintf(`{"token":%q,"sku":%q,"packs":0}`, u.IDToken, robin.SKU), nil)
	want := fmt.Sprintf("Pre-orders for %s closed on 30 June 2099, so the line can no longer be changed.", robin.Name)
	if code != 409 || o["error"] != want {
		t.Fatalf("after the order-by date: %d %v, want 409 %q", code, o, want)
	}
	code, list, _ = late.get("/api/forward-orders", u.IDToken)
	if l := forwardLine(t, list["orders"].([]any)[0].(map[string]any), robin.SKU); code != 200 || l["can_change"] != false {
		t.Fatalf("listed after the order-by date: %d %v", code, list)
	}

	// The list's calls: one Query of the buyer's orders, one BatchGetItem per forward
	// order (a second forward order placed here).
	s.set(u, robin, 30)
	if code, placed := s.place(u, "book-test-key-00002"); code != 201 {
		t.Fatalf("second place: %d %v", code, placed)
	}
	counter := callcount.New()
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName, cfg.APIOptions = s.st.TableName(), []func(*middleware.Stack) error{counter.Middleware}
	counted, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cc := newClient(t, NewHandler(testDeps(t, counted, testenv.Verifier(t))))
	counter.Reset()
	code, list, _ = cc.get("/api/forward-orders", u.IDToken)
	if n := counter.Take(); code != 200 || len(list["orders"].([]any)) != 2 || n.Total != 3 {
		t.Fatalf("list of two forward orders: %d, %d calls (%s), want 3", code, n.Total, n.Breakdown())
	}
}
