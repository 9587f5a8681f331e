package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/alerts"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/stock"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// alertsOver is the alerts' service over st, as the handlers build it.
func alertsOver(t *testing.T, st *store.Store) alerts.Service {
	t.Helper()
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	return alerts.Service{Store: st, Mail: mail.Notices{Shop: shop, SiteURL: "https://shop.example"}, Now: time.Now}
}

// alertProduct writes product sku, packs of 6, with stock units.
func alertProduct(t *testing.T, st *store.Store, sku string, units int, status string) catalogue.Product {
	t.Helper()
	p := catalogue.Product{SKU: sku, Slug: "card-" + strings.ToLower(sku), Name: "Card " + sku, CategoryID: 1, RangeURLText: "r", PackSize: 6,
		UnitPrice: 100, VATRate: 20, Stock: units, Status: status}
	if err := st.PutCatalogue(context.Background(), nil, nil, []catalogue.Product{p}, nil); err != nil {
		t.Fatal(err)
	}
	return p
}

// alertEmails answers the outbox ids of the alerts' emails waiting to be sent.
func alertEmails(t *testing.T, st *store.Store) []string {
	t.Helper()
	ids, err := st.DueOutbox(context.Background(), time.Now().Add(time.Hour), 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, id := range ids {
		if strings.HasPrefix(id, "alert/") {
			out = append(out, id)
		}
	}
	return out
}

// TestAlertAsk: a buyer's alert is kept once however often they ask; a product in stock
// (a pack or more), discontinued or unknown is refused with a sentence; less than one
// pack is out of stock; the buyer's list shows it until they remove it.
func TestAlertAsk(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	as := alertsOver(t, st)
	alertProduct(t, st, "AL100-00001", 5, "") // less than a pack of 6
	alertProduct(t, st, "AL100-00002", 6, "")
	alertProduct(t, st, "AL100-00003", 0, catalogue.StatusDiscontinued)
	forward := alertProduct(t, st, "AL100-00004", 0, "")
	forward.Forward = &catalogue.Forward{DeliveryFrom: "2099-09-01", OrderBy: "2099-06-30"}
	if err := st.PutCatalogue(ctx, nil, nil, []catalogue.Product{forward}, nil); err != nil {
		t.Fatal(err)
	}

	for range 2 {
		ls, err := as.Ask(ctx, "buyer-a", "a@example.com", "AL100-00001")
		if err != nil {
			t.Fatal(err)
		}
		if len(ls) != 1 || ls[0].SKU != "AL100-00001" || ls[0].InStock || ls[0].Path != "/card-al100-00001/" || ls[0].Name != "Card AL100-00001" {
			t.Fatalf("alerts %+v", ls)
		}
	}
	waiting, err := st.AlertsFor(ctx, "AL100-00001")
	if err != nil || len(waiting) != 1 || waiting[0].UID != "buyer-a" || waiting[0].Email != "a@example.com" {
		t.Fatalf("waiting %+v %v", waiting, err)
	}
	for _, c := range []struct {
		sku  string
		want string
	}{
		{"AL100-00002", "Card AL100-00002 is in stock: add it to your basket."},
		{"AL100-00003", "Card AL100-00003 is no longer sold, so it will not be back in stock."},
		{"AL100-00004", "Card AL100-00004 can be pre-ordered now: add it to your basket."},
		{"AL100-00009", "There is no product AL100-00009."},
		{"not a sku", "There is no product not a sku."},
	} {
		_, err := as.Ask(ctx, "buyer-a", "a@example.com", c.sku)
		var conflict *shoperr.ConflictError
		var missing *shoperr.NotFoundError
		if !(errors.As(err, &conflict) || errors.As(err, &missing)) || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.sku, err, c.want)
		}
	}
	ls, err := as.Remove(ctx, "buyer-a", "AL100-00001")
	if err != nil || len(ls) != 0 {
		t.Fatalf("after remove %+v %v", ls, err)
	}
	if waiting, err := st.AlertsFor(ctx, "AL100-00001"); err != nil || len(waiting) != 0 {
		t.Fatalf("waiting after remove %+v %v", waiting, err)
	}
	if ls, err := as.Remove(ctx, "buyer-a", "AL100-00001"); err != nil || len(ls) != 0 {
		t.Fatalf("a second remove %+v %v", ls, err)
	}
}

// TestAlertLimit: a buyer keeps at most the limit of alerts; an alert they have already
// is answered even at the limit.
func TestAlertLimit(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	at := time.Now().UTC().Truncate(time.Millisecond)
	for i := range 3 {
		a := alerts.Alert{SKU: fmt.Sprintf("AL200-0000%d", i), UID: "buyer-l", Email: "l@example.com", CreatedAt: at}
		if _, err := st.PutAlert(ctx, a, 3); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.PutAlert(ctx, alerts.Alert{SKU: "AL200-00009", UID: "buyer-l", CreatedAt: at}, 3); !errors.Is(err, alerts.ErrFull) {
		t.Errorf("a fourth alert: %v", err)
	}
	if a, err := st.PutAlert(ctx, alerts.Alert{SKU: "AL200-00001", UID: "buyer-l", CreatedAt: at.Add(time.Hour)}, 3); err != nil || !a.CreatedAt.Equal(at) {
		t.Errorf("the same alert again: %+v %v", a, err)
	}
}

// TestAlertNotifyRace: with five buyers waiting, a notify while the product is still out
// of stock sends nothing; once it has stock, 20 notifiers at once send exactly five
// emails, one per buyer under its alert's id, and leave no alert behind.
func TestAlertNotifyRace(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	as := alertsOver(t, st)
	p := alertProduct(t, st, "AL300-00001", 0, "")
	want := map[string]bool{}
	for i := range 5 {
		uid := fmt.Sprintf("buyer-%d", i)
		if _, err := as.Ask(ctx, uid, uid+"@example.com", p.SKU); err != nil {
			t.Fatal(err)
		}
	}
	waiting, err := st.AlertsFor(ctx, p.SKU)
	if err != nil || len(waiting) != 5 {
		t.Fatalf("waiting %d %v", len(waiting), err)
	}
	for _, a := range waiting {
		want[a.OutboxID()] = true
	}
	if sent, err := as.Notify(ctx, []string{p.SKU}); err != nil || sent != 0 {
		t.Fatalf("out of stock: sent %d %v", sent, err)
	}
	if ids := alertEmails(t, st); len(ids) != 0 {
		t.Fatalf("emails while out of stock: %v", ids)
	}
	alertProduct(t, st, p.SKU, 12, "")
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sent, err := as.Notify(ctx, []string{p.SKU})
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			total += sent
			mu.Unlock()
		}()
	}
	wg.Wait()
	ids := alertEmails(t, st)
	if total != 5 || len(ids) != 5 {
		t.Fatalf("sent %d, outbox %v; want 5", total, ids)
	}
	for _, id := range ids {
		if !want[id] {
			t.Errorf("email %s is no waiting alert's", id)
		}
	}
	if left, err := st.WaitingAlerts(ctx); err != nil || len(left) != 0 {
		t.Errorf("alerts left %+v %v", left, err)
	}
	for i := range 5 {
		if mine, err := st.AlertsOf(ctx, fmt.Sprintf("buyer-%d", i)); err != nil || len(mine) != 0 {
			t.Errorf("buyer-%d's list %+v %v", i, mine, err)
		}
	}
}

// restockSpy counts what a write told the alerts, and tells them.
type restockSpy struct {
	alerts.Service
	mu   sync.Mutex
	skus []string
}

func (r *restockSpy) Restocked(ctx context.Context, skus []string) {
	r.mu.Lock()
	r.skus = append(r.skus, skus...)
	r.mu.Unlock()
	r.Service.Restocked(ctx, skus)
}

// TestAlertStaffStockChange: staff setting stock on a product a buyer waits for emails
// them once; the sweep finds nothing more to send. An alert whose product got stock by a
// write that told no one is sent by the sweep.
func TestAlertStaffStockChange(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	as := alertsOver(t, st)
	alertProduct(t, st, "AL400-00001", 0, "")
	alertProduct(t, st, "AL400-00002", 0, "")
	for _, sku := range []string{"AL400-00001", "AL400-00002"} {
		if _, err := as.Ask(ctx, "buyer-s", "s@example.com", sku); err != nil {
			t.Fatal(err)
		}
	}
	spy := &restockSpy{Service: as}
	stocks := stock.Service{Store: st, Now: time.Now, Restock: spy}
	zero := 0
	if _, err := stocks.Change(ctx, "AL400-00001", stock.Change{Mode: stock.ModeSet, Quantity: 24, Expected: &zero, Reason: "delivery in",
		By: orders.Staff{Email: "staff@example.com"}}); err != nil {
		t.Fatal(err)
	}
	if len(spy.skus) != 1 || spy.skus[0] != "AL400-00001" {
		t.Errorf("told %v", spy.skus)
	}
	if ids := alertEmails(t, st); len(ids) != 1 || !strings.HasPrefix(ids[0], "alert/AL400-00001/buyer-s/") {
		t.Fatalf("emails %v", ids)
	}
	alertProduct(t, st, "AL400-00002", 6, "") // a write that told no one
	if sent, err := as.Sweep(ctx); err != nil || sent != 1 {
		t.Fatalf("sweep sent %d %v", sent, err)
	}
	if sent, err := as.Sweep(ctx); err != nil || sent != 0 {
		t.Fatalf("a second sweep sent %d %v", sent, err)
	}
	if ids := alertEmails(t, st); len(ids) != 2 {
		t.Fatalf("emails %v", ids)
	}
}
