package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
)

// Price groups (docs/pricing.md "Price groups"): one item per group in the partition
// PRICEGROUP (sk GROUP#{id}), its rules one JSON string. Every priced request needs all
// of them at most, so they are read with one Query of the partition and kept by the
// process for PriceGroupCache: a change reaches every account of the group within that
// time, and at once in the process that made it.

// MaxPriceGroupRules bounds a group's rules as stored (bytes of JSON): an item may hold
// 400 KB, and the rest of the item and the transaction's audit entry need room too.
const MaxPriceGroupRules = 350_000

// ErrPriceGroupTooLarge is a group whose rules are over MaxPriceGroupRules as JSON.
var ErrPriceGroupTooLarge = errors.New("price group rules are too large")

// DefaultPriceGroupCache is how long a process keeps the groups it read, and the most
// PRICE_GROUP_CACHE_SECONDS may set.
const DefaultPriceGroupCache = 60 * time.Second

type priceGroupItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	Name      string `dynamodbav:"name"`
	Rules     string `dynamodbav:"rules"`
	Version   int64  `dynamodbav:"version"`
	UpdatedAt int64  `dynamodbav:"updatedAt"`
	UpdatedBy string `dynamodbav:"updatedBy,omitempty"`
}

func priceGroupSK(id string) string { return prefixPriceGroup + id }

func (it priceGroupItem) toGroup() (pricing.Group, error) {
	g := pricing.Group{ID: strings.TrimPrefix(it.SK, prefixPriceGroup), Name: it.Name, Version: it.Version,
		UpdatedAt: time.UnixMilli(it.UpdatedAt).UTC()}
	if it.Rules != "" {
		if err := json.Unmarshal([]byte(it.Rules), &g.Rules); err != nil {
			return pricing.Group{}, fmt.Errorf("price group %s rules: %w", g.ID, err)
		}
	}
	return g, nil
}

// rulesJSON is rules as stored, refused over MaxPriceGroupRules.
func rulesJSON(r pricing.Rules) (string, error) {
	b, err := json.Marshal(r) // map keys sorted: the same rules are the same text
	if err != nil {
		return "", err
	}
	if len(b) > MaxPriceGroupRules {
		return "", ErrPriceGroupTooLarge
	}
	return string(b), nil
}

// RulesSize is how many bytes rules take as stored (against MaxPriceGroupRules).
func RulesSize(r pricing.Rules) int {
	b, _ := json.Marshal(r)
	return len(b)
}

// groupCache keeps the last read of every price group for ttl (0: not at all). gen
// moves on at every drop, so a read that began before a write cannot put back what the
// write changed.
type groupCache struct {
	ttl time.Duration
	now func() time.Time

	mu     sync.Mutex
	groups map[string]pricing.Group
	at     time.Time
	held   bool
	gen    uint64
}

func newGroupCache(ttl time.Duration, now func() time.Time) *groupCache {
	switch {
	case ttl == 0:
		ttl = DefaultPriceGroupCache
	case ttl < 0:
		ttl = 0
	}
	if now == nil {
		now = time.Now
	}
	return &groupCache{ttl: min(ttl, DefaultPriceGroupCache), now: now}
}

// fresh answers the groups kept and their age, if they are younger than ttl.
func (c *groupCache) fresh() (map[string]pricing.Group, time.Duration, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held && c.ttl > 0 {
		if age := c.now().Sub(c.at); age >= 0 && age < c.ttl {
			return c.groups, age, c.gen, true
		}
	}
	return nil, 0, c.gen, false
}

// keep stores groups read at at, unless the cache was dropped since the read began.
func (c *groupCache) keep(groups map[string]pricing.Group, at time.Time, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ttl > 0 && gen == c.gen {
		c.groups, c.at, c.held = groups, at, true
	}
}

func (c *groupCache) drop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.groups, c.held = nil, false
	c.gen++
}

// PriceGroups answers every price group by id and how old that read is: from this
// process's cache while it is younger than PriceGroupCache, else by one paginated Query
// of the PRICEGROUP partition (age 0). The map is shared with other callers: read it,
// never change it.
func (s *Store) PriceGroups(ctx context.Context) (map[string]pricing.Group, time.Duration, error) {
	groups, age, gen, ok := s.groups.fresh()
	if ok {
		return groups, age, nil
	}
	at := s.groups.now()
	groups, err := s.AllPriceGroups(ctx)
	if err != nil {
		return nil, 0, err
	}
	s.groups.keep(groups, at, gen)
	return groups, 0, nil
}

// AllPriceGroups reads every price group by id as they are now, by one paginated Query
// of the PRICEGROUP partition, uncached (the back office's list).
func (s *Store) AllPriceGroups(ctx context.Context) (map[string]pricing.Group, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(pkPriceGroup))).Build()
	if err != nil {
		return nil, err
	}
	items, err := queryAll[priceGroupItem](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table),
		KeyConditionExpression: expr.KeyCondition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("price groups: %w", err)
	}
	groups := make(map[string]pricing.Group, len(items))
	for _, it := range items {
		g, err := it.toGroup()
		if err != nil {
			return nil, err
		}
		groups[g.ID] = g
	}
	return groups, nil
}

// ForgetPriceGroups drops this process's cached groups, so the next PriceGroups reads
// them again; every write of a group here calls it.
func (s *Store) ForgetPriceGroups() { s.groups.drop() }

// PriceGroup reads group id as it is now (uncached, for the back office): ErrNotFound
// when there is none.
func (s *Store) PriceGroup(ctx context.Context, id string) (pricing.Group, error) {
	it, err := getItem[priceGroupItem](ctx, s, pkPriceGroup, priceGroupSK(id))
	if err != nil {
		return pricing.Group{}, fmt.Errorf("price group %s: %w", id, err)
	}
	return it.toGroup()
}

// PriceGroupWrite is a staff write of a price group with its audit entry (whose At is
// the write's time and By who made it).
type PriceGroupWrite struct {
	ID    string
	Name  string        // Create and Rename
	Rules pricing.Rules // ReplacePriceGroupRules
	Seen  int64         // the version the page read (Rename, ReplacePriceGroupRules)
	Audit orders.AuditEntry
}

// CreatePriceGroup writes a new, empty group at version 1: ErrChanged when the id is taken.
func (s *Store) CreatePriceGroup(ctx context.Context, w PriceGroupWrite) error {
	t := &txn{}
	err := errors.Join(
		t.put(role{}, s.table, priceGroupItem{PK: pkPriceGroup, SK: priceGroupSK(w.ID), Name: w.Name, Rules: "{}", Version: 1,
			UpdatedAt: w.Audit.At.UnixMilli(), UpdatedBy: w.Audit.By.Email}, notThere),
		s.putAudit(t, AuditPriceGroup+w.ID, w.Audit))
	return s.runGroupWrite(ctx, t, err)
}

// RenamePriceGroup sets a group's name, on condition it is still at version w.Seen:
// ErrChanged when it is not (or there is no such group).
func (s *Store) RenamePriceGroup(ctx context.Context, w PriceGroupWrite) error {
	return s.updatePriceGroup(ctx, w, expression.Set(expression.Name("name"), expression.Value(w.Name)))
}

// ReplacePriceGroupRules replaces a group's rules (an import applied), on condition it
// is still at version w.Seen: ErrChanged when it is not (or there is no such group),
// ErrPriceGroupTooLarge when the rules are over MaxPriceGroupRules.
func (s *Store) ReplacePriceGroupRules(ctx context.Context, w PriceGroupWrite) error {
	rules, err := rulesJSON(w.Rules)
	if err != nil {
		return err
	}
	return s.updatePriceGroup(ctx, w, expression.Set(expression.Name("rules"), expression.Value(rules)))
}

func (s *Store) updatePriceGroup(ctx context.Context, w PriceGroupWrite, upd expression.UpdateBuilder) error {
	version := expression.Name("version")
	upd = upd.Set(version, expression.Value(w.Seen+1)).
		Set(expression.Name("updatedAt"), expression.Value(w.Audit.At.UnixMilli())).
		Set(expression.Name("updatedBy"), expression.Value(w.Audit.By.Email))
	cond := expression.AttributeExists(expression.Name("pk")).And(version.Equal(expression.Value(w.Seen)))
	t := &txn{}
	err := errors.Join(t.update(role{}, key(pkPriceGroup, priceGroupSK(w.ID)), s.table, upd, &cond),
		s.putAudit(t, AuditPriceGroup+w.ID, w.Audit))
	return s.runGroupWrite(ctx, t, err)
}

// runGroupWrite runs a group's write (unless building it failed) and drops the cache,
// whatever the outcome: a write whose answer was lost may still have been applied.
func (s *Store) runGroupWrite(ctx context.Context, t *txn, built error) error {
	if built != nil {
		return built
	}
	defer s.ForgetPriceGroups()
	return changed(s.run(ctx, t, ""))
}
