package coupons

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// fakeStore keeps coupons and their trails in memory, with the store's conditions: a
// create needs a new id, an edit the version it read.
type fakeStore struct {
	coupons map[string]store.StaffCoupon
	audit   map[string][]orders.AuditEntry
	// lose makes the next write lose to someone else's (store.ErrChanged).
	lose bool
}

func newFake(cs ...store.StaffCoupon) *fakeStore {
	f := &fakeStore{coupons: map[string]store.StaffCoupon{}, audit: map[string][]orders.AuditEntry{}}
	for _, c := range cs {
		f.coupons[c.ID] = c
	}
	return f
}

func (f *fakeStore) Coupons(context.Context) ([]store.StaffCoupon, error) {
	var out []store.StaffCoupon
	for _, c := range f.coupons {
		out = append(out, c)
	}
	return out, nil
}

func (f *fakeStore) StaffCouponByID(_ context.Context, id string) (store.StaffCoupon, error) {
	c, ok := f.coupons[id]
	if !ok {
		return store.StaffCoupon{}, store.ErrNotFound
	}
	return c, nil
}

func (f *fakeStore) ChangeCoupon(_ context.Context, c store.CouponChange) error {
	old, exists := f.coupons[c.Coupon.ID]
	if f.lose || c.Create && exists || !c.Create && (!exists || old.Version != c.Seen) {
		return store.ErrChanged
	}
	saved := store.StaffCoupon{StoredCoupon: c.Coupon, Version: old.Version + 1}
	saved.Used = old.Used
	f.coupons[c.Coupon.ID] = saved
	thing := store.AuditCoupon + c.Coupon.ID
	f.audit[thing] = append([]orders.AuditEntry{c.Audit}, f.audit[thing]...)
	return nil
}

func (f *fakeStore) Audit(_ context.Context, thing string) ([]orders.AuditEntry, error) {
	return f.audit[thing], nil
}

var (
	jo  = orders.Staff{UID: "staff1", Email: "jo@example.co.uk"}
	now = time.Date(2026, 5, 5, 14, 3, 20, 0, time.UTC)
)

func percentCoupon(id string, pct int) store.StoredCoupon {
	var c store.StoredCoupon
	c.Coupon = pricing.Coupon{ID: id, Kind: KindPercent, Percent: pct}
	c.Description = "Trade discount"
	return c
}

func TestProblems(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		change func(c *store.StoredCoupon)
		want   []string // the fields with a problem, sorted
	}{
		{"a percentage coupon", func(*store.StoredCoupon) {}, nil},
		{"a fixed amount coupon", func(c *store.StoredCoupon) { c.Kind, c.Percent, c.AmountPence = KindFixed, 0, 500 }, nil},
		{"an id of the wrong shape", func(c *store.StoredCoupon) { c.ID = "trade-10" }, []string{"id"}},
		{"a percentage over 100", func(c *store.StoredCoupon) { c.Percent = 101 }, []string{"percent"}},
		{"a percentage coupon with an amount", func(c *store.StoredCoupon) { c.AmountPence = 100 }, []string{"amount"}},
		{"a fixed coupon of nothing, with a percentage", func(c *store.StoredCoupon) { c.Kind = KindFixed }, []string{"amount", "percent"}},
		{"a fixed coupon over £100,000", func(c *store.StoredCoupon) { c.Kind, c.Percent, c.AmountPence = KindFixed, 0, MaxPence+1 }, []string{"amount"}},
		{"an unknown kind", func(c *store.StoredCoupon) { c.Kind = "free" }, []string{"kind"}},
		{"a negative minimum spend", func(c *store.StoredCoupon) { c.MinSpendPence = -1 }, []string{"min_spend"}},
		{"valid to before valid from", func(c *store.StoredCoupon) { c.ValidFrom, c.ValidTo = day, day.Add(-time.Hour) }, []string{"valid_to"}},
		{"valid to equal to valid from", func(c *store.StoredCoupon) { c.ValidFrom, c.ValidTo = day, day }, []string{"valid_to"}},
		{"only an end", func(c *store.StoredCoupon) { c.ValidTo = day }, nil},
		{"limits out of bounds", func(c *store.StoredCoupon) { c.UsageLimit, c.PerAccountLimit = -1, MaxLimit+1 }, []string{"per_account_limit", "usage_limit"}},
		{"an account uid that cannot be one", func(c *store.StoredCoupon) { c.AccountUID = "no spaces" }, []string{"account_uid"}},
		{"an account's own coupon", func(c *store.StoredCoupon) { c.AccountUID = "u-123_abc" }, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := percentCoupon("TRADE10", 10)
			tc.change(&c)
			got := slices.Sorted(maps.Keys(Problems(c)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("problems with %v, want %v (%v)", got, tc.want, Problems(c))
			}
		})
	}
}

func TestSave(t *testing.T) {
	t.Parallel()
	existing := store.StaffCoupon{StoredCoupon: percentCoupon("TRADE10", 10), Version: 3}
	existing.Used, existing.AccountUID = 7, "u1"
	cases := []struct {
		name     string
		save     func(s Service) (Saved, error)
		check    func(t *testing.T, saved Saved, f *fakeStore)
		lose     bool
		conflict string // the start of the refusal's sentence; "" for a save
		field    string // the field of a *shoperr.FieldError
	}{
		{name: "create, audited as created", save: func(s Service) (Saved, error) {
			return s.Create(context.Background(), percentCoupon("NEW5", 5), jo)
		}, check: func(t *testing.T, saved Saved, f *fakeStore) {
			if saved.Coupon.Version != 1 || len(saved.Audit) != 1 || saved.Audit[0].Action != "coupon created" || saved.Audit[0].Before != nil ||
				saved.Audit[0].By != jo || !saved.Audit[0].At.Equal(now) {
				t.Errorf("created %+v with trail %+v", saved.Coupon, saved.Audit)
			}
		}},
		{name: "create on a taken id", conflict: "A coupon TRADE10 exists already", save: func(s Service) (Saved, error) {
			return s.Create(context.Background(), percentCoupon("TRADE10", 5), jo)
		}},
		{name: "edit on the version read, before and after audited, account and uses kept", save: func(s Service) (Saved, error) {
			c := percentCoupon("TRADE10", 15)
			c.ValidTo = now
			c.AccountUID = "someone-else"
			return s.Edit(context.Background(), "TRADE10", c, 3, jo)
		}, check: func(t *testing.T, saved Saved, f *fakeStore) {
			c := saved.Coupon
			if c.Percent != 15 || c.Version != 4 || c.AccountUID != "u1" || c.Used != 7 {
				t.Errorf("edited %+v", c)
			}
			e := saved.Audit[0]
			if e.Action != "coupon" || e.Before["percent"] != 10 || e.After["percent"] != 15 || e.After["valid_to"] != now.UnixMilli() || e.Before["valid_to"] != int64(0) ||
				f.audit[store.AuditCoupon+"TRADE10"][0].After["valid_to"] != now.Unix() {
				t.Errorf("audit %+v", e)
			}
			// The trail keeps the amounts under the keys it was written with; the answer
			// names them as the wire does.
			if _, ok := e.After["min_spend"]; !ok || e.After["min_spend_pence"] != nil || e.Before["amount"] == nil ||
				f.audit[store.AuditCoupon+"TRADE10"][0].After["min_spend_pence"] == nil {
				t.Errorf("audit amounts %+v, stored %+v", e, f.audit[store.AuditCoupon+"TRADE10"][0])
			}
		}},
		{name: "edit on an old version", conflict: "The coupon TRADE10 was changed by someone else", save: func(s Service) (Saved, error) {
			return s.Edit(context.Background(), "TRADE10", percentCoupon("TRADE10", 15), 2, jo)
		}},
		{name: "edit that loses to another save", lose: true, conflict: "The coupon TRADE10 was changed by someone else", save: func(s Service) (Saved, error) {
			return s.Edit(context.Background(), "TRADE10", percentCoupon("TRADE10", 15), 3, jo)
		}},
		{name: "edit that changes the id", field: "coupon.id", save: func(s Service) (Saved, error) {
			return s.Edit(context.Background(), "TRADE10", percentCoupon("TRADE11", 15), 3, jo)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(existing)
			f.lose = tc.lose
			saved, err := tc.save(Service{Store: f, Now: func() time.Time { return now }})
			var refused *shoperr.ConflictError
			var field *shoperr.FieldError
			switch {
			case tc.conflict != "":
				if !errors.As(err, &refused) || !strings.HasPrefix(refused.Msg, tc.conflict) {
					t.Fatalf("err %v, want a conflict starting %q", err, tc.conflict)
				}
			case tc.field != "":
				if !errors.As(err, &field) || field.Field != tc.field {
					t.Fatalf("err %v, want a problem with %s", err, tc.field)
				}
			case err != nil:
				t.Fatal(err)
			default:
				tc.check(t, saved, f)
			}
		})
	}
}

func TestEditOfACouponThatIsNot(t *testing.T) {
	t.Parallel()
	s := Service{Store: newFake(), Now: func() time.Time { return now }}
	if _, err := s.Edit(context.Background(), "GONE1", percentCoupon("GONE1", 5), 1, jo); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("err %v, want not found", err)
	}
}
