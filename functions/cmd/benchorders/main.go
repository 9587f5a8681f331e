// Command benchorders supports the orders bench (scripts/bench orders; figures in
// docs/PERFORMANCE.md). It has two modes, both against the DynamoDB Local of
// DYNAMODB_ENDPOINT:
//
//	benchorders -calls 1,20,93,200
//	    places one order of each size through orders.Placer and the store, on a table of
//	    its own (created and deleted), and prints the DynamoDB calls each placement made,
//	    counted by a middleware on the SDK's stack (not estimated), per operation kind;
//	    each size once without a coupon and once with one.
//	benchorders -quick 500,200
//	    on a table of its own, checks a quick order of the first number of SKUs
//	    (basket.Service.Check, as POST /api/skus) and adds the second number of lines in one
//	    call (basket.Service.AddMany, as POST /api/basket/addMany), and prints the DynamoDB
//	    calls each made.
//	benchorders -products 1000
//	    writes that many bench products (stock for any run) to TABLE_NAME, the table the
//	    local edge serves, and prints {"skus":[…],"packSize":…,"unitPrice":…} for the
//	    HTTP load (scripts/bench-orders.mjs).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/aws/smithy-go/middleware"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/callcount"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
)

// The bench products: a pack of 6 at £20 a unit is £120 ex VAT, so an order of one line
// is over the minimum order; stock enough for any bench run.
const (
	packSize  = 6
	unitPrice = 2000
	stock     = 1_000_000_000
	couponID  = "BENCHORDERS"
)

func main() {
	calls := flag.String("calls", "", "order sizes (lines) whose DynamoDB calls to count, comma separated")
	products := flag.Int("products", 0, "bench products to write to TABLE_NAME for the HTTP load")
	quick := flag.String("quick", "", "a quick order's SKUs looked up and lines added, comma separated (500,200)")
	flag.Parse()
	ctx := context.Background()
	var err error
	switch {
	case *calls != "":
		err = countCalls(ctx, *calls)
	case *quick != "":
		err = countQuickOrder(ctx, *quick)
	case *products > 0:
		err = writeProducts(ctx, *products)
	default:
		err = fmt.Errorf("give -calls, -quick or -products")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchorders:", err)
		os.Exit(1)
	}
}

func benchProducts(n int) []catalogue.Product {
	out := make([]catalogue.Product, n)
	for i := range out {
		out[i] = catalogue.Product{SKU: fmt.Sprintf("BO900-%05d", i+1), Slug: fmt.Sprintf("bench-order-product-%d", i+1),
			Name: fmt.Sprintf("Bench order product %d", i+1), CategoryID: 1, RangeURLText: "bench",
			PackSize: packSize, UnitPrice: unitPrice, VATRate: 20, Stock: stock}
	}
	return out
}

func writeProducts(ctx context.Context, n int) error {
	st, err := store.Open(ctx, store.ConfigFromEnv(os.Getenv))
	if err != nil {
		return err
	}
	ps := benchProducts(n)
	if err := st.PutCatalogue(ctx, nil, nil, ps, nil); err != nil {
		return err
	}
	skus := make([]string, n)
	for i, p := range ps {
		skus[i] = p.SKU
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"skus": skus, "packSize": packSize, "unitPrice": unitPrice})
}

func countCalls(ctx context.Context, sizes string) error {
	lines, err := callcount.Sizes(sizes, "order size")
	if err != nil {
		return err
	}
	c, st, shop, ps, err := countedCatalogue(ctx, slices.Max(lines))
	if err != nil {
		return err
	}
	defer st.DeleteTable(context.WithoutCancel(ctx))
	coupon := store.StoredCoupon{Description: "5% off (bench)", Coupon: pricing.Coupon{ID: couponID, Kind: "percent", Percent: 5,
		ValidFrom: time.Now().Add(-time.Hour), ValidTo: time.Now().Add(24 * time.Hour), UsageLimit: 1_000_000, PerAccountLimit: 100}}
	if err := st.PutCoupons(ctx, []store.StoredCoupon{coupon}); err != nil {
		return err
	}
	placer := orders.Placer{Store: st, Shop: shop, Now: time.Now, StaleAfter: orders.DefaultStaleAfter}
	for _, n := range lines {
		for _, withCoupon := range []bool{false, true} {
			uid := fmt.Sprintf("bench-calls-%d-%t-%d", n, withCoupon, time.Now().UnixNano())
			if err := fillBasket(ctx, st, uid, ps[:n], withCoupon); err != nil {
				return err
			}
			c.Reset()
			o, created, err := placer.Place(ctx, orders.Request{UID: uid, IdempotencyKey: fmt.Sprintf("bench-calls-key-%d-%t", n, withCoupon),
				DeliveryOption: shop.DeliveryOptions[0].ID})
			if err != nil {
				return fmt.Errorf("place an order of %d lines: %w", n, err)
			}
			got := c.Take()
			if !created || len(o.Lines) != n || (withCoupon && o.CouponID != couponID) {
				return fmt.Errorf("the %d-line order %s came back with %d lines, coupon %q (created %t)", n, o.ID, len(o.Lines), o.CouponID, created)
			}
			path := "one transaction"
			if n > orders.MaxOneTransaction {
				path = fmt.Sprintf("chunked: %d chunks", (n+orders.ChunkLines-1)/orders.ChunkLines)
			}
			with := "no coupon"
			if withCoupon {
				with = "coupon"
			}
			fmt.Printf("order calls %d lines, %s (%s): %d calls (%d attempts): %s\n", n, with, path, got.Total, got.Attempts, got.Breakdown())
		}
	}
	return nil
}

// fillBasket saves uid's billing and fills its basket with one pack of each product (and
// applies the bench coupon), as the buyer's earlier requests would.
func fillBasket(ctx context.Context, st *store.Store, uid string, ps []catalogue.Product, withCoupon bool) error {
	if err := st.SaveBilling(ctx, uid, store.Billing{Company: "Bench Cards Ltd", Contact: "Pat Bench", PaymentMethod: "proforma",
		Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
		return err
	}
	for i := 0; i < len(ps); i += 50 {
		var adds []basket.Add
		for _, p := range ps[i:min(i+50, len(ps))] {
			adds = append(adds, basket.Add{SKU: p.SKU, Quantity: p.PackSize, Limit: basket.LineLimit(p, time.Now())})
		}
		if err := st.AddLines(ctx, uid, adds, time.Now()); err != nil {
			return err
		}
	}
	if withCoupon {
		return st.SetActiveCoupon(ctx, uid, store.CouponPrefix+couponID, time.Now())
	}
	return nil
}

// countedCatalogue opens a table of its own (created here; the caller deletes it) through a
// store whose every DynamoDB call c counts, and writes n bench products to it; it answers
// them with the shop's configuration. On an error the table is already deleted.
func countedCatalogue(ctx context.Context, n int) (*callcount.Counter, *store.Store, config.Shop, []catalogue.Product, error) {
	c := callcount.New()
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName = fmt.Sprintf("bench-order-calls-%d", time.Now().UnixNano())
	cfg.APIOptions = []func(*middleware.Stack) error{c.Middleware}
	st, err := store.Open(ctx, cfg)
	if err != nil {
		return nil, nil, config.Shop{}, nil, err
	}
	if _, err := st.EnsureTable(ctx); err != nil {
		return nil, nil, config.Shop{}, nil, err
	}
	shop, err := config.Load()
	ps := benchProducts(n)
	if err == nil {
		err = st.PutCatalogue(ctx, nil, nil, ps, nil)
	}
	if err != nil {
		_ = st.DeleteTable(context.WithoutCancel(ctx))
		return nil, nil, config.Shop{}, nil, err
	}
	return c, st, shop, ps, nil
}

// countQuickOrder counts the DynamoDB calls of a quick order's check of lookup SKUs and
// of its add of add lines, as the two endpoints make them.
func countQuickOrder(ctx context.Context, sizes string) error {
	var lookup, add int
	if _, err := fmt.Sscanf(sizes, "%d,%d", &lookup, &add); err != nil || lookup < 1 || add < 1 {
		return fmt.Errorf("bad -quick %q: give SKUs looked up and lines added, such as 500,200", sizes)
	}
	c, st, shop, ps, err := countedCatalogue(ctx, max(lookup, add))
	if err != nil {
		return err
	}
	defer st.DeleteTable(context.WithoutCancel(ctx))
	adds := func(n int) []basket.Add {
		out := make([]basket.Add, n)
		for i, p := range ps[:n] {
			out[i] = basket.Add{SKU: p.SKU, Quantity: p.PackSize}
		}
		return out
	}
	svc := basket.Service{Store: st, Shop: shop, Now: time.Now}
	uid := fmt.Sprintf("bench-quick-%d", time.Now().UnixNano())
	c.Reset()
	checks, _, err := svc.Check(ctx, uid, adds(lookup))
	if err != nil {
		return err
	}
	got := c.Take()
	fmt.Printf("quick order calls, look up %d SKUs: %d calls (%d attempts): %s\n", len(checks), got.Total, got.Attempts, got.Breakdown())
	added, err := svc.AddMany(ctx, uid, adds(add))
	if err != nil {
		return err
	}
	got = c.Take()
	if len(added.Basket.Lines) != add {
		return fmt.Errorf("the basket holds %d lines after adding %d", len(added.Basket.Lines), add)
	}
	fmt.Printf("quick order calls, add %d lines: %d calls (%d attempts): %s\n", add, got.Total, got.Attempts, got.Breakdown())
	return nil
}
