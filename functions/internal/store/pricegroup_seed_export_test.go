package store

import "context"

// SeedGroupForTest reads a price group item as the seed wrote it: name, rules and updatedBy.
func (s *Store) SeedGroupForTest(ctx context.Context, id string) (name, rules, updatedBy string, err error) {
	it, err := getItem[seedGroupItem](ctx, s, pkPriceGroupSeed, prefixPriceGroupSeed+id)
	return it.Name, it.Rules, it.UpdatedBy, err
}
