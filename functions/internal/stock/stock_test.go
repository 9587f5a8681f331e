package stock

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// fakeStore keeps products' stock and trails in memory, with the store's condition: a
// change is written only while the stock is still its From. Orders (racing) take units
// before each of the first writes, as an order placed between the read and the write.
type fakeStore struct {
	products map[string]catalogue.Product
	audit    map[string][]orders.AuditEntry
	racing   int // writes an order gets in before
	writes   int
}

func newFake(stock int, racing int) *fakeStore {
	return &fakeStore{products: map[string]catalogue.Product{"GC101-00001": {SKU: "GC101-00001", Name: "Robin card", PackSize: 6, Stock: stock}},
		audit: map[string][]orders.AuditEntry{}, racing: racing}
}

func (f *fakeStore) Product(_ context.Context, sku string) (catalogue.Product, error) {
	p, ok := f.products[sku]
	if !ok {
		return catalogue.Product{}, store.ErrNotFound
	}
	return p, nil
}

func (f *fakeStore) ChangeStock(_ context.Context, c store.StockChange) error {
	f.writes++
	p := f.products[c.SKU]
	if f.racing > 0 {
		f.racing--
		p.Stock -= 6 // an order took a pack
		f.products[c.SKU] = p
	}
	if p.Stock != c.From {
		return store.ErrChanged
	}
	p.Stock = c.To
	f.products[c.SKU] = p
	f.audit[store.AuditProduct+c.SKU] = append([]orders.AuditEntry{c.Audit}, f.audit[store.AuditProduct+c.SKU]...)
	return nil
}

func (f *fakeStore) MarkForward(_ context.Context, m store.ForwardMark) error {
	p, ok := f.products[m.SKU]
	if !ok {
		return store.ErrChanged
	}
	p.Forward = m.Forward
	f.products[m.SKU] = p
	f.audit[store.AuditProduct+m.SKU] = append([]orders.AuditEntry{m.Audit}, f.audit[store.AuditProduct+m.SKU]...)
	return nil
}

func (f *fakeStore) Audit(_ context.Context, thing string) ([]orders.AuditEntry, error) {
	return f.audit[thing], nil
}

func TestProblems(t *testing.T) {
	t.Parallel()
	n := func(v int) *int { return &v }
	cases := []struct {
		name string
		c    Change
		want []string
	}{
		{"set with what the page showed", Change{Mode: ModeSet, Quantity: 40, Expected: n(30)}, nil},
		{"set to none", Change{Mode: ModeSet, Quantity: 0, Expected: n(30)}, nil},
		{"set without what the page showed", Change{Mode: ModeSet, Quantity: 40}, []string{"expected"}},
		{"set below none", Change{Mode: ModeSet, Quantity: -1, Expected: n(3)}, []string{"quantity"}},
		{"set over the most", Change{Mode: ModeSet, Quantity: Max + 1, Expected: n(3)}, []string{"quantity"}},
		{"adjust by some", Change{Mode: ModeAdjust, Quantity: -12}, nil},
		{"adjust by nothing", Change{Mode: ModeAdjust, Quantity: 0}, []string{"quantity"}},
		{"adjust by too many", Change{Mode: ModeAdjust, Quantity: -Max - 1}, []string{"quantity"}},
		{"an unknown mode", Change{Mode: "add", Quantity: 3}, []string{"mode"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := slices.Sorted(maps.Keys(Problems(tc.c))); !slices.Equal(got, tc.want) {
				t.Errorf("problems with %v, want %v", got, tc.want)
			}
		})
	}
}

func TestChange(t *testing.T) {
	t.Parallel()
	jo := orders.Staff{UID: "staff1", Email: "jo@example.co.uk"}
	n := func(v int) *int { return &v }
	cases := []struct {
		name      string
		sku       string
		stock     int
		racing    int
		c         Change
		wantStock int
		wantTries int
		refused   string // the start of a *shoperr.ConflictError's sentence
		notFound  bool
	}{
		{name: "set on the stock shown", stock: 30, c: Change{Mode: ModeSet, Quantity: 48, Expected: n(30), Reason: "Count"}, wantStock: 48, wantTries: 1},
		{name: "set when the stock moved", stock: 24, c: Change{Mode: ModeSet, Quantity: 48, Expected: n(30), Reason: "Count"},
			refused: "The stock of GC101-00001 is now 24, not 30", wantStock: 24},
		{name: "set that loses to an order", stock: 30, racing: 1, c: Change{Mode: ModeSet, Quantity: 48, Expected: n(30), Reason: "Count"},
			refused: "The stock of GC101-00001 was changed by someone else", wantStock: 24, wantTries: 1},
		{name: "adjust up", stock: 30, c: Change{Mode: ModeAdjust, Quantity: 12, Reason: "Delivery"}, wantStock: 42, wantTries: 1},
		{name: "adjust down to none", stock: 30, c: Change{Mode: ModeAdjust, Quantity: -30, Reason: "Damaged"}, wantStock: 0, wantTries: 1},
		{name: "adjust below none", stock: 30, c: Change{Mode: ModeAdjust, Quantity: -31, Reason: "Damaged"},
			refused: "The stock of GC101-00001 is 30: taking away 31 would leave less than none.", wantStock: 30},
		{name: "adjust that races orders, tried again", stock: 30, racing: 2, c: Change{Mode: ModeAdjust, Quantity: 12, Reason: "Delivery"},
			wantStock: 30 - 12 + 12, wantTries: 3},
		{name: "adjust that loses five times", stock: 60, racing: 5, c: Change{Mode: ModeAdjust, Quantity: 12, Reason: "Delivery"},
			refused: "The stock of GC101-00001 was changed by someone else", wantStock: 30, wantTries: 5},
		{name: "a product that is not", sku: "GC999-00001", stock: 30, c: Change{Mode: ModeAdjust, Quantity: 1, Reason: "x"}, notFound: true, wantStock: 30},
		{name: "a SKU of the wrong shape", sku: "../x", stock: 30, c: Change{Mode: ModeAdjust, Quantity: 1, Reason: "x"}, notFound: true, wantStock: 30},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(tc.stock, tc.racing)
			sku := "GC101-00001"
			if tc.sku != "" {
				sku = tc.sku
			}
			tc.c.By = jo
			at := time.Date(2026, 5, 5, 9, 0, 0, 0, time.UTC)
			rec, err := Service{Store: f, Now: func() time.Time { return at }}.Change(context.Background(), sku, tc.c)
			var refused *shoperr.ConflictError
			var unknown *shoperr.NotFoundError
			switch {
			case tc.notFound:
				if !errors.As(err, &unknown) || unknown.Msg != "There is no product "+sku+"." {
					t.Fatalf("err %v, want no such product", err)
				}
			case tc.refused != "":
				if !errors.As(err, &refused) || !strings.HasPrefix(refused.Msg, tc.refused) {
					t.Fatalf("err %v, want %q", err, tc.refused)
				}
			case err != nil:
				t.Fatal(err)
			default:
				e := rec.Audit[0]
				if rec.Product.Stock != tc.wantStock || e.Action != "stock "+tc.c.Mode+": "+tc.c.Reason || e.By != jo || !e.At.Equal(at) ||
					e.After["stock"] != tc.wantStock {
					t.Errorf("answered %+v with %+v", rec.Product, e)
				}
			}
			if got := f.products["GC101-00001"].Stock; got != tc.wantStock {
				t.Errorf("stock %d, want %d", got, tc.wantStock)
			}
			if f.writes != tc.wantTries {
				t.Errorf("%d writes, want %d", f.writes, tc.wantTries)
			}
		})
	}
}
