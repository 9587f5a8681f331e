package orders

import (
	"context"
	"errors"
	"fmt"
	"github.com/tradeshop/functions/internal/outbox"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

// mixedOrder is an order of lines at 20%, 5% and 0% with a coupon shared across them and
// delivery, priced and built as a real placement is.
func mixedOrder(t *testing.T, pay string, coupon *basket.Coupon, option int) Order {
	t.Helper()
	products := map[string]catalogue.Product{}
	var lines []basket.Line
	for i, rate := range []int{20, 5, 0, 20, 5} {
		sku := fmt.Sprintf("GC103-%05d", i)
		products[sku] = catalogue.Product{SKU: sku, Name: "Line " + sku, PackSize: 6, UnitPrice: int64(333 + 17*i), VATRate: rate, Stock: 1000}
		lines = append(lines, basket.Line{SKU: sku, Quantity: 6 * (i + 1), AddedAt: now})
	}
	p := basket.Price(basket.Basket{Version: 1, Lines: lines}, products, pricing.Terms{}, coupon, testShop, now)
	acct := billed
	b := *billed.Billing
	b.PaymentMethod = pay
	acct.Billing, acct.ApprovedForCredit = &b, true
	o, err := Build(p, acct, QuoteOf(p, testShop.DeliveryOptions[option], testShop), Request{UID: "u1", EmailVerified: true}, "TS-100042", now)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestRateTotalsAddUpToTheOrder(t *testing.T) {
	t.Parallel()
	percent := &basket.Coupon{Coupon: pricing.Coupon{ID: "TRADE10", Kind: "percent", Percent: 10}}
	fixed := &basket.Coupon{Coupon: pricing.Coupon{ID: "WELCOME5", Kind: "fixed", AmountPence: 503}}
	for _, tc := range []struct {
		name   string
		coupon *basket.Coupon
		option int
		rates  []int
	}{
		{"no coupon, delivery charged at 20%", nil, 1, []int{20, 5, 0}},
		{"a percent coupon shared across the rates", percent, 1, []int{20, 5, 0}},
		{"a fixed coupon whose pennies do not divide evenly", fixed, 0, []int{20, 5, 0}},
	} {
		o := mixedOrder(t, account.PayOnAccount, tc.coupon, tc.option)
		totals := RateTotals(o, testShop.DefaultVATRate)
		var net, vat int64
		var rates []int
		for _, r := range totals {
			net += r.NetExVAT
			vat += r.VAT
			rates = append(rates, r.Rate)
		}
		if net != o.NetExVAT || vat != o.VAT || fmt.Sprint(rates) != fmt.Sprint(tc.rates) {
			t.Errorf("%s: rates %v add up to %d + %d VAT; the order is %d + %d", tc.name, totals, net, vat, o.NetExVAT, o.VAT)
		}
		if tc.coupon != nil && o.CouponDiscount == 0 {
			t.Errorf("%s: the coupon took nothing off", tc.name)
		}
	}
}

func TestRateTotalsOfFreeDeliveryHaveNoDeliveryLine(t *testing.T) {
	t.Parallel()
	o := Order{Lines: []Line{{LineAmount: 1000, VATRate: 5, VAT: 50}}, NetExVAT: 1000, VAT: 50}
	if got := RateTotals(o, 20); len(got) != 1 || got[0] != (RateTotal{Rate: 5, NetExVAT: 1000, VAT: 50}) {
		t.Fatalf("%+v", got)
	}
}

func TestPaymentTerms(t *testing.T) {
	t.Parallel()
	shop := testShop
	shop.BankTransfer.AccountName, shop.BankTransfer.SortCode, shop.BankTransfer.AccountNumber = "Cards Wholesale", "12-34-56", "87654321"
	pro := NewInvoice(mixedOrder(t, account.PayProForma, nil, 1), shop, 7, now)
	if !strings.HasPrefix(pro.PaymentTerms, "Pro-forma: please pay £") ||
		!strings.Contains(pro.PaymentTerms, "to Cards Wholesale, sort code 12-34-56, account 87654321, quoting TS-100042.") {
		t.Errorf("pro-forma: %q", pro.PaymentTerms)
	}
	acct := NewInvoice(mixedOrder(t, account.PayOnAccount, nil, 1), shop, 8, now)
	if !strings.HasPrefix(acct.PaymentTerms, "On account: payment of £") || !strings.HasSuffix(acct.PaymentTerms, "is due within 30 days of the invoice date, by 23 December 2026.") {
		t.Errorf("on account: %q", acct.PaymentTerms)
	}
	if acct.Number != 8 || InvoiceNumber(acct.Number) != "INV-000008" || !acct.IssuedAt.Equal(now) {
		t.Errorf("%+v", acct)
	}
}

func TestInvoiceDateIsTheLondonDay(t *testing.T) {
	t.Parallel()
	// 23:30 UTC on 30 June is 00:30 on 1 July in London (BST); in winter London is UTC.
	if got := InvoiceDate(time.Date(2026, 6, 30, 23, 30, 0, 0, time.UTC)); got != "1 July 2026" {
		t.Errorf("summer: %s", got)
	}
	if got := InvoiceDate(time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC)); got != "31 December 2026" {
		t.Errorf("winter: %s", got)
	}
}

func TestPlaceIssuesTheInvoice(t *testing.T) {
	t.Parallel()
	req := Request{UID: "u1", IdempotencyKey: "key-1", DeliveryOption: "standard"}

	t.Run("the placed order comes back with its invoice; a retry answers the same one", func(t *testing.T) {
		f := newFake(12, 1000)
		o, _, err := placer(f).Place(context.Background(), req)
		if err != nil || o.Invoice == nil || o.Invoice.Number != 1 || len(o.Invoice.Rates) != 1 {
			t.Fatalf("%+v %v", o.Invoice, err)
		}
		again, _, err := placer(f).Place(context.Background(), req)
		if err != nil || again.Invoice == nil || again.Invoice.Number != 1 || f.issued != 1 {
			t.Fatalf("retry: %+v %v (issued %d)", again.Invoice, err, f.issued)
		}
	})

	t.Run("the order stands when invoicing fails, and a retry issues its invoice", func(t *testing.T) {
		f := newFake(12, 1000)
		f.invoiceErr = errors.New("store down")
		o, created, err := placer(f).Place(context.Background(), req)
		if err != nil || !created || o.Invoice != nil {
			t.Fatalf("%v %v %+v", created, err, o.Invoice)
		}
		f.invoiceErr = nil
		again, _, err := placer(f).Place(context.Background(), req)
		if err != nil || again.ID != o.ID || again.Invoice == nil || again.Invoice.Number != 1 {
			t.Fatalf("retry: %+v %v", again.Invoice, err)
		}
	})

	t.Run("the sweep issues what a crash left unissued", func(t *testing.T) {
		f := newFake(12, 1000)
		f.invoiceErr = errors.New("killed")
		o, _, _ := placer(f).Place(context.Background(), req)
		f.invoiceErr = nil
		f.toInvoice = []OrderRef{{UID: "u1", ID: o.ID}}
		r, err := Recover(context.Background(), f, testShop, nil, now, DefaultStaleAfter, InvoiceAfter)
		if err != nil || r.Undone != 2 || r.Invoiced != 1 || f.orders[o.ID].Invoice == nil {
			t.Fatalf("%+v %v", r, err)
		}
	})
}

// IssueInvoice of the fake store: numbers from 1, one per order.
func (f *fakeStore) IssueInvoice(_ context.Context, placed Order, build func(Order, int64) Invoice, _ func(Order) []outbox.Message) (Order, error) {
	if f.invoiceErr != nil {
		return Order{}, f.invoiceErr
	}
	o, ok := f.orders[placed.ID]
	if !ok {
		return Order{}, errors.New("not found")
	}
	if o.Invoice == nil {
		f.issued++
		inv := build(o, int64(f.issued))
		o.Invoice = &inv
		f.orders[o.ID] = o
	}
	return o, nil
}

func (f *fakeStore) ToInvoice(context.Context, time.Time) ([]OrderRef, error) {
	return f.toInvoice, nil
}

// Cancelling of the fake store: no cancellations.
func (f *fakeStore) Cancelling(context.Context, time.Time) ([]OrderRef, error) { return nil, nil }

func (f *fakeStore) FinishCancel(context.Context, string, string, func(Order) []outbox.Message) (Order, error) {
	return Order{}, errors.New("not in the fake")
}
