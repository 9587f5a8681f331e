package orders

import (
	"errors"
	"testing"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
)

// mixed is a basket of stockUnits of a card in stock and fwdUnits of a forward card
// (pre-order open at now), with a 10% coupon, priced.
func mixed(stockUnits, fwdUnits int) basket.Priced {
	inStock := product("GC101-00001", 1000)
	fwd := product("XM201-00001", 0)
	fwd.Forward = &catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-06-30"}
	b := basket.Basket{Version: 3}
	if stockUnits > 0 {
		b.Lines = append(b.Lines, basket.Line{SKU: inStock.SKU, Quantity: stockUnits, AddedAt: now})
	}
	if fwdUnits > 0 {
		b.Lines = append(b.Lines, basket.Line{SKU: fwd.SKU, Quantity: fwdUnits, AddedAt: now})
	}
	coupon := &basket.Coupon{Coupon: pricing.Coupon{ID: "TEN", Kind: "percent", Percent: 10}}
	return basket.Price(b, map[string]catalogue.Product{inStock.SKU: inStock, fwd.SKU: fwd}, pricing.Terms{}, coupon, testShop, now)
}

func TestACheckoutSplitsIntoTodaysOrderAndTheForwardOrder(t *testing.T) {
	t.Parallel()
	// £60 in stock and £120 forward: the coupon takes 10% of today's £60 only; together
	// they pass the £100 minimum, though today's part alone does not.
	p := mixed(6, 12)
	if p.BelowMinimumBy != 0 || p.CouponDiscount != 600 || p.Forward.GoodsExVAT != 12000 || p.Forward.VAT != 2400 {
		t.Fatalf("priced: below %d coupon %d forward %+v", p.BelowMinimumBy, p.CouponDiscount, p.Forward)
	}
	q := QuoteOf(p, testShop.DeliveryOptions[0], testShop)
	if q.Free || q.ChargeExVAT != 795 {
		t.Fatalf("under the £300 threshold standard delivery is charged: %+v", q)
	}
	c, err := BuildCheckout(p, billed, q, Request{UID: "u1", NoBackorders: true}, "TS-100001", "TS-100002", now)
	if err != nil {
		t.Fatal(err)
	}
	today, fwd := c.Today, c.Forward
	if today == nil || fwd == nil || c.Primary().ID != "TS-100001" || today.Companion != "TS-100002" || fwd.Companion != "TS-100001" {
		t.Fatalf("orders: %+v %+v", today, fwd)
	}
	if len(today.Lines) != 1 || today.Lines[0].SKU != "GC101-00001" || today.CouponID != "TEN" || today.CouponDiscount != 600 ||
		today.DeliveryCharge != 795 || today.NetExVAT != 6000-600+795 || today.TotalIncVAT != today.NetExVAT+today.VAT {
		t.Fatalf("today's order: %+v", today)
	}
	if !fwd.Forward() || fwd.Status != StatusForward || !fwd.NoBackorders || fwd.CouponID != "" || fwd.DeliveryCharge != 0 ||
		fwd.GoodsExVAT != 12000 || fwd.NetExVAT != 12000 || fwd.VAT != 2400 || fwd.TotalIncVAT != 14400 ||
		fwd.Lines[0].DeliveryFrom != "2027-09-01" || fwd.Lines[0].OrderBy != "2027-06-30" {
		t.Fatalf("forward order: %+v", fwd)
	}
	// The two orders add up to the checkout the buyer was quoted.
	if today.TotalIncVAT+fwd.TotalIncVAT != q.TotalIncVAT || today.VAT+fwd.VAT != q.VAT {
		t.Fatalf("today %d + forward %d != quoted %d", today.TotalIncVAT, fwd.TotalIncVAT, q.TotalIncVAT)
	}
}

func TestABasketOfForwardLinesOnlyIsOneForwardOrderDeliveredFree(t *testing.T) {
	t.Parallel()
	p := mixed(0, 12)
	q := QuoteOf(p, testShop.DeliveryOptions[1], testShop)
	if !q.Free || q.ChargeExVAT != 0 {
		t.Fatalf("forward deliveries are carriage paid: %+v", q)
	}
	c, err := BuildCheckout(p, billed, q, Request{UID: "u1"}, "TS-100003", "", now)
	if err != nil || c.Today != nil || c.Forward == nil || c.Primary().ID != "TS-100003" || c.Forward.Companion != "" {
		t.Fatalf("%+v %v", c, err)
	}
	if p.CouponDiscount != 0 {
		t.Fatalf("no coupon comes off forward lines: %d", p.CouponDiscount)
	}
}

func TestStaffActionsDoNotApplyToAForwardOrder(t *testing.T) {
	t.Parallel()
	o := Order{ID: "TS-100004", Kind: KindForward, Status: StatusForward}
	for _, a := range []string{ActionConfirm, ActionPay, ActionDispatch, ActionComplete, ActionCancel} {
		var conflict *shoperr.ConflictError
		if err := Allowed(o, a); !errors.As(err, &conflict) {
			t.Errorf("%s: %v, want a 409", a, err)
		}
	}
}
