package reminders

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/outbox"
)

func fwdProduct(sku, name, orderBy string, pack int) catalogue.Product {
	return catalogue.Product{SKU: sku, Name: name, PackSize: pack,
		Forward: &catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: orderBy}}
}

func TestDueIsTheWeekBeforeTheOrderByDate(t *testing.T) {
	t.Parallel()
	products := []catalogue.Product{
		fwdProduct("XM001-00001", "Robin cards", "2027-06-30", 6),
		{SKU: "XM001-00002", Name: "Stock cards", PackSize: 6},
	}
	for _, c := range []struct {
		today string
		due   bool
	}{
		{"2027-06-22", false}, // eight days before
		{"2027-06-23", true},  // a week before: the first day of the window
		{"2027-06-27", true},  // a run missed earlier in the week catches up
		{"2027-06-30", true},  // the order-by day itself: still open
		{"2027-07-01", false}, // closed
	} {
		t.Run(c.today, func(t *testing.T) {
			t.Parallel()
			due, err := Due(products, c.today)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(due) == 1 && due[0].SKU == "XM001-00001"; got != c.due || (!c.due && len(due) != 0) {
				t.Errorf("Due on %s: %v, want due %v", c.today, due, c.due)
			}
		})
	}
	if _, err := Due(products, "30/06/2027"); err == nil {
		t.Error("Due of a day that is not an ISO date: no error")
	}
}

func TestRemindersOfGroupOneEmailPerBuyerAndOrderByDate(t *testing.T) {
	t.Parallel()
	due := []catalogue.Product{
		fwdProduct("XM001-00001", "Robin cards", "2027-06-30", 6),
		fwdProduct("XM001-00002", "Holly cards", "2027-06-30", 12),
		fwdProduct("XM002-00001", "Advent calendars", "2027-07-02", 4),
	}
	baskets := []Basket{
		{UID: "a", Email: "a@shop.test", Units: map[string]int{"XM001-00001": 30, "XM001-00002": 12, "XM002-00001": 8}},
		{UID: "b", Email: "b@shop.test", Units: map[string]int{"XM001-00002": 5}}, // less than a pack: nothing to remind of
	}
	got := RemindersOf(due, baskets)
	want := []Reminder{
		{UID: "a", Email: "a@shop.test", OrderBy: "2027-06-30", Lines: []Line{{"XM001-00002", "Holly cards", 1}, {"XM001-00001", "Robin cards", 5}}},
		{UID: "a", Email: "a@shop.test", OrderBy: "2027-07-02", Lines: []Line{{"XM002-00001", "Advent calendars", 2}}},
	}
	if !slices.EqualFunc(got, want, func(a, b Reminder) bool {
		return a.UID == b.UID && a.Email == b.Email && a.OrderBy == b.OrderBy && slices.Equal(a.Lines, b.Lines)
	}) {
		t.Errorf("RemindersOf:\n got %+v\nwant %+v", got, want)
	}
}

// memStore is a Store of fixed products and baskets whose outbox refuses an id twice.
type memStore struct {
	products []catalogue.Product
	baskets  []Basket
	asked    [][]string
	queued   map[string]outbox.Message
}

func (m *memStore) ForwardProducts(context.Context) ([]catalogue.Product, error) {
	return m.products, nil
}

func (m *memStore) BasketsHolding(_ context.Context, skus []string) ([]Basket, error) {
	m.asked = append(m.asked, skus)
	return m.baskets, nil
}

func (m *memStore) EnqueueReminder(_ context.Context, msg outbox.Message, _ time.Time) error {
	if _, ok := m.queued[msg.ID]; ok {
		return ErrQueued
	}
	m.queued[msg.ID] = msg
	return nil
}

type idNotifier struct{}

func (idNotifier) PreOrderReminder(r Reminder) outbox.Message {
	return outbox.Message{ID: EmailID(r.UID, r.OrderBy), To: r.Email}
}

func TestSendQueuesEachReminderOnceAndReadsNoBasketWhenNoneIsDue(t *testing.T) {
	t.Parallel()
	st := &memStore{products: []catalogue.Product{fwdProduct("XM001-00001", "Robin cards", "2027-06-30", 6)},
		baskets: []Basket{{UID: "a", Email: "a@shop.test", Units: map[string]int{"XM001-00001": 12}}, {UID: "n", Units: map[string]int{"XM001-00001": 6}}},
		queued:  map[string]outbox.Message{}}
	s := Service{Store: st, Notify: idNotifier{}, Now: time.Now}
	r, err := s.Send(context.Background(), "2027-06-01")
	if err != nil || r.Products != 0 || len(st.asked) != 0 {
		t.Fatalf("a month ahead: %+v %v, baskets read %d times", r, err, len(st.asked))
	}
	r, err = s.Send(context.Background(), "2027-06-23")
	if err != nil || r.Queued != 1 || r.NoEmail != 1 || r.Baskets != 2 {
		t.Fatalf("first run: %+v %v", r, err)
	}
	r, err = s.Send(context.Background(), "2027-06-24")
	if err != nil || r.Queued != 0 || r.Already != 1 {
		t.Fatalf("second run: %+v %v", r, err)
	}
	if _, ok := st.queued["reminder/a/2027-06-30"]; !ok || len(st.queued) != 1 {
		t.Errorf("queued %v, want reminder/a/2027-06-30 alone", st.queued)
	}
}
