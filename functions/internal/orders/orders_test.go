package orders

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
)

var testShop = config.Shop{MinimumOrderPence: 10000, FreeDeliveryThresholdPence: 30000, DefaultVATRate: 20,
	DeliveryOptions: []config.DeliveryOption{
		{ID: "standard", Name: "Standard", ChargePence: 795, FreeOverThreshold: true},
		{ID: "next-day", Name: "Next day", ChargePence: 1295},
	}}

var now = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

func product(sku string, stock int) catalogue.Product {
	return catalogue.Product{SKU: sku, Name: "Card " + sku, PackSize: 6, UnitPrice: 1000, VATRate: 20, Stock: stock}
}

// priced is a basket of units of one product, priced.
func priced(units, stock int) basket.Priced {
	p := product("GC101-00001", stock)
	b := basket.Basket{Version: 3, Lines: []basket.Line{{SKU: p.SKU, Quantity: units, AddedAt: now}}}
	return basket.Price(b, map[string]catalogue.Product{p.SKU: p}, pricing.Terms{}, nil, testShop, now)
}

var billed = account.Account{UID: "u1", Billing: &account.Billing{Company: "Cards Ltd", PaymentMethod: account.PayProForma,
	Address: account.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}}

func TestQuoteOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                        string
		units                       int
		option                      int
		free                        bool
		charge, chargeVAT, net, vat int64
	}{
		{"standard below the threshold pays its charge and 20% VAT on it", 12, 0, false, 795, 159, 12000 + 795, 2400 + 159},
		{"standard at the threshold is free", 30, 0, true, 0, 0, 30000, 6000},
		{"next day is never free", 30, 1, false, 1295, 259, 30000 + 1295, 6000 + 259},
	} {
		q := QuoteOf(priced(tc.units, 1000), testShop.DeliveryOptions[tc.option], testShop)
		if q.Free != tc.free || q.ChargeExVAT != tc.charge || q.ChargeVAT != tc.chargeVAT || q.NetExVAT != tc.net || q.VAT != tc.vat ||
			q.TotalIncVAT != tc.net+tc.vat {
			t.Errorf("%s: %+v", tc.name, q)
		}
	}
	if qs := Quotes(priced(12, 1000), testShop); len(qs) != 2 || qs[0].Option.ID != "standard" || qs[1].Option.ID != "next-day" {
		t.Errorf("quotes: %+v", qs)
	}
}

func TestBuildRefusesWhatCannotBeOrdered(t *testing.T) {
	t.Parallel()
	q := func(p basket.Priced) Quote { return QuoteOf(p, testShop.DeliveryOptions[0], testShop) }
	onAccount := billed
	onAccount.Billing = &account.Billing{PaymentMethod: account.PayOnAccount}
	approved := onAccount
	approved.ApprovedForCredit = true
	usedUp := priced(12, 1000)
	usedUp.Coupon = &basket.Coupon{Coupon: pricing.Coupon{ID: "ONCE", UsageLimit: 1, Used: 1}}
	usedUp.CouponError = pricing.ErrCouponUsedUp
	for _, tc := range []struct {
		name string
		p    basket.Priced
		acct account.Account
		want string
	}{
		{"empty", priced(0, 1000), billed, "Your basket is empty."},
		{"below the minimum", priced(6, 1000), billed, "The minimum order is £100.00 ex VAT: add £40.00 more."},
		{"no billing", priced(12, 1000), account.Account{UID: "u1"}, "Complete the billing step before placing the order."},
		{"on account without credit", priced(12, 1000), onAccount, "This account is not approved to pay on account; choose pro-forma on the billing step."},
		{"on account with credit, email not verified", priced(12, 1000), approved, ErrEmailNotVerified.Msg},
		{"short", priced(24, 15), billed, "Only 2 packs of Card GC101-00001 are left: change the line in your basket and place the order again."},
		{"out of stock", priced(12, 5), billed, "Card GC101-00001 is now out of stock: remove it from your basket and place the order again."},
		{"coupon used up since it was shown", usedUp, billed, "The coupon ONCE has been used as many times as it allows: remove it from your basket and place the order again."},
	} {
		p := tc.p
		if tc.name == "empty" {
			p.Lines = nil
		}
		_, err := Build(p, tc.acct, q(p), Request{UID: "u1"}, "TS-100001", now)
		var conflict *shoperr.ConflictError
		if !errors.As(err, &conflict) || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// With a verified email, an approved account pays on account.
	if _, err := Build(priced(12, 1000), approved, q(priced(12, 1000)), Request{UID: "u1", EmailVerified: true}, "TS-100001", now); err != nil {
		t.Errorf("verified, approved, on account: %v", err)
	}
}

func TestBuildMakesTheOrderOfThePricedBasket(t *testing.T) {
	t.Parallel()
	p := priced(18, 1000)
	to := account.Address{Line1: "Unit 4", Town: "Leeds", Postcode: "LS1 1AA"}
	o, err := Build(p, billed, QuoteOf(p, testShop.DeliveryOptions[1], testShop), Request{UID: "u1", DeliverTo: &to, DeliveryNote: "  side door  "}, "TS-100009", now)
	if err != nil {
		t.Fatal(err)
	}
	if o.ID != "TS-100009" || o.Status != StatusPlaced || len(o.Lines) != 1 || o.Lines[0].Quantity != 18 || o.Lines[0].LineAmount != 18000 {
		t.Fatalf("order: %+v", o)
	}
	if o.DeliveryCharge != 1295 || o.DeliveryVAT != 259 || o.NetExVAT != 18000+1295 || o.VAT != 3600+259 || o.TotalIncVAT != o.NetExVAT+o.VAT {
		t.Fatalf("totals: %+v", o)
	}
	if *o.DeliverTo != to || o.DeliveryNote != "side door" || o.Billing.Company != "Cards Ltd" {
		t.Fatalf("addresses: %+v %q", o.DeliverTo, o.DeliveryNote)
	}
	o2, _ := Build(p, billed, QuoteOf(p, testShop.DeliveryOptions[0], testShop), Request{UID: "u1"}, "TS-100010", now)
	if *o2.DeliverTo != billed.Billing.Address {
		t.Fatal("without another address the order goes to the billing address")
	}
}

// An order line keeps how the rule priced it: the group's base price, the break reached
// and its price, the discount and the group.
func TestBuildKeepsHowEachLineWasPriced(t *testing.T) {
	t.Parallel()
	p := product("GC101-00001", 1000)
	group := &pricing.Group{ID: "independents", Name: "Independents", Rules: pricing.Rules{
		Prices: map[string]int64{"product:GC101-00001": 900},
		Breaks: map[string]pricing.Ladder{"product:GC101-00001": {{From: 3, Price: 850}}}}}
	terms := pricing.Terms{Group: group, Own: map[string]int{"product:GC101-00001": 10}}
	b := basket.Basket{Version: 1, Lines: []basket.Line{{SKU: p.SKU, Quantity: 18, AddedAt: now}}}
	pb := basket.Price(b, map[string]catalogue.Product{p.SKU: p}, terms, nil, testShop, now)
	o, err := Build(pb, billed, QuoteOf(pb, testShop.DeliveryOptions[0], testShop), Request{UID: "u1"}, "TS-100011", now)
	if err != nil {
		t.Fatal(err)
	}
	want := Line{SKU: p.SKU, Name: p.Name, PackSize: 6, Quantity: 18, ListPrice: 1000, DiscountPercent: 10, UnitPrice: 765,
		LineAmount: 18 * 765, VATRate: 20, VAT: 18 * 765 * 20 / 100, BasePrice: 900, BreakFrom: 3, BreakPrice: 850,
		Group: "independents", GroupName: "Independents"}
	if o.Lines[0] != want {
		t.Fatalf("line:\n got %+v\nwant %+v", o.Lines[0], want)
	}
	if got := o.Lines[0].PriceText(); got != "£7.65 (list £10.00, group price £9.00, 3+ packs £8.50, 10% off)" {
		t.Errorf("the line reads %q", got)
	}
}

func TestPounds(t *testing.T) {
	t.Parallel()
	for in, want := range map[int64]string{0: "£0.00", 5: "£0.05", 10000: "£100.00", 123456789: "£1,234,567.89", -250: "-£2.50"} {
		if got := Pounds(in); got != want {
			t.Errorf("Pounds(%d) = %q, want %q", in, got, want)
		}
	}
}

// fakeStore is an in-memory Store whose placement answers are scripted.
type fakeStore struct {
	acct     account.Account
	basket   basket.Basket
	products map[string]catalogue.Product
	keys     map[string]string
	orders   map[string]Order
	next     int
	place    []error // answers of PlaceInOne / ReserveChunk, in turn
	calls    []string
	undone   []string
	// invoices (invoice_test.go)
	issued     int
	invoiceErr error
	toInvoice  []OrderRef
}

func newFake(units, stock int) *fakeStore {
	p := product("GC101-00001", stock)
	return &fakeStore{acct: billed, basket: basket.Basket{Version: 3, Lines: []basket.Line{{SKU: p.SKU, Quantity: units, AddedAt: now}}},
		products: map[string]catalogue.Product{p.SKU: p}, keys: map[string]string{}, orders: map[string]Order{}}
}

func (f *fakeStore) AccountAndBasket(context.Context, string) (account.Account, basket.Basket, error) {
	return f.acct, f.basket, nil
}
func (f *fakeStore) ProductsAndCoupon(context.Context, string, []string, string) (map[string]catalogue.Product, *basket.Coupon, error) {
	return f.products, nil, nil
}
func (f *fakeStore) NextOrderNumber(context.Context) (string, error) {
	f.next++
	return fmt.Sprintf("TS-%d", 100000+f.next), nil
}
func (f *fakeStore) Order(_ context.Context, _, id string) (Order, error) {
	o, ok := f.orders[id]
	if !ok {
		return Order{}, errors.New("not found")
	}
	return o, nil
}
func (f *fakeStore) OrderIDForKey(_ context.Context, _, key string) (string, error) {
	return f.keys[key], nil
}
func (f *fakeStore) answer(what string, p Placement) error {
	f.calls = append(f.calls, what)
	if len(f.place) > 0 {
		err := f.place[0]
		f.place = f.place[1:]
		if err != nil {
			return err
		}
	}
	if what == "one" || what == "commit" {
		f.orders[p.Order.ID], f.keys[p.Key] = p.Order, p.Order.ID
		f.basket = basket.Basket{Version: f.basket.Version + 1, LastOrderID: p.Order.ID, LastOrderAt: now}
	}
	return nil
}
func (f *fakeStore) PlaceInOne(_ context.Context, p Placement) error { return f.answer("one", p) }
func (f *fakeStore) StartLarge(_ context.Context, p Placement) error { return f.answer("start", p) }
func (f *fakeStore) ReserveChunk(_ context.Context, p Placement, _ int) error {
	return f.answer("chunk", p)
}
func (f *fakeStore) CommitLarge(_ context.Context, p Placement) error { return f.answer("commit", p) }
func (f *fakeStore) Undo(_ context.Context, id string) error {
	f.undone = append(f.undone, id)
	f.basket.PendingOrderID = ""
	return nil
}
func (f *fakeStore) PendingOrders(context.Context, time.Time) ([]string, error) {
	return []string{"TS-1", "TS-2"}, nil
}

func placer(f *fakeStore) Placer {
	return Placer{Store: f, Shop: testShop, Now: func() time.Time { return now }, StaleAfter: DefaultStaleAfter}
}

func TestPlace(t *testing.T) {
	t.Parallel()
	req := Request{UID: "u1", IdempotencyKey: "key-1", DeliveryOption: "standard"}

	t.Run("places once; the same key again answers the same order", func(t *testing.T) {
		f := newFake(12, 1000)
		o, created, err := placer(f).Place(context.Background(), req)
		if err != nil || !created {
			t.Fatal(created, err)
		}
		again, created, err := placer(f).Place(context.Background(), req)
		if err != nil || created || again.ID != o.ID {
			t.Fatalf("retry: %v %v %v", again.ID, created, err)
		}
	})

	t.Run("another key on the just-ordered basket is a 409 naming the order", func(t *testing.T) {
		f := newFake(12, 1000)
		o, _, _ := placer(f).Place(context.Background(), req)
		_, _, err := placer(f).Place(context.Background(), Request{UID: "u1", IdempotencyKey: "key-2", DeliveryOption: "standard"})
		var conflict *shoperr.ConflictError
		if !errors.As(err, &conflict) || conflict.OrderID != o.ID {
			t.Fatalf("%v", err)
		}
	})

	t.Run("a lost race for the basket is answered with the winner's order", func(t *testing.T) {
		f := newFake(12, 1000)
		f.place = []error{&Refused{Kind: RefusedBasket, Basket: basket.Basket{Version: 4, LastOrderID: "TS-999", LastOrderAt: now}}}
		_, _, err := placer(f).Place(context.Background(), req)
		var conflict *shoperr.ConflictError
		if !errors.As(err, &conflict) || conflict.OrderID != "TS-999" || !strings.HasPrefix(err.Error(), "This basket was just ordered") {
			t.Fatalf("%v", err)
		}
	})

	t.Run("a short line says what is left", func(t *testing.T) {
		f := newFake(12, 1000)
		f.place = []error{&Refused{Kind: RefusedStock, SKU: "GC101-00001", Stock: 6}}
		_, _, err := placer(f).Place(context.Background(), req)
		if err == nil || err.Error() != "Only 1 pack of Card GC101-00001 is left: change the line in your basket and place the order again." {
			t.Fatalf("%v", err)
		}
	})

	t.Run("a line discontinued since the basket was priced is no longer available, not out of stock", func(t *testing.T) {
		f := newFake(12, 1000)
		f.place = []error{&Refused{Kind: RefusedDiscontinued, SKU: "GC101-00001", Stock: 1000}}
		_, _, err := placer(f).Place(context.Background(), req)
		var conflict *shoperr.ConflictError
		if !errors.As(err, &conflict) || len(f.calls) != 1 ||
			err.Error() != "Card GC101-00001 is no longer available, so it has gone from your basket: check your basket and place the order again." {
			t.Fatalf("%v after %d calls", err, len(f.calls))
		}
	})

	t.Run("races are retried a bounded number of times, then the buyer is told", func(t *testing.T) {
		f := newFake(12, 1000)
		busy := &Refused{Kind: RefusedBusy}
		f.place = []error{busy, busy, busy, busy, busy}
		_, _, err := placer(f).Place(context.Background(), req)
		if !errors.Is(err, ErrChanged) || len(f.calls) != attempts {
			t.Fatalf("%v after %d attempts", err, len(f.calls))
		}
	})

	t.Run("a large order reserves in chunks and undoes them when one fails", func(t *testing.T) {
		f := newFake(12, 1000)
		for i := range MaxOneTransaction + 100 {
			sku := fmt.Sprintf("GC102-%05d", i)
			f.products[sku] = product(sku, 1000)
			f.basket.Lines = append(f.basket.Lines, basket.Line{SKU: sku, Quantity: 6, AddedAt: now})
		}
		f.place = []error{nil, nil, &Refused{Kind: RefusedStock, SKU: "GC102-00100", Stock: 0}}
		_, _, err := placer(f).Place(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), "out of stock") || strings.Join(f.calls, ",") != "start,chunk,chunk" || len(f.undone) != 1 {
			t.Fatalf("%v; calls %v; undone %v", err, f.calls, f.undone)
		}
		f.place = nil
		f.calls = nil
		if _, created, err := placer(f).Place(context.Background(), req); err != nil || !created || strings.Join(f.calls, ",") != "start,chunk,chunk,commit" {
			t.Fatalf("%v %v; calls %v", created, err, f.calls)
		}
	})

	t.Run("a stale pending order in the way is undone; a live one is the buyer's order being placed", func(t *testing.T) {
		f := newFake(12, 1000)
		f.basket.PendingOrderID, f.basket.PendingSince = "TS-500", now.Add(-time.Second)
		_, _, err := placer(f).Place(context.Background(), req)
		var conflict *shoperr.ConflictError
		if !errors.As(err, &conflict) || conflict.OrderID != "TS-500" || len(f.undone) != 0 {
			t.Fatalf("live: %v, undone %v", err, f.undone)
		}
		f.basket.PendingSince = now.Add(-DefaultStaleAfter)
		if _, created, err := placer(f).Place(context.Background(), req); err != nil || !created || len(f.undone) != 1 {
			t.Fatalf("stale: %v %v, undone %v", created, err, f.undone)
		}
	})

	t.Run("an unknown delivery option is a field error", func(t *testing.T) {
		_, _, err := placer(newFake(12, 1000)).Place(context.Background(), Request{UID: "u1", IdempotencyKey: "k", DeliveryOption: "pigeon"})
		var field *shoperr.FieldError
		if !errors.As(err, &field) || field.Field != "delivery_option" {
			t.Fatalf("%v", err)
		}
	})
}

func TestSweepUndoesEveryStalePendingOrder(t *testing.T) {
	t.Parallel()
	f := newFake(12, 1000)
	n, err := Sweep(context.Background(), f, now, DefaultStaleAfter)
	if err != nil || n != 2 || strings.Join(f.undone, ",") != "TS-1,TS-2" {
		t.Fatalf("%d %v %v", n, err, f.undone)
	}
}
