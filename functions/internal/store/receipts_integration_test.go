package store_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/receiving"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// The invariants of docs/forward-orders.md "Invariants", held against DynamoDB Local:
// per SKU and receipt Σ allocated ≤ received and the leftover in stock once; per line
// open + allocated + cancelled = ordered; every allocated unit on exactly one release
// order, which has its invoice.

const fwdPack = 6

var fwdStart = time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)

// fwdBuyer is one forward order of one line of the test's SKU.
type fwdBuyer struct {
	uid, order   string
	packs        int
	noBackorders bool
	onAccount    bool
	placedAt     time.Time
}

func (b fwdBuyer) lineSK() string { return forward.LineSK(b.placedAt, b.order) }

// seedForward writes the forward product sku (no stock) and n buyers' forward orders of
// it, each with its ledger line, oldest first.
func seedForward(t *testing.T, st *store.Store, sku string, n int, r *rand.Rand) []fwdBuyer {
	t.Helper()
	ctx := context.Background()
	put := func(item map[string]any) {
		t.Helper()
		if err := st.PutRawForTest(ctx, item); err != nil {
			t.Fatal(err)
		}
	}
	put(map[string]any{"pk": "PRODUCT#" + sku, "sk": "ITEM", "sku": sku, "name": "Card " + sku, "packSize": fwdPack, "unitPrice": 120,
		"vatRate": 20, "stock": 0, "fwd": map[string]any{"from": "2027-09-01", "by": "2027-06-30"}})
	var out []fwdBuyer
	for i := range n {
		b := fwdBuyer{uid: fmt.Sprintf("buyer-%d", i), order: fmt.Sprintf("TS-%d", 900001+i), packs: 1 + r.IntN(12),
			noBackorders: i%4 == 3, onAccount: i%2 == 0, placedAt: fwdStart.Add(time.Duration(i) * time.Minute)}
		units := b.packs * fwdPack
		method := "proforma"
		if b.onAccount {
			method = "account"
		}
		put(map[string]any{"pk": "USER#" + b.uid, "sk": "PROFILE", "owed": 0})
		put(map[string]any{"pk": "USER#" + b.uid, "sk": "ORDER#" + b.order, "id": b.order, "uid": b.uid, "placedAt": b.placedAt.UnixMilli(),
			"lines": []map[string]any{{"sku": sku, "name": "Card " + sku, "packSize": fwdPack, "quantity": units, "listPrice": 120, "unitPrice": 110,
				"lineAmount": int64(units) * 110, "vatRate": 20, "vat": int64(units) * 22, "deliveryFrom": "2027-09-01"}},
			"goodsExVat": int64(units) * 110, "netExVat": int64(units) * 110, "vat": int64(units) * 22, "totalIncVat": int64(units) * 132,
			"deliveryOption": "standard", "deliveryCharge": 0, "deliveryVat": 0, "status": "forward", "kind": "forward", "version": 1,
			"noBackorders": b.noBackorders, "email": b.uid + "@example.com",
			"billing": map[string]any{"company": "Shop " + b.uid, "contact": "A Buyer", "paymentMethod": method,
				"address": map[string]any{"line1": "1 High Street", "town": "Exampleton", "postcode": "EX1 1AA"}}})
		put(map[string]any{"pk": "FWD#" + sku, "sk": b.lineSK(), "sku": sku, "orderId": b.order, "uid": b.uid, "email": b.uid + "@example.com",
			"placedAt": b.placedAt.UnixMilli(), "packSize": fwdPack, "ordered": units, "open": units, "allocated": 0, "cancelled": 0,
			"noBackorders": b.noBackorders, "deliveryFrom": "2027-09-01", "orderBy": "2027-06-30", "unitPrice": 110, "name": "Card " + sku})
		out = append(out, b)
	}
	return out
}

func receivingOf(st receiving.Store, shop config.Shop) receiving.Service {
	return receiving.Service{Store: st, Shop: shop, Now: time.Now, Notify: mail.Notices{Shop: shop}, Placed: mail.Notices{Shop: shop}}
}

var staffMember = orders.Staff{UID: "staff-1", Email: "staff@example.com"}

func loadShop(t *testing.T) config.Shop {
	t.Helper()
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	return shop
}

// checkForwardInvariants checks every invariant over the buyers' lines, the receipts
// (each applied) and the product's stock.
func checkForwardInvariants(t *testing.T, st *store.Store, sku string, buyers []fwdBuyer, receiptIDs []string) {
	t.Helper()
	ctx := context.Background()
	received, allocated := 0, 0
	releases := map[string]string{} // release id: receipt
	for _, id := range receiptIDs {
		r, err := st.Receipt(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if r.State != receiving.StateApplied {
			t.Errorf("receipt %s is %s, want applied", id, r.State)
		}
		if r.Allocated[sku] > r.Received(sku) {
			t.Errorf("receipt %s: %d allocated of %d received", id, r.Allocated[sku], r.Received(sku))
		}
		received += r.Received(sku)
		allocated += r.Allocated[sku]
		sum := 0
		for _, oc := range r.Outcomes {
			for _, l := range oc.Lines {
				sum += l.Allocated
			}
			if oc.ReleaseID != "" {
				releases[oc.ReleaseID] = id
			}
		}
		if sum != r.Allocated[sku] {
			t.Errorf("receipt %s: outcomes allocate %d, its count %d", id, sum, r.Allocated[sku])
		}
	}
	lines := 0
	invoices := map[int64]string{}
	for _, b := range buyers {
		l, err := st.ForwardLine(ctx, sku, b.lineSK())
		if err != nil {
			t.Fatal(err)
		}
		if l.Open < 0 || l.Open+l.Allocated+l.Cancelled != l.Ordered {
			t.Errorf("%s: open %d + allocated %d + cancelled %d != ordered %d", b.order, l.Open, l.Allocated, l.Cancelled, l.Ordered)
		}
		if b.noBackorders && len(l.Receipts) > 0 && l.Open != 0 {
			t.Errorf("%s chose no backorders but %d units are still open after a delivery", b.order, l.Open)
		}
		if l.Allocated%fwdPack != 0 {
			t.Errorf("%s: %d allocated is not whole packs", b.order, l.Allocated)
		}
		lines += l.Allocated
		os, err := st.Orders(ctx, b.uid)
		if err != nil {
			t.Fatal(err)
		}
		shipped := int64(0)
		for _, o := range os {
			if o.ForwardOf == "" {
				continue
			}
			if o.ForwardOf != b.order || o.Receipt == "" || releases[o.ID] != o.Receipt {
				t.Errorf("release %s: forward of %s, receipt %s (the receipts name %q)", o.ID, o.ForwardOf, o.Receipt, releases[o.ID])
			}
			delete(releases, o.ID)
			for _, ol := range o.Lines {
				shipped += int64(ol.Quantity)
			}
			if o.Invoice == nil {
				t.Errorf("release %s has no invoice", o.ID)
			} else if other, dup := invoices[o.Invoice.Number]; dup {
				t.Errorf("invoice %d is on %s and %s", o.Invoice.Number, other, o.ID)
			} else {
				invoices[o.Invoice.Number] = o.ID
			}
		}
		if shipped != int64(l.Allocated) {
			t.Errorf("%s: %d units allocated, %d on its release orders", b.order, l.Allocated, shipped)
		}
	}
	if len(releases) > 0 {
		t.Errorf("releases the receipts name but no buyer holds: %v", releases)
	}
	if lines != allocated {
		t.Errorf("the lines hold %d allocated units, the receipts %d", lines, allocated)
	}
	p, err := st.Product(ctx, sku)
	if err != nil {
		t.Fatal(err)
	}
	if p.Stock != received-allocated {
		t.Errorf("stock %d, want received %d − allocated %d", p.Stock, received, allocated)
	}
}

func recordDelivery(t *testing.T, svc receiving.Service, sku string, packs int) receiving.Receipt {
	t.Helper()
	r, err := svc.Record(context.Background(), []receiving.LineRequest{{SKU: sku, Units: packs * fwdPack}}, staffMember)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReceiptRecordRefusesEachBadLine(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	svc := receivingOf(st, loadShop(t))
	seedForward(t, st, "FW-1", 1, rand.New(rand.NewPCG(1, 1)))
	if err := st.PutRawForTest(context.Background(), map[string]any{"pk": "PRODUCT#PLAIN-1", "sk": "ITEM", "sku": "PLAIN-1", "name": "Plain", "packSize": 6, "stock": 3}); err != nil {
		t.Fatal(err)
	}
	_, err := svc.Record(context.Background(), []receiving.LineRequest{{SKU: "FW-1", Units: 7}, {SKU: "PLAIN-1", Units: 6}, {SKU: "NOPE", Units: 6}, {SKU: "FW-1", Units: 6}}, staffMember)
	var fe interface{ Error() string }
	if !errors.As(err, &fe) {
		t.Fatalf("err %v", err)
	}
	for _, want := range []string{"Line 1 (FW-1): 7 units is not whole packs of 6.", "Line 2: PLAIN-1 is not a forward product", "Line 3: there is no product NOPE", "Line 4: FW-1 is on line 1 already"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err.Error(), want)
		}
	}
}

// A product whose pre-order staff ended before its goods came is received all the same
// while forward lines of it are open.
func TestReceiptRecordTakesAnEndedForwardProductWithOpenLines(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	svc := receivingOf(st, loadShop(t))
	seedForward(t, st, "FW-9", 2, rand.New(rand.NewPCG(9, 9)))
	p, err := st.Product(ctx, "FW-9")
	if err != nil {
		t.Fatal(err)
	}
	p.Forward = nil
	if err := st.PutCatalogue(ctx, nil, nil, []catalogue.Product{p}, nil); err != nil {
		t.Fatal(err)
	}
	r := recordDelivery(t, svc, "FW-9", 1)
	if r.Received("FW-9") != fwdPack {
		t.Fatalf("receipt %+v", r)
	}
}

// TestReceiptProposalAndApply: a short delivery is proposed pro rata, staff adjust one
// line, the apply releases it; applying again changes nothing.
func TestReceiptProposalAndApply(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	svc := receivingOf(st, loadShop(t))
	buyers := seedForward(t, st, "FW-2", 3, rand.New(rand.NewPCG(2, 2)))
	want := 0
	for _, b := range buyers {
		want += b.packs
	}
	r := recordDelivery(t, svc, "FW-2", want/2)
	p, err := svc.Propose(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.SKUs) != 1 || len(p.SKUs[0].Rows) != 3 || p.SKUs[0].Allocated != want/2*fwdPack || p.SKUs[0].Rows[0].Company != "Shop buyer-0" {
		t.Fatalf("proposal %+v", p)
	}
	row := p.SKUs[0].Rows[0]
	if _, err := svc.Apply(ctx, r.ID, []receiving.Adjustment{{SKU: "FW-2", LineSK: row.LineSK, Units: row.Want + fwdPack}}, staffMember); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("an allocation over the line's open: %v", err)
	}
	adj := []receiving.Adjustment{{SKU: "FW-2", LineSK: row.LineSK, Units: 0}}
	done, err := svc.Apply(ctx, r.ID, adj, staffMember)
	if err != nil {
		t.Fatal(err)
	}
	if done.State != receiving.StateApplied || done.Outcomes[row.OrderID].ReleaseID != "" {
		t.Fatalf("applied %+v", done)
	}
	again, err := svc.Apply(ctx, r.ID, nil, staffMember)
	if err != nil {
		t.Fatal(err)
	}
	if again.Allocated["FW-2"] != done.Allocated["FW-2"] {
		t.Errorf("applied again: %d allocated, first %d", again.Allocated["FW-2"], done.Allocated["FW-2"])
	}
	checkForwardInvariants(t, st, "FW-2", buyers, []string{r.ID})
}

// TestReceiptAppliedByTwoAtOnce: two members of staff apply the same delivery at the
// same moment: each unit is allocated once.
func TestReceiptAppliedByTwoAtOnce(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	svc := receivingOf(st, loadShop(t))
	buyers := seedForward(t, st, "FW-3", 6, rand.New(rand.NewPCG(3, 3)))
	r := recordDelivery(t, svc, "FW-3", 17)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() { _, errs[i] = svc.Apply(context.Background(), r.ID, nil, staffMember) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	checkForwardInvariants(t, st, "FW-3", buyers, []string{r.ID})
}

// TestReceiptsRaceCancels: three deliveries of one SKU applied by two runs each while
// buyers reduce their lines, 20 at once: no unit is allocated twice or both allocated
// and in stock.
func TestReceiptsRaceCancels(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	svc := receivingOf(st, loadShop(t))
	rnd := rand.New(rand.NewPCG(4, 4))
	buyers := seedForward(t, st, "FW-4", 8, rnd)
	var ids []string
	for _, packs := range []int{9, 7, 5} {
		ids = append(ids, recordDelivery(t, svc, "FW-4", packs).ID)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		if i < 6 {
			id := ids[i%3]
			wg.Go(func() {
				if _, err := svc.Apply(context.Background(), id, nil, staffMember); err != nil {
					errs <- fmt.Errorf("apply %s: %w", id, err)
				}
			})
			continue
		}
		b := buyers[rnd.IntN(len(buyers))]
		wg.Go(func() {
			err := st.CancelForwardForTest(context.Background(), "FW-4", b.lineSK(), fwdPack)
			var refused *orders.Refused
			if err != nil && !errors.As(err, &refused) {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, id := range ids {
		// A run that lost every race to a cancel leaves its receipt applying: the
		// re-run finishes it.
		if _, err := svc.Apply(context.Background(), id, nil, staffMember); err != nil {
			t.Fatal(err)
		}
	}
	checkForwardInvariants(t, st, "FW-4", buyers, ids)
}

// crashingStore fails every allocation step after the first `after`, as a process
// killed part-way would leave them.
type crashingStore struct {
	*store.Store
	mu    sync.Mutex
	after int
}

var errCrash = errors.New("killed")

func (c *crashingStore) AllocateOrder(ctx context.Context, s receiving.Step) error {
	c.mu.Lock()
	if c.after <= 0 {
		c.mu.Unlock()
		return errCrash
	}
	c.after--
	c.mu.Unlock()
	return c.Store.AllocateOrder(ctx, s)
}

// TestReceiptCrashPartWayIsFinished: an apply dies after two forward orders; its receipt
// stays applying with no stock added; the sweep (a minute on) finishes it with the same
// release numbers, and nothing is allocated twice.
func TestReceiptCrashPartWayIsFinished(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	shop := loadShop(t)
	buyers := seedForward(t, st, "FW-5", 5, rand.New(rand.NewPCG(5, 5)))
	r := recordDelivery(t, receivingOf(st, shop), "FW-5", 11)
	crashing := receivingOf(&crashingStore{Store: st, after: 2}, shop)
	if _, err := crashing.Apply(ctx, r.ID, nil, staffMember); !errors.Is(err, errCrash) {
		t.Fatalf("the crashing apply: %v", err)
	}
	mid, err := st.Receipt(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if mid.State != receiving.StateApplying || len(mid.Done) != 2 {
		t.Fatalf("after the crash: %s, done %v", mid.State, mid.Done)
	}
	if p, _ := st.Product(ctx, "FW-5"); p.Stock != 0 {
		t.Fatalf("stock %d before the close", p.Stock)
	}
	later := receivingOf(st, shop)
	later.Now = func() time.Time { return time.Now().Add(2 * receiving.SweepAfter) }
	n, err := later.Sweep(ctx, receiving.SweepAfter)
	if err != nil || n != 1 {
		t.Fatalf("sweep finished %d: %v", n, err)
	}
	done, err := st.Receipt(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range mid.Plan {
		if oc := done.Outcomes[p.OrderID]; oc.ReleaseID != "" && oc.ReleaseID != p.ReleaseID {
			t.Errorf("%s released as %s, planned %s", p.OrderID, oc.ReleaseID, p.ReleaseID)
		}
	}
	checkForwardInvariants(t, st, "FW-5", buyers, []string{r.ID})
}
