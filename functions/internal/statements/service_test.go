package statements

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/payments"
)

// memStore is accounts, their orders and an outbox in memory; failOn names an account
// whose email cannot be queued (the run dies there, as a crash would leave it).
type memStore struct {
	mu       sync.Mutex
	accounts []Account
	orders   map[string][]orders.Order
	outbox   map[string]outbox.Message
	failOn   string
}

var errDown = errors.New("the store is down")

func (m *memStore) AccountBusiness(_ context.Context, uid string) (string, error) { return uid, nil }
func (m *memStore) Orders(_ context.Context, uid string) ([]orders.Order, error) {
	return m.orders[uid], nil
}
func (m *memStore) Payments(context.Context, string) ([]payments.Payment, error) { return nil, nil }
func (m *memStore) Payment(context.Context, string, string) (payments.Payment, error) {
	return payments.Payment{}, errDown
}
func (m *memStore) WriteAllocation(context.Context, payments.Write) error      { return errDown }
func (m *memStore) Refunds(context.Context, string) ([]payments.Refund, error) { return nil, nil }
func (m *memStore) WriteRefund(context.Context, payments.RefundWrite) error    { return errDown }
func (m *memStore) StatementAccount(_ context.Context, uid string) (Account, error) {
	for _, a := range m.accounts {
		if a.UID == uid {
			return a, nil
		}
	}
	return Account{}, errDown
}
func (m *memStore) StatementAccounts(context.Context) ([]Account, error) { return m.accounts, nil }
func (m *memStore) EnqueueOnce(_ context.Context, msg outbox.Message, _ time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failOn != "" && msg.ID == EmailID(m.failOn, "2026-12") {
		return errDown
	}
	if _, ok := m.outbox[msg.ID]; ok {
		return ErrQueued
	}
	m.outbox[msg.ID] = msg
	return nil
}

// owing is an order on account, invoiced on 1 November 2026, for £120.
func owing(id string) orders.Order {
	return orders.Order{ID: id, TotalIncVAT: 12000, Status: orders.StatusPlaced, Billing: &account.Billing{PaymentMethod: account.PayOnAccount},
		Invoice: &orders.Invoice{Number: 1, IssuedAt: day(11, 1), TermsDays: 30}}
}

func TestSendQueuesEachAccountOnceAMonthEvenAfterARunThatDied(t *testing.T) {
	t.Parallel()
	st := &memStore{
		accounts: []Account{{UID: "a", Email: "a@shop.test"}, {UID: "b", Email: "b@shop.test"}, {UID: "c"}, {UID: "d", Email: "d@shop.test"},
			{UID: "e", Email: "e@shop.test"}},
		orders: map[string][]orders.Order{"a": {owing("TS-1")}, "b": {owing("TS-2")}, "c": {owing("TS-3")}, "e": {owing("TS-5")}},
		outbox: map[string]outbox.Message{},
		failOn: "b",
	}
	svc := Service{Store: st, Shop: config.Shop{}, Now: func() time.Time { return day(12, 1) }, Concurrency: 2}
	r, err := svc.Send(context.Background(), "2026-12")
	if !errors.Is(err, errDown) || r.Queued != 2 || r.Failed != 1 || r.NoEmail != 1 || r.Accounts != 5 {
		t.Fatalf("the run that died: %+v %v", r, err)
	}
	// The next run (Lambda's retry, or by hand) queues only what the first did not.
	st.failOn = ""
	r, err = svc.Send(context.Background(), "2026-12")
	if err != nil || r.Queued != 1 || r.Already != 2 || r.NoEmail != 1 {
		t.Fatalf("the retry: %+v %v", r, err)
	}
	if len(st.outbox) != 3 {
		t.Errorf("%d emails queued, want a, b and e's (c has no address, d owes nothing)", len(st.outbox))
	}
	// Next month is another statement.
	if r, err := svc.Send(context.Background(), "2027-01"); err != nil || r.Queued != 3 {
		t.Errorf("next month: %+v %v", r, err)
	}
	if _, err := svc.Send(context.Background(), "2026-13"); err == nil {
		t.Error("a month that is not one was run")
	}
}

func TestAllListsOnlyAccountsWithABalance(t *testing.T) {
	t.Parallel()
	st := &memStore{accounts: []Account{{UID: "a"}, {UID: "b"}, {UID: "c"}},
		orders: map[string][]orders.Order{"a": {owing("TS-1")}, "c": {owing("TS-3"), owing("TS-4")}}, outbox: map[string]outbox.Message{}}
	sts, err := Service{Store: st, Now: func() time.Time { return day(12, 10) }}.All(context.Background())
	if err != nil || len(sts) != 2 || sts[0].Account.UID != "a" || sts[1].Account.UID != "c" || sts[1].Balance != 24000 {
		t.Fatalf("%+v %v", sts, err)
	}
	if sts[0].Overdue != 12000 || sts[0].OldestOverdueDays != 9 {
		t.Errorf("invoiced 1 November on 30 days: %d overdue, %d days, want £120 and 9 days on 10 December", sts[0].Overdue, sts[0].OldestOverdueDays)
	}
}
