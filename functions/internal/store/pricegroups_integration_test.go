package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// clock is a test's clock, moved on by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// groupStores opens two stores on one fresh table, as two Lambdas of the shop, each
// with its own price group cache of ttl (negative: none) on clock c.
func groupStores(t *testing.T, ttl time.Duration, c *clock) (*store.Store, *store.Store) {
	t.Helper()
	if os.Getenv("DYNAMODB_ENDPOINT") == "" {
		t.Skip("DYNAMODB_ENDPOINT is not set: start the local services (README)")
	}
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName = fmt.Sprintf("it-pg-%d", time.Now().UnixNano())
	cfg.PriceGroupCache, cfg.Now = ttl, c.now
	a, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.EnsureTable(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.DeleteTable(context.Background()) })
	b, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}

func groupAudit(at time.Time, action string) orders.AuditEntry {
	return orders.AuditEntry{At: at, By: orders.Staff{UID: "staff-1", Email: "staff@example.com"}, Action: action}
}

// The cache answers its read's age, serves it until the time is up (another process's
// write is seen only then), and a write in this process drops it at once.
func TestPriceGroupsCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := &clock{t: time.UnixMilli(1_760_000_000_000)}
	lambda, other := groupStores(t, 60*time.Second, c)
	if err := lambda.CreatePriceGroup(ctx, store.PriceGroupWrite{ID: "independents", Name: "Independents", Audit: groupAudit(c.now(), "create")}); err != nil {
		t.Fatal(err)
	}
	groups, age, err := lambda.PriceGroups(ctx)
	if err != nil || age != 0 || groups["independents"].Name != "Independents" || groups["independents"].Version != 1 {
		t.Fatalf("after create: %v age %v err %v", groups, age, err)
	}
	c.add(10 * time.Second)
	rules := pricing.Rules{Discounts: map[string]int{"category:101": 10}}
	if err := other.ReplacePriceGroupRules(ctx, store.PriceGroupWrite{ID: "independents", Rules: rules, Seen: 1, Audit: groupAudit(c.now(), "import")}); err != nil {
		t.Fatal(err)
	}
	groups, age, err = lambda.PriceGroups(ctx)
	if err != nil || age != 10*time.Second || groups["independents"].Version != 1 {
		t.Fatalf("10 s on, another process's write: version %d age %v err %v; want the cached version 1 aged 10s", groups["independents"].Version, age, err)
	}
	c.add(50 * time.Second)
	groups, age, err = lambda.PriceGroups(ctx)
	if err != nil || age != 0 || groups["independents"].Version != 2 || groups["independents"].Rules.Discounts["category:101"] != 10 {
		t.Fatalf("60 s on: %+v age %v err %v; want version 2 read afresh", groups["independents"], age, err)
	}
	c.add(5 * time.Second)
	if err := lambda.RenamePriceGroup(ctx, store.PriceGroupWrite{ID: "independents", Name: "Independent shops", Seen: 2, Audit: groupAudit(c.now(), "rename")}); err != nil {
		t.Fatal(err)
	}
	groups, age, err = lambda.PriceGroups(ctx)
	if err != nil || age != 0 || groups["independents"].Name != "Independent shops" || groups["independents"].Rules.Discounts["category:101"] != 10 {
		t.Fatalf("after this process's rename: %+v age %v err %v", groups["independents"], age, err)
	}
}

// With the cache off every read is a fresh one.
func TestPriceGroupsNoCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := &clock{t: time.UnixMilli(1_760_000_000_000)}
	lambda, other := groupStores(t, -1, c)
	if _, _, err := lambda.PriceGroups(ctx); err != nil {
		t.Fatal(err)
	}
	if err := other.CreatePriceGroup(ctx, store.PriceGroupWrite{ID: "multiples", Name: "Multiples", Audit: groupAudit(c.now(), "create")}); err != nil {
		t.Fatal(err)
	}
	groups, age, err := lambda.PriceGroups(ctx)
	if err != nil || age != 0 || groups["multiples"].Name != "Multiples" {
		t.Fatalf("no cache: %v age %v err %v", groups, age, err)
	}
}

// Writes are conditional: a taken id, a stale version and a missing group are refused
// as changed; rules over the limit are refused; each write leaves its audit entry.
func TestPriceGroupWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := testenv.Store(t)
	at := time.UnixMilli(1_760_000_000_000).UTC()
	if _, err := st.PriceGroup(ctx, "none"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing group: %v", err)
	}
	w := store.PriceGroupWrite{ID: "garden-centres", Name: "Garden centres", Audit: groupAudit(at, "create")}
	if err := st.CreatePriceGroup(ctx, w); err != nil {
		t.Fatal(err)
	}
	if err := st.CreatePriceGroup(ctx, w); !errors.Is(err, store.ErrChanged) {
		t.Fatalf("second create: %v", err)
	}
	rules := pricing.Rules{Prices: map[string]int64{"product:GC101-00001": 80},
		Breaks: map[string]pricing.Ladder{"product:GC101-00001": {{From: 6, Price: 75}, {From: 12, Price: 70}}, "range:wholesale_greeting_cards": {{From: 12, Percent: 5}}}}
	if err := st.ReplacePriceGroupRules(ctx, store.PriceGroupWrite{ID: "garden-centres", Rules: rules, Seen: 2, Audit: groupAudit(at, "import")}); !errors.Is(err, store.ErrChanged) {
		t.Fatalf("stale version: %v", err)
	}
	if err := st.RenamePriceGroup(ctx, store.PriceGroupWrite{ID: "nope", Name: "Nope", Seen: 1, Audit: groupAudit(at, "rename")}); !errors.Is(err, store.ErrChanged) {
		t.Fatalf("rename of a missing group: %v", err)
	}
	if err := st.ReplacePriceGroupRules(ctx, store.PriceGroupWrite{ID: "garden-centres", Rules: rules, Seen: 1, Audit: groupAudit(at.Add(time.Second), "import")}); err != nil {
		t.Fatal(err)
	}
	g, err := st.PriceGroup(ctx, "garden-centres")
	if err != nil {
		t.Fatal(err)
	}
	if g.Version != 2 || !g.UpdatedAt.Equal(at.Add(time.Second)) || g.Rules.Prices["product:GC101-00001"] != 80 ||
		len(g.Rules.Breaks["product:GC101-00001"]) != 2 || g.Rules.Breaks["range:wholesale_greeting_cards"][0].Percent != 5 {
		t.Fatalf("stored group: %+v", g)
	}
	big := rulesOfSize(store.MaxPriceGroupRules + 1)
	if err := st.ReplacePriceGroupRules(ctx, store.PriceGroupWrite{ID: "garden-centres", Rules: big, Seen: 2, Audit: groupAudit(at, "import")}); !errors.Is(err, store.ErrPriceGroupTooLarge) {
		t.Fatalf("rules over the limit: %v", err)
	}
	trail, err := st.Audit(ctx, store.AuditPriceGroup+"garden-centres")
	if err != nil || len(trail) != 2 || trail[0].Action != "import" || trail[1].Action != "create" {
		t.Fatalf("audit trail: %+v %v", trail, err)
	}
}

// PriceGroups reads on past a page: groups near the size limit fill DynamoDB's 1 MB
// page in three.
func TestPriceGroupsReadEveryPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := testenv.Store(t)
	at := time.UnixMilli(1_760_000_000_000)
	for i := range 5 {
		id := fmt.Sprintf("group-%d", i)
		if err := st.CreatePriceGroup(ctx, store.PriceGroupWrite{ID: id, Name: strings.ToUpper(id), Audit: groupAudit(at, "create")}); err != nil {
			t.Fatal(err)
		}
		big := rulesOfSize(store.MaxPriceGroupRules - 100)
		if err := st.ReplacePriceGroupRules(ctx, store.PriceGroupWrite{ID: id, Rules: big, Seen: 1, Audit: groupAudit(at, "import")}); err != nil {
			t.Fatal(err)
		}
	}
	groups, _, err := st.PriceGroups(ctx)
	if err != nil || len(groups) != 5 {
		t.Fatalf("read %d groups (%v), want 5", len(groups), err)
	}
}

// rulesOfSize makes rules of discounts at least n bytes long as stored (each discount
// adds 24 bytes: "product:SKU-000000":10,).
func rulesOfSize(n int) pricing.Rules {
	r := pricing.Rules{Discounts: map[string]int{}}
	for i := 0; 16+24*i < n; i++ {
		r.Discounts[fmt.Sprintf("product:SKU-%06d", i)] = 10
	}
	return r
}

// An account's price group is its pg attribute: set and taken off by a staff change,
// read by the profile and the account the pricing sees.
func TestAccountPriceGroup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := testenv.Store(t)
	at := time.UnixMilli(1_760_000_000_000).UTC()
	p, err := st.CreateProfile(ctx, store.Profile{UID: "pg-buyer", Business: "Robin Cards Ltd", Email: "robin@example.com"}, at)
	if err != nil {
		t.Fatal(err)
	}
	seen := p.UpdatedAt
	for i, group := range []string{"independents", ""} {
		now := at.Add(time.Duration(i+1) * time.Second)
		if err := st.ChangeAccount(ctx, store.AccountChange{UID: "pg-buyer", Seen: seen, PriceGroup: group, Audit: groupAudit(now, "account")}); err != nil {
			t.Fatal(err)
		}
		got, err := st.Profile(ctx, "pg-buyer")
		if err != nil {
			t.Fatal(err)
		}
		if got.PriceGroup != group || got.Account().PriceGroup != group {
			t.Fatalf("price group %q (account %q), want %q", got.PriceGroup, got.Account().PriceGroup, group)
		}
		seen = got.UpdatedAt
	}
}
