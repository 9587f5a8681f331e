package alerts

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/shoperr"
)

// memStore keeps alerts and products in memory, as the store's rules say.
type memStore struct {
	products map[string]catalogue.Product
	alerts   map[string]Alert // by sku#uid
	sent     []outbox.Message
	queried  int // AlertsFor calls
}

func newMem(ps ...catalogue.Product) *memStore {
	m := &memStore{products: map[string]catalogue.Product{}, alerts: map[string]Alert{}}
	for _, p := range ps {
		m.products[p.SKU] = p
	}
	return m
}

func (m *memStore) ProductsNow(_ context.Context, skus []string) (map[string]catalogue.Product, error) {
	out := map[string]catalogue.Product{}
	for _, s := range skus {
		if p, ok := m.products[s]; ok {
			out[s] = p
		}
	}
	return out, nil
}

func (m *memStore) PutAlert(_ context.Context, a Alert, limit int) (Alert, error) {
	if had, ok := m.alerts[a.SKU+"#"+a.UID]; ok {
		return had, nil
	}
	if len(m.of(a.UID)) >= limit {
		return Alert{}, ErrFull
	}
	m.alerts[a.SKU+"#"+a.UID] = a
	return a, nil
}

func (m *memStore) DeleteAlert(_ context.Context, uid, sku string) error {
	delete(m.alerts, sku+"#"+uid)
	return nil
}

func (m *memStore) of(uid string) []Alert {
	var out []Alert
	for _, a := range m.alerts {
		if a.UID == uid {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b Alert) int { return strings.Compare(a.SKU, b.SKU) })
	return out
}

func (m *memStore) AlertsOf(_ context.Context, uid string) ([]Alert, error) { return m.of(uid), nil }

func (m *memStore) AlertsFor(_ context.Context, sku string) ([]Alert, error) {
	m.queried++
	var out []Alert
	for _, a := range m.alerts {
		if a.SKU == sku {
			out = append(out, a)
		}
	}
	return out, nil
}

func (m *memStore) WaitingAlerts(context.Context) ([]Alert, error) {
	var out []Alert
	for _, a := range m.alerts {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b Alert) int { return strings.Compare(a.SKU+a.UID, b.SKU+b.UID) })
	return out, nil
}

func (m *memStore) SendAlert(_ context.Context, a Alert, msg outbox.Message, _ time.Time) (bool, error) {
	had, ok := m.alerts[a.SKU+"#"+a.UID]
	if !ok || !had.CreatedAt.Equal(a.CreatedAt) {
		return false, nil
	}
	delete(m.alerts, a.SKU+"#"+a.UID)
	m.sent = append(m.sent, msg)
	return true, nil
}

// subjectMailer makes an email of just its id, address and subject.
type subjectMailer struct{}

func (subjectMailer) BackInStock(a Alert, p catalogue.Product) outbox.Message {
	return outbox.Message{ID: a.OutboxID(), To: a.Email, Subject: "Back in stock: " + p.Name}
}

var now = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

func product(sku string, stock int) catalogue.Product {
	return catalogue.Product{SKU: sku, Slug: strings.ToLower(sku), Name: "Card " + sku, PackSize: 6, Stock: stock}
}

func service(m *memStore) Service {
	return Service{Store: m, Mail: subjectMailer{}, Now: func() time.Time { return now }}
}

// TestAsk: the refusals are sentences of the right kind; less than a pack waits; asking
// twice keeps one; the limit refuses the next.
func TestAsk(t *testing.T) {
	t.Parallel()
	gone := product("AA100-00003", 0)
	gone.Status = catalogue.StatusDiscontinued
	forward := product("AA100-00004", 0)
	forward.Forward = &catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-06-30"}
	closed := product("AA100-00005", 0)
	closed.Forward = &catalogue.Forward{DeliveryFrom: "2026-09-01", OrderBy: "2026-06-30"}
	cases := []struct {
		sku      string
		conflict string // "" for none
		missing  bool
	}{
		{sku: "AA100-00001"},
		{sku: "AA100-00002", conflict: "Card AA100-00002 is in stock: add it to your basket."},
		{sku: "AA100-00003", conflict: "Card AA100-00003 is no longer sold, so it will not be back in stock."},
		{sku: "AA100-00004", conflict: "Card AA100-00004 can be pre-ordered now: add it to your basket."},
		{sku: "AA100-00005"}, // pre-orders closed: an ordinary product out of stock
		{sku: "AA100-00009", missing: true},
		{sku: "not a sku", missing: true},
	}
	for _, c := range cases {
		t.Run(c.sku, func(t *testing.T) {
			t.Parallel()
			m := newMem(product("AA100-00001", 5), product("AA100-00002", 6), gone, forward, closed)
			ls, err := service(m).Ask(context.Background(), "u1", "u1@example.com", c.sku)
			var conflict *shoperr.ConflictError
			var notFound *shoperr.NotFoundError
			switch {
			case c.conflict != "":
				if !errors.As(err, &conflict) || err.Error() != c.conflict {
					t.Errorf("%v, want %q", err, c.conflict)
				}
			case c.missing:
				if !errors.As(err, &notFound) {
					t.Errorf("%v, want not found", err)
				}
			default:
				if err != nil || len(ls) != 1 || ls[0].SKU != c.sku || ls[0].InStock || ls[0].Email != "u1@example.com" || ls[0].Path != "/"+strings.ToLower(c.sku)+"/" {
					t.Errorf("%+v %v", ls, err)
				}
			}
		})
	}
	t.Run("twice, and over the limit", func(t *testing.T) {
		t.Parallel()
		m := newMem(product("AA100-00001", 0))
		s := service(m)
		for range 2 {
			if ls, err := s.Ask(context.Background(), "u1", "u1@example.com", "AA100-00001"); err != nil || len(ls) != 1 {
				t.Fatalf("%+v %v", ls, err)
			}
		}
		for i := range MaxPerBuyer - 1 {
			m.alerts[fmt.Sprintf("X%d#u1", i)] = Alert{SKU: fmt.Sprintf("X%d", i), UID: "u1"}
		}
		m.products["AA100-00002"] = product("AA100-00002", 0)
		_, err := s.Ask(context.Background(), "u1", "u1@example.com", "AA100-00002")
		var conflict *shoperr.ConflictError
		if !errors.As(err, &conflict) || !strings.Contains(err.Error(), "200 stock alerts") {
			t.Errorf("over the limit: %v", err)
		}
	})
}

// TestNotify: only alerts of products with a pack or more, not discontinued, are sent, each
// once; many SKUs read the waiting alerts once instead of a query each.
func TestNotify(t *testing.T) {
	t.Parallel()
	gone := product("AA200-00003", 60)
	gone.Status = catalogue.StatusDiscontinued
	m := newMem(product("AA200-00001", 6), product("AA200-00002", 5), gone)
	for _, sku := range []string{"AA200-00001", "AA200-00002", "AA200-00003", "AA200-00009"} {
		for _, uid := range []string{"u1", "u2"} {
			m.alerts[sku+"#"+uid] = Alert{SKU: sku, UID: uid, Email: uid + "@example.com", CreatedAt: now}
		}
	}
	s := service(m)
	sent, err := s.Notify(context.Background(), []string{"AA200-00002", "AA200-00001", "AA200-00003", "AA200-00009", "AA200-00001"})
	if err != nil || sent != 2 || len(m.sent) != 2 {
		t.Fatalf("sent %d %v: %+v", sent, err, m.sent)
	}
	for _, msg := range m.sent {
		if !strings.HasPrefix(msg.ID, "alert/AA200-00001/") || msg.Subject != "Back in stock: Card AA200-00001" {
			t.Errorf("email %+v", msg)
		}
	}
	if sent, _ := s.Notify(context.Background(), []string{"AA200-00001"}); sent != 0 {
		t.Errorf("a second notify sent %d", sent)
	}
	if len(m.alerts) != 6 {
		t.Errorf("%d alerts left, want the 6 still waiting", len(m.alerts))
	}
	m.products["AA200-00002"] = product("AA200-00002", 12)
	many := []string{"AA200-00002"}
	for i := range lookupEach {
		many = append(many, fmt.Sprintf("ZZ900-%05d", i))
	}
	m.queried = 0
	if sent, err := s.Notify(context.Background(), many); err != nil || sent != 2 || m.queried != 0 {
		t.Errorf("many SKUs: sent %d, %d queries, %v", sent, m.queried, err)
	}
}
