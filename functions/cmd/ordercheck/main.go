// Command ordercheck prepares and reads the figures of the order fault suite
// (scripts/faults.mjs), through the store package, so the suite checks what the table
// holds rather than what the API said. It reads DYNAMODB_ENDPOINT, TABLE_NAME,
// AWS_REGION and STORE_TIMEOUT_MS as the functions do, and prints JSON. As every batch tool
// it sends a call the store did not answer in time again, for up to STORE_BATCH_BUDGET_MS,
// saying so on standard error.
//
//	ordercheck setup -products 6 -orders-each 5 -coupon FAULTS1 [-exclude SKU,…]
//	    picks products whose pack costs 40 to 200 pounds (not the excluded ones), sets each
//	    one's stock to what -orders-each orders of the suite's size take, and writes a
//	    10%-off coupon usable once in all; prints the products (sku, pack_size, stock,
//	    packs_per_order, path) and the coupon.
//	ordercheck check -uids UID,… -skus SKU,… -coupon FAULTS1
//	    prints every order of those buyers (id, status, coupon, lines, invoice number),
//	    each product's stock now, the coupon's used count and limit, and the invoice
//	    numbers issued (each with its order) and the invoice counter; and the credit
//	    note numbers issued (each with its order), the credit note counter, and every
//	    credit note invariant the table breaks (orders.CreditNoteProblems, sentences;
//	    none when they hold); and, for every account (those -uids names and every one the
//	    staff list holds), how many accounts, payments, credit on account items, refunds and
//	    allocations it read (and each payment: uid, id, method, amount, allocated), and
//	    every money invariant the table breaks (payments.AccountProblems, sentences; none
//	    when they hold).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
)

// minOrderValue is what one order of the suite is worth at least, ex VAT: above the
// shop's minimum order (config/shop.json) with room for a discount.
const minOrderValue = 15000

func main() {
	if len(os.Args) < 2 {
		fail(errors.New("usage: ordercheck setup|check [flags]"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := store.Open(ctx, store.BatchConfigFromEnv(os.Getenv, func(r store.Retry) { fmt.Fprintf(os.Stderr, "ordercheck: %s\n", r) }))
	if err != nil {
		fail(err)
	}
	var out any
	switch os.Args[1] {
	case "setup":
		out, err = setup(ctx, st, os.Args[2:])
	case "check":
		out, err = check(ctx, st, os.Args[2:])
	default:
		err = fmt.Errorf("unknown subcommand %q: setup or check", os.Args[1])
	}
	if err != nil {
		fail(err)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "ordercheck: %v\n", err)
	os.Exit(1)
}

func list(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

type setupProduct struct {
	SKU           string `json:"sku"`
	Name          string `json:"name"`
	Path          string `json:"path"`
	PackSize      int    `json:"pack_size"`
	PackPrice     int64  `json:"pack_price"`
	PacksPerOrder int    `json:"packs_per_order"`
	Stock         int    `json:"stock"` // units
}

type setupCoupon struct {
	ID    string `json:"id"`
	Limit int    `json:"limit"`
}

func setup(ctx context.Context, st *store.Store, args []string) (any, error) {
	fs := flag.NewFlagSet("setup", flag.ExitOnError)
	n := fs.Int("products", 6, "how many products the buyers order")
	ordersEach := fs.Int("orders-each", 5, "how many orders of the suite's size each product's stock covers")
	couponID := fs.String("coupon", "FAULTS1", "id of the coupon usable once in all")
	exclude := fs.String("exclude", "", "SKUs not to pick (comma-separated)")
	_ = fs.Parse(args)

	_, _, products, err := st.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(products, func(a, b catalogue.Product) int { return strings.Compare(a.SKU, b.SKU) })
	var picked []catalogue.Product
	var out []setupProduct
	for _, p := range products {
		pack := p.UnitPrice * int64(p.PackSize)
		if len(picked) == *n || slices.Contains(list(*exclude), p.SKU) || pack < 4000 || pack > 20000 {
			continue
		}
		perOrder := int((minOrderValue + pack - 1) / pack)
		p.Stock = *ordersEach * perOrder * p.PackSize
		picked = append(picked, p)
		out = append(out, setupProduct{SKU: p.SKU, Name: p.Name, Path: catalogue.ProductPath(p), PackSize: p.PackSize,
			PackPrice: pack, PacksPerOrder: perOrder, Stock: p.Stock})
	}
	if len(picked) < *n {
		return nil, fmt.Errorf("the catalogue has %d products with a pack of 40 to 200 pounds, want %d", len(picked), *n)
	}
	if err := st.PutCatalogue(ctx, nil, nil, picked, nil); err != nil {
		return nil, err
	}
	coupon := store.StoredCoupon{Description: "Fault suite: 10% off, once in all",
		Coupon: pricing.Coupon{ID: *couponID, Kind: "percent", Percent: 10, UsageLimit: 1}}
	if err := st.PutCoupons(ctx, []store.StoredCoupon{coupon}); err != nil {
		return nil, err
	}
	return map[string]any{"products": out, "coupon": setupCoupon{ID: *couponID, Limit: 1}}, nil
}

type checkLine struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

type checkOrder struct {
	UID      string      `json:"uid"`
	ID       string      `json:"id"`
	Status   string      `json:"status"`
	CouponID string      `json:"coupon_id,omitempty"`
	Lines    []checkLine `json:"lines"`
	Invoice  int64       `json:"invoice"` // its invoice number, 0 for none
	// CreditNotes are the numbers of its credit notes.
	CreditNotes []int64 `json:"credit_notes"`
}

// checkNumber is an invoice number issued and the order it names.
type checkNumber struct {
	Number  int64  `json:"number"`
	UID     string `json:"uid"`
	OrderID string `json:"order_id"`
}

func check(ctx context.Context, st *store.Store, args []string) (any, error) {
	fs := flag.NewFlagSet("check", flag.ExitOnError)
	uids := fs.String("uids", "", "the buyers (comma-separated uids)")
	skus := fs.String("skus", "", "the products (comma-separated SKUs)")
	couponID := fs.String("coupon", "FAULTS1", "the coupon")
	_ = fs.Parse(args)

	out := []checkOrder{}
	var all []orders.Order
	for _, uid := range list(*uids) {
		placed, err := st.Orders(ctx, uid)
		if err != nil {
			return nil, fmt.Errorf("orders of %s: %w", uid, err)
		}
		all = append(all, placed...)
		for _, o := range placed {
			c := checkOrder{UID: uid, ID: o.ID, Status: o.Status, CouponID: o.CouponID, Lines: []checkLine{}, CreditNotes: []int64{}}
			if o.Invoice != nil {
				c.Invoice = o.Invoice.Number
			}
			for _, n := range o.CreditNotes {
				c.CreditNotes = append(c.CreditNotes, n.Number)
			}
			for _, l := range o.Lines {
				c.Lines = append(c.Lines, checkLine{SKU: l.SKU, Quantity: l.Quantity})
			}
			out = append(out, c)
		}
	}
	products, err := st.ProductsBySKU(ctx, list(*skus))
	if err != nil {
		return nil, err
	}
	stock := map[string]int{}
	for _, sku := range list(*skus) {
		p, ok := products[sku]
		if !ok {
			return nil, fmt.Errorf("no product %s", sku)
		}
		stock[sku] = p.Stock
	}
	c, err := st.Coupon(ctx, *couponID)
	if err != nil {
		return nil, err
	}
	issued, err := st.InvoiceNumbers(ctx)
	if err != nil {
		return nil, err
	}
	numbers := []checkNumber{}
	for _, n := range issued {
		numbers = append(numbers, checkNumber{Number: n.Number, UID: n.Order.UID, OrderID: n.Order.ID})
	}
	last, err := st.InvoiceCounter(ctx)
	if err != nil {
		return nil, err
	}
	credits, err := creditNotes(ctx, st, all)
	if err != nil {
		return nil, err
	}
	money, err := moneyChecks(ctx, st, list(*uids))
	if err != nil {
		return nil, err
	}
	return map[string]any{"orders": out, "stock": stock,
		"coupon":       map[string]any{"id": c.ID, "used": c.Used, "limit": c.UsageLimit},
		"invoices":     map[string]any{"numbers": numbers, "counter": last},
		"credit_notes": credits,
		"payments":     money}, nil
}

// moneyCheck is what the money check read and found (docs/invoices.md "Payments").
type moneyCheck struct {
	Accounts        int      `json:"accounts"`
	Payments        int      `json:"payments"`
	CreditOnAccount int      `json:"credit_on_account"`
	Refunds         int      `json:"refunds"`
	Allocations     int      `json:"allocations"`
	Problems        []string `json:"problems"`
	// Held are the payments and credit on account read, so the suite can find each one
	// staff were told was recorded.
	Held []heldCheck `json:"held"`
}

// heldCheck is a payment or credit on account as the table holds it.
type heldCheck struct {
	UID       string `json:"uid"`
	ID        string `json:"id"`
	Method    string `json:"method"`
	Amount    int64  `json:"amount"`
	Allocated int64  `json:"allocated"`
}

// moneyChecks holds every account to the money invariants (payments.AccountProblems):
// the accounts uids names and every account the staff list holds, each with its ledger
// as the service draws it.
func moneyChecks(ctx context.Context, st *store.Store, uids []string) (moneyCheck, error) {
	all := slices.Clone(uids)
	var from *store.ListCursor
	for {
		page, next, err := st.StaffAccounts(ctx, "", from, 100)
		if err != nil {
			return moneyCheck{}, err
		}
		for _, p := range page {
			all = append(all, p.UID)
		}
		if next == nil {
			break
		}
		from = next
	}
	slices.Sort(all)
	svc := payments.Service{Store: st, Now: time.Now}
	out := moneyCheck{Problems: []string{}, Held: []heldCheck{}}
	for _, uid := range slices.Compact(all) {
		b, err := st.MoneyBooks(ctx, uid)
		if err != nil {
			return moneyCheck{}, err
		}
		if b.Ledger, err = svc.Ledger(ctx, uid); errors.Is(err, store.ErrNotFound) && len(b.Orders) == 0 && len(b.Held) == 0 {
			continue // a buyer who never saved a profile and has no money
		} else if err != nil {
			return moneyCheck{}, fmt.Errorf("ledger of %s: %w", uid, err)
		}
		out.Accounts++
		for _, h := range b.Held {
			if h.Method == "credit_note" {
				out.CreditOnAccount++
			} else {
				out.Payments++
			}
			out.Allocations += len(h.Allocations)
			out.Held = append(out.Held, heldCheck{UID: uid, ID: h.ID, Method: h.Method, Amount: h.Amount, Allocated: h.Allocated})
		}
		out.Refunds += len(b.Refunds)
		out.Problems = append(out.Problems, payments.AccountProblems(b)...)
	}
	return out, nil
}

// creditNotes reads the credit note numbers and counter, and checks the invariants over
// the orders read and every other order a number names.
func creditNotes(ctx context.Context, st *store.Store, all []orders.Order) (map[string]any, error) {
	issued, err := st.CreditNoteNumbers(ctx)
	if err != nil {
		return nil, err
	}
	last, err := st.CreditNoteCounter(ctx)
	if err != nil {
		return nil, err
	}
	read := map[orders.OrderRef]bool{}
	for _, o := range all {
		read[orders.OrderRef{UID: o.UID, ID: o.ID}] = true
	}
	numbers := []checkNumber{}
	for _, n := range issued {
		numbers = append(numbers, checkNumber{Number: n.Number, UID: n.Order.UID, OrderID: n.Order.ID})
		if read[n.Order] {
			continue
		}
		read[n.Order] = true
		o, err := st.Order(ctx, n.Order.UID, n.Order.ID)
		if errors.Is(err, store.ErrNotFound) {
			continue // CreditNoteProblems names it
		}
		if err != nil {
			return nil, err
		}
		all = append(all, o)
	}
	problems := orders.CreditNoteProblems(issued, last, all)
	if problems == nil {
		problems = []string{}
	}
	return map[string]any{"numbers": numbers, "counter": last, "problems": problems}, nil
}
