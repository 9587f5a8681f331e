package tradeaccounts

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

// fakeStore keeps accounts and their trails in memory, with the store's condition: a
// change is written only while the account is still at the updated_at it read.
type fakeStore struct {
	profiles map[string]store.Profile
	audit    map[string][]orders.AuditEntry
	lose     bool // the next write loses to another (store.ErrChanged)
}

func (f *fakeStore) StaffAccounts(_ context.Context, q string, _ *store.ListCursor, n int) ([]store.Profile, *store.ListCursor, error) {
	var out []store.Profile
	for _, p := range f.profiles {
		if strings.Contains(strings.ToLower(p.Business), q) && len(out) < n {
			out = append(out, p)
		}
	}
	return out, nil, nil
}

func (f *fakeStore) Profile(_ context.Context, uid string) (store.Profile, error) {
	p, ok := f.profiles[uid]
	if !ok {
		return store.Profile{}, store.ErrNotFound
	}
	return p, nil
}

func (f *fakeStore) ChangeAccount(_ context.Context, c store.AccountChange) error {
	p := f.profiles[c.UID]
	if f.lose || !p.UpdatedAt.Equal(c.Seen) {
		return store.ErrChanged
	}
	p.ApprovedForCredit, p.CreditLimit, p.DSC, p.PriceGroup, p.UpdatedAt = c.ApprovedForCredit, c.CreditLimit, c.DSC, c.PriceGroup, c.Audit.At
	f.profiles[c.UID] = p
	f.audit[store.AuditAccount+c.UID] = append([]orders.AuditEntry{c.Audit}, f.audit[store.AuditAccount+c.UID]...)
	return nil
}

// PriceGroup knows one group, independents.
func (f *fakeStore) PriceGroup(_ context.Context, id string) (pricing.Group, error) {
	if id != "independents" {
		return pricing.Group{}, store.ErrNotFound
	}
	return pricing.Group{ID: id, Name: "Independents", Version: 1}, nil
}

func (f *fakeStore) Audit(_ context.Context, thing string) ([]orders.AuditEntry, error) {
	return f.audit[thing], nil
}

func pence(v int64) *int64 { return &v }

func TestProblems(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		c    Change
		want []string
	}{
		{"approved with a limit", Change{Version: 5, ApprovedForCredit: true, CreditLimit: pence(200_000)}, nil},
		{"not approved", Change{Version: 5}, nil},
		{"no version", Change{ApprovedForCredit: false}, []string{"version"}},
		{"approved without a limit", Change{Version: 5, ApprovedForCredit: true}, []string{"credit_limit"}},
		{"a limit over £1,000,000", Change{Version: 5, ApprovedForCredit: true, CreditLimit: pence(MaxCreditLimit + 1)}, []string{"credit_limit"}},
		{"a negative limit", Change{Version: 5, CreditLimit: pence(-1)}, []string{"credit_limit"}},
		{"own discounts", Change{Version: 5, DSC: `{"range:xmas":10,"product:GC101-00001":5}`}, nil},
		{"own discounts over 100%", Change{Version: 5, DSC: `{"range:xmas":120}`}, []string{"dsc"}},
		{"own discounts that are not JSON", Change{Version: 5, DSC: `range:xmas=10`}, []string{"dsc"}},
		{"a price group", Change{Version: 5, PriceGroup: "garden-centres"}, nil},
		{"a price group id of the wrong shape", Change{Version: 5, PriceGroup: "Garden centres"}, []string{"price_group"}},
		{"own discounts too long", Change{Version: 5, DSC: `{"range:x":1` + strings.Repeat(" ", maxDSC) + `}`}, []string{"dsc"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := slices.Sorted(maps.Keys(Problems(tc.c))); !slices.Equal(got, tc.want) {
				t.Errorf("problems with %v, want %v (%v)", got, tc.want, Problems(tc.c))
			}
		})
	}
}

func TestCanonicalDSC(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                                  "",
		"{}":                                "",
		`{ "range:b": 5, "category:a":10 }`: `{"category:a":10,"range:b":5}`,
	} {
		if got := CanonicalDSC(in); got != want {
			t.Errorf("CanonicalDSC(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestChange(t *testing.T) {
	t.Parallel()
	jo := orders.Staff{UID: "staff1", Email: "jo@example.co.uk"}
	read := time.Date(2026, 5, 5, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		name    string
		uid     string
		now     time.Time
		c       Change
		lose    bool
		refused bool
		missing bool
		noGroup bool
		check   func(t *testing.T, rec Record)
	}{
		{name: "approve with a limit and own discounts, audited", now: read.Add(time.Minute),
			c: Change{Version: read.UnixMilli(), ApprovedForCredit: true, CreditLimit: pence(200_000), DSC: `{ "range:xmas": 10 }`},
			check: func(t *testing.T, rec Record) {
				a, e := rec.Account, rec.Audit[0]
				if !a.ApprovedForCredit || *a.CreditLimit != 200_000 || a.DSC != `{"range:xmas":10}` || !a.UpdatedAt.Equal(read.Add(time.Minute)) {
					t.Errorf("account %+v", a)
				}
				if e.Action != "account" || e.By != jo || e.Before["approved_for_credit"] != false || e.After["dsc"] != `{"range:xmas":10}` {
					t.Errorf("audit %+v", e)
				}
			}},
		{name: "a clock behind the account still moves the version on", now: read.Add(-time.Hour),
			c: Change{Version: read.UnixMilli()},
			check: func(t *testing.T, rec Record) {
				if !rec.Account.UpdatedAt.Equal(read.Add(time.Millisecond)) {
					t.Errorf("updated at %v", rec.Account.UpdatedAt)
				}
			}},
		{name: "into a price group, audited", now: read.Add(time.Minute),
			c: Change{Version: read.UnixMilli(), PriceGroup: "independents"},
			check: func(t *testing.T, rec Record) {
				if rec.Account.PriceGroup != "independents" || rec.Audit[0].Before["price_group"] != "" || rec.Audit[0].After["price_group"] != "independents" {
					t.Errorf("account %+v, audit %+v", rec.Account, rec.Audit[0])
				}
			}},
		{name: "a price group that is not", now: read, c: Change{Version: read.UnixMilli(), PriceGroup: "multiples"}, noGroup: true},
		{name: "on a version the account is no longer at", now: read, c: Change{Version: read.UnixMilli() - 1}, refused: true},
		{name: "losing to another write", now: read.Add(time.Minute), c: Change{Version: read.UnixMilli()}, lose: true, refused: true},
		{name: "an account that is not", uid: "nobody", now: read, c: Change{Version: 1}, missing: true},
		{name: "a uid that cannot be one", uid: "../x", now: read, c: Change{Version: 1}, missing: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeStore{profiles: map[string]store.Profile{"u1": {UID: "u1", Business: "Robin Cards Ltd", UpdatedAt: read}},
				audit: map[string][]orders.AuditEntry{}, lose: tc.lose}
			uid := "u1"
			if tc.uid != "" {
				uid = tc.uid
			}
			tc.c.By = jo
			rec, err := Service{Store: f, Now: func() time.Time { return tc.now }}.Change(context.Background(), uid, tc.c)
			var refused *shoperr.ConflictError
			switch {
			case tc.refused:
				if !errors.As(err, &refused) || refused.Msg != "The account of Robin Cards Ltd was changed by someone else since you opened it: reload it and try again." {
					t.Fatalf("err %v, want changed meanwhile", err)
				}
				if len(f.audit) != 0 {
					t.Error("a refused change was audited")
				}
			case tc.noGroup:
				var field *shoperr.FieldError
				if !errors.As(err, &field) || field.Field != "price_group" || field.Problem != `There is no price group "multiples": choose one of the list.` {
					t.Fatalf("err %v, want a field error on price_group", err)
				}
				if len(f.audit) != 0 {
					t.Error("a refused change was audited")
				}
			case tc.missing:
				if !errors.Is(err, store.ErrNotFound) {
					t.Fatalf("err %v, want not found", err)
				}
			case err != nil:
				t.Fatal(err)
			default:
				tc.check(t, rec)
			}
		})
	}
}
