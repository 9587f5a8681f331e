package store

import (
	"context"
	"fmt"

	"github.com/tradeshop/functions/internal/pricing"
)

// PutSeedPriceGroups writes the seed's price groups as the price group store keeps them
// (pricegroups.go), overwriting same ids, as updated by "seed". It drops this process's
// cache of the groups.
func (s *Store) PutSeedPriceGroups(ctx context.Context, groups []pricing.Group) error {
	items := make([]any, len(groups))
	for i, g := range groups {
		rules, err := rulesJSON(g.Rules)
		if err != nil {
			return fmt.Errorf("price group %s: %w", g.ID, err)
		}
		items[i] = priceGroupItem{PK: pkPriceGroup, SK: priceGroupSK(g.ID), Name: g.Name, Rules: rules,
			Version: g.Version, UpdatedAt: g.UpdatedAt.UnixMilli(), UpdatedBy: "seed"}
	}
	defer s.ForgetPriceGroups()
	return s.batchPut(ctx, items, nil)
}
