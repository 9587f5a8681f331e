package api

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// raceShop is a table with products made for one invariant, and buyers ready to order
// (billing saved, pro-forma).
type raceShop struct {
	t   *testing.T
	st  *store.Store
	c   *client
	seq atomic.Int64
}

func newRaceShop(t *testing.T) *raceShop {
	st := testenv.Store(t)
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	return &raceShop{t: t, st: st, c: newClient(t, h)}
}

// product writes a product with this stock, pack size and unit price (pence).
func (s *raceShop) product(stock, pack int, unitPrice int64) catalogue.Product {
	s.t.Helper()
	n := s.seq.Add(1)
	p := catalogue.Product{SKU: fmt.Sprintf("ZZ%03d-%05d", n%1000, n), Slug: fmt.Sprintf("race-%d", n), Name: fmt.Sprintf("Race product %d", n),
		CategoryID: 1, RangeURLText: "race", PackSize: pack, UnitPrice: unitPrice, VATRate: 20, Stock: stock}
	if err := s.st.PutCatalogue(context.Background(), nil, nil, []catalogue.Product{p}, nil); err != nil {
		s.t.Fatal(err)
	}
	return p
}

func (s *raceShop) buyer() testenv.User {
	s.t.Helper()
	u := testenv.NewUser(s.t)
	if err := s.st.SaveBilling(context.Background(), u.UID, store.Billing{Company: "Race Cards Ltd", Contact: "Pat", PaymentMethod: "proforma",
		Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
		s.t.Fatal(err)
	}
	return u
}

func (s *raceShop) set(u testenv.User, p catalogue.Product, units int) {
	s.t.Helper()
	if err := s.st.SetLine(context.Background(), u.UID, p.SKU, units, time.Now()); err != nil {
		s.t.Fatal(err)
	}
}

func (s *raceShop) place(u testenv.User, key string) (int, map[string]any) {
	return s.c.post("/api/orders", fmt.Sprintf(`{"token":%q,"idempotency_key":%q,"delivery_option":"standard","same_as_billing":true}`, u.IDToken, key), nil)
}

func (s *raceShop) stock(p catalogue.Product) int {
	s.t.Helper()
	got, err := s.st.ProductsBySKU(context.Background(), []string{p.SKU})
	if err != nil {
		s.t.Fatal(err)
	}
	return got[p.SKU].Stock
}

// ordered sums the units of sku on the buyers' orders.
func (s *raceShop) ordered(sku string, buyers ...testenv.User) (units, orderCount int) {
	s.t.Helper()
	for _, u := range buyers {
		list, err := s.st.Orders(context.Background(), u.UID)
		if err != nil {
			s.t.Fatal(err)
		}
		for _, o := range list {
			orderCount++
			for _, l := range o.Lines {
				if l.SKU == sku {
					units += l.Quantity
				}
			}
		}
	}
	return units, orderCount
}

// burst makes together's bursts take turns.
var burst sync.Mutex

// together runs fns at the same moment and waits for them all.
func together(fns ...func()) {
	// One burst at a time across the package's parallel tests: each test's writers race
	// one another, not another test's 50, so a store slowed by someone else's burst does
	// not turn the 3-second call deadline into what is tested.
	burst.Lock()
	defer burst.Unlock()
	var start, done sync.WaitGroup
	start.Add(1)
	for _, fn := range fns {
		done.Go(func() {
			start.Wait()
			fn()
		})
	}
	start.Done()
	done.Wait()
}

// The invariants of docs/orders.md, each raced many times against the local store.
func TestOrdersHoldTheirInvariantsUnderRaces(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()

	t.Run("two keys for one basket sent together make exactly one order (50 races)", func(t *testing.T) {
		t.Parallel()
		p := s.product(1_000_000, 6, 1000)
		u := s.buyer()
		for race := range 50 {
			s.set(u, p, 12)
			var codes [2]int
			var bodies [2]map[string]any
			together(
				func() { codes[0], bodies[0] = s.place(u, fmt.Sprintf("race-%02d-first-tab-key", race)) },
				func() { codes[1], bodies[1] = s.place(u, fmt.Sprintf("race-%02d-second-tab-key", race)) },
			)
			win, lose := 0, 1
			if codes[1] == 201 {
				win, lose = 1, 0
			}
			if codes[win] != 201 || codes[lose] != 409 || bodies[lose]["order_id"] != bodies[win]["id"] {
				t.Fatalf("race %d: %d %v / %d %v", race, codes[0], bodies[0], codes[1], bodies[1])
			}
			if !strings.HasPrefix(bodies[lose]["error"].(string), "This basket was just ordered: see order TS-") {
				t.Fatalf("race %d: the second tab was told %q", race, bodies[lose]["error"])
			}
			if units, n := s.ordered(p.SKU, u); n != race+1 || units != 12*(race+1) {
				t.Fatalf("race %d: %d orders holding %d units", race, n, units)
			}
		}
		if got := s.stock(p); got != 1_000_000-50*12 {
			t.Fatalf("stock %d after 50 orders of 12", got)
		}
	})

	t.Run("30 buyers ordering a product with stock 100 in packs of 6: stock + ordered = 100", func(t *testing.T) {
		t.Parallel()
		p := s.product(100, 6, 1000) // two packs reach the £100 minimum
		buyers := make([]testenv.User, 30)
		for i := range buyers {
			buyers[i] = s.buyer()
			s.set(buyers[i], p, 6*(2+i%3))
		}
		var placed, short atomic.Int64
		var fns []func()
		for i, u := range buyers {
			fns = append(fns, func() {
				code, body := s.place(u, fmt.Sprintf("stock-race-buyer-%02d", i))
				switch {
				case code == 201:
					placed.Add(1)
				case code == 409 && (strings.HasPrefix(body["error"].(string), "Only ") || strings.Contains(body["error"].(string), "is now out of stock")):
					short.Add(1)
				default:
					t.Errorf("buyer %d: %d %v", i, code, body)
				}
			})
		}
		together(fns...)
		units, orderCount := s.ordered(p.SKU, buyers...)
		left := s.stock(p)
		if units > 100 || left+units != 100 || left < 0 || int64(orderCount) != placed.Load() {
			t.Fatalf("ordered %d units in %d orders (%d answered placed), stock left %d: want stock + ordered = 100", units, orderCount, placed.Load(), left)
		}
		if placed.Load() == 0 || short.Load() == 0 || left >= 12 {
			t.Fatalf("placed %d, refused short %d, left %d: the race should sell out", placed.Load(), short.Load(), left)
		}
	})

	t.Run("a limit-1 coupon used by 10 buyers at once goes on exactly one order", func(t *testing.T) {
		t.Parallel()
		p := s.product(1_000_000, 6, 1000)
		c := store.StoredCoupon{Coupon: pricing.Coupon{ID: "RACEONE", Kind: "percent", Percent: 10, UsageLimit: 1}, Description: "10% off, once"}
		if err := s.st.PutCoupons(ctx, []store.StoredCoupon{c}); err != nil {
			t.Fatal(err)
		}
		buyers := make([]testenv.User, 10)
		for i := range buyers {
			buyers[i] = s.buyer()
			s.set(buyers[i], p, 12)
			if err := s.st.SetActiveCoupon(ctx, buyers[i].UID, "coupon-RACEONE", time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		var fns []func()
		var withCoupon atomic.Int64
		for i, u := range buyers {
			fns = append(fns, func() {
				code, body := s.place(u, fmt.Sprintf("coupon-race-buyer-%02d", i))
				switch {
				case code == 201 && body["coupon_id"] == "RACEONE":
					withCoupon.Add(1)
				case code == 409 && strings.Contains(body["error"].(string), "coupon"):
				default:
					t.Errorf("buyer %d: %d %v", i, code, body)
				}
			})
		}
		together(fns...)
		stored, err := s.st.Coupon(ctx, "RACEONE")
		if err != nil {
			t.Fatal(err)
		}
		carried := 0
		var winner testenv.User
		for _, u := range buyers {
			list, _ := s.st.Orders(ctx, u.UID)
			for _, o := range list {
				if o.CouponID == "RACEONE" {
					carried++
					winner = u
				}
			}
		}
		if carried != 1 || withCoupon.Load() != 1 || stored.Used != 1 {
			t.Fatalf("%d orders carry the coupon (%d answered), used %d: want exactly 1", carried, withCoupon.Load(), stored.Used)
		}
		if prof, _ := s.st.Profile(ctx, winner.UID); prof.ActiveCouponID != "" {
			t.Fatalf("a used-up coupon stays on the account: %q", prof.ActiveCouponID)
		}
	})

	t.Run("a coupon's per-account limit holds, and a multi-use coupon stays on the account", func(t *testing.T) {
		t.Parallel()
		p := s.product(1_000_000, 6, 1000)
		c := store.StoredCoupon{Coupon: pricing.Coupon{ID: "TWICE", Kind: "fixed", AmountPence: 500, PerAccountLimit: 2}, Description: "£5 off, twice each"}
		if err := s.st.PutCoupons(ctx, []store.StoredCoupon{c}); err != nil {
			t.Fatal(err)
		}
		u := s.buyer()
		for i, want := range []string{"TWICE", "TWICE", ""} {
			s.set(u, p, 12)
			if i < 2 {
				if prof, _ := s.st.Profile(ctx, u.UID); prof.ActiveCouponID != "coupon-TWICE" && i > 0 {
					t.Fatalf("order %d: the coupon left the account after its first use", i)
				}
				if err := s.st.SetActiveCoupon(ctx, u.UID, "coupon-TWICE", time.Now()); err != nil {
					t.Fatal(err)
				}
			}
			code, body := s.place(u, fmt.Sprintf("per-account-order-%d", i))
			if code != 201 || (body["coupon_id"] != nil && body["coupon_id"] != want) || (want != "" && body["coupon_id"] != want) {
				t.Fatalf("order %d: %d %v", i, code, body)
			}
			if i == 1 {
				if prof, _ := s.st.Profile(ctx, u.UID); prof.ActiveCouponID != "" {
					t.Fatal("the coupon stays on the account after its last allowed use")
				}
				code, body := s.c.post("/api/updateCoupon", `{"token":"`+u.IDToken+`","active_coupon_id":"TWICE"}`, nil)
				if code != 409 || !strings.Contains(body["error"].(string), "You have used this coupon") {
					t.Fatalf("applying a coupon used up by this account: %d %v", code, body)
				}
			}
		}
	})

	t.Run("adds racing an order are in the order or in the basket (200 races)", func(t *testing.T) {
		t.Parallel()
		base := s.product(1_000_000, 6, 1000)
		extra := s.product(1_000_000, 12, 50)
		u := s.buyer()
		lost := 0
		for race := range 200 {
			s.set(u, base, 12)
			var orderCode, addCode int
			var order map[string]any
			together(
				func() { orderCode, order = s.place(u, fmt.Sprintf("add-race-order-%03d", race)) },
				func() {
					addCode, _ = s.c.post("/api/basket/add", fmt.Sprintf(`{"token":%q,"sku":%q,"quantity":12}`, u.IDToken, extra.SKU), nil)
				},
			)
			if orderCode != 201 && orderCode != 409 {
				t.Fatalf("race %d: order %d %v", race, orderCode, order)
			}
			if addCode != 200 && addCode != 409 {
				t.Fatalf("race %d: add answered %d", race, addCode)
			}
			inOrder := false
			if orderCode == 201 {
				for _, l := range order["lines"].([]any) {
					inOrder = inOrder || l.(map[string]any)["sku"] == extra.SKU
				}
			}
			b, err := s.st.Basket(ctx, u.UID)
			if err != nil {
				t.Fatal(err)
			}
			inBasket := false
			for _, l := range b.Lines {
				inBasket = inBasket || l.SKU == extra.SKU
			}
			if addCode == 200 && !inOrder && !inBasket {
				lost++
			}
			if inOrder && inBasket {
				t.Fatalf("race %d: the added line is both ordered and still in the basket", race)
			}
			for _, l := range b.Lines {
				if err := s.st.RemoveLine(ctx, u.UID, l.SKU, time.Now()); err != nil {
					t.Fatal(err)
				}
			}
		}
		if lost > 0 {
			t.Fatalf("%d of 200 acknowledged adds are in neither the order nor the basket", lost)
		}
	})
}

// Large orders reserve their lines in chunks; a short line, or a request that dies
// between steps, gives every reserved unit back.
func TestLargeOrdersReserveInChunksAndUndo(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	const lines = 200
	fill := func(u testenv.User, short int) []catalogue.Product {
		var ps []catalogue.Product
		var adds []basket.Add
		for i := range lines {
			stock := 600
			if i == short {
				stock = 12
			}
			p := s.product(stock, 6, 100)
			ps = append(ps, p)
			adds = append(adds, basket.Add{SKU: p.SKU, Quantity: 12, Limit: 10_000})
			if len(adds) == basket.MaxAddLines || i == lines-1 {
				if err := s.st.AddLines(ctx, u.UID, adds, time.Now()); err != nil {
					t.Fatal(err)
				}
				adds = nil
			}
		}
		return ps
	}
	stockSum := func(ps []catalogue.Product) int {
		sum := 0
		for _, p := range ps {
			sum += s.stock(p)
		}
		return sum
	}

	t.Run("a 200-line order is placed whole", func(t *testing.T) {
		u := s.buyer()
		ps := fill(u, -1)
		code, body := s.place(u, "large-order-key-0001")
		if code != 201 || len(body["lines"].([]any)) != lines {
			t.Fatalf("%d %v", code, body["error"])
		}
		if got := stockSum(ps); got != lines*600-lines*12 {
			t.Fatalf("stock left %d", got)
		}
		if b, _ := s.st.Basket(ctx, u.UID); len(b.Lines) != 0 || b.PendingOrderID != "" {
			t.Fatalf("basket after a large order: %d lines, pending %q", len(b.Lines), b.PendingOrderID)
		}
	})

	t.Run("a short line in the last chunk gives back the chunks reserved before it", func(t *testing.T) {
		u := s.buyer()
		ps := fill(u, lines-1)
		// Someone else buys the short line's stock after the basket was priced.
		if err := s.st.PutCatalogue(ctx, nil, nil, []catalogue.Product{func() catalogue.Product { p := ps[lines-1]; p.Stock = 6; return p }()}, nil); err != nil {
			t.Fatal(err)
		}
		code, body := s.place(u, "large-order-short-01")
		if code != 409 || !strings.Contains(body["error"].(string), ps[lines-1].Name) {
			t.Fatalf("%d %v", code, body)
		}
		if got := stockSum(ps); got != (lines-1)*600+6 {
			t.Fatalf("stock after the refused order: %d, want every unit back (%d)", got, (lines-1)*600+6)
		}
		b, _ := s.st.Basket(ctx, u.UID)
		if len(b.Lines) != lines || b.PendingOrderID != "" {
			t.Fatalf("basket after a refused large order: %d lines, pending %q", len(b.Lines), b.PendingOrderID)
		}
		if pending, _ := s.st.PendingOrders(ctx, time.Now().Add(time.Hour)); len(pending) != 0 {
			t.Fatalf("pending records left: %v", pending)
		}
	})

	t.Run("a large order whose request died between chunks is undone by the sweeper", func(t *testing.T) {
		u := s.buyer()
		ps := fill(u, -1)
		c := store.StoredCoupon{Coupon: pricing.Coupon{ID: "LARGEONE", Kind: "percent", Percent: 5, UsageLimit: 1}}
		if err := s.st.PutCoupons(ctx, []store.StoredCoupon{c}); err != nil {
			t.Fatal(err)
		}
		p, acct, err := basket.PriceFor(ctx, s.st, testDeps(t, s.st, nil).Shop, u.UID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		number, _ := s.st.NextOrderNumber(ctx)
		o, err := orders.Build(p, acct, orders.QuoteOf(p, testDeps(t, s.st, nil).Shop.DeliveryOptions[0], testDeps(t, s.st, nil).Shop),
			orders.Request{UID: u.UID, IdempotencyKey: "died-between-chunks"}, number, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		o.CouponID = "LARGEONE"
		pm := orders.Placement{Order: o, Key: "died-between-chunks", Token: "t", BasketVersion: p.Basket.Version, StartedAt: time.Now().Add(-time.Hour),
			Coupon: &c}
		for i := 0; i < len(o.Lines); i += orders.ChunkLines {
			pm.Chunks = append(pm.Chunks, o.Lines[i:min(i+orders.ChunkLines, len(o.Lines))])
		}
		// The request reserves two of its three chunks, then dies.
		if err := s.st.StartLarge(ctx, pm); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if err := s.st.ReserveChunk(ctx, pm, i); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.st.ReserveChunk(ctx, pm, 1); err != nil { // a retried step reserves nothing twice
			t.Fatal(err)
		}
		if got := stockSum(ps); got != lines*600-2*orders.ChunkLines*12 {
			t.Fatalf("stock with two chunks reserved: %d", got)
		}
		if code, body := s.c.post("/api/basket/add", fmt.Sprintf(`{"token":%q,"sku":%q,"quantity":6}`, u.IDToken, ps[0].SKU), nil); code != 409 {
			t.Fatalf("an add to a basket being ordered: %d %v", code, body)
		}
		undone, err := orders.Sweep(ctx, s.st, time.Now(), orders.DefaultStaleAfter)
		if err != nil || undone != 1 {
			t.Fatalf("sweep: %d undone, %v", undone, err)
		}
		if again, err := orders.Sweep(ctx, s.st, time.Now(), orders.DefaultStaleAfter); err != nil || again != 0 {
			t.Fatalf("second sweep: %d, %v", again, err)
		}
		if err := s.st.Undo(ctx, o.ID); err != nil { // undoing twice gives nothing back twice
			t.Fatal(err)
		}
		if got := stockSum(ps); got != lines*600 {
			t.Fatalf("stock after the sweep: %d, want %d", got, lines*600)
		}
		if stored, _ := s.st.Coupon(ctx, "LARGEONE"); stored.Used != 0 {
			t.Fatalf("coupon use not given back: used %d", stored.Used)
		}
		if _, err := s.st.Order(ctx, u.UID, o.ID); err == nil {
			t.Fatal("an undone order exists")
		}
		code, body := s.place(u, "died-between-chunks")
		if code != 201 || len(body["lines"].([]any)) != lines {
			t.Fatalf("placing again with the same key after the sweep: %d %v", code, body["error"])
		}
	})
}
