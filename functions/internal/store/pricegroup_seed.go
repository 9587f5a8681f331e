package store

import (
	"context"
	"fmt"

	"github.com/tradeshop/functions/internal/pricing"
)

// PutSeedPriceGroups writes the seed's price groups (seed.PriceGroups), overwriting same
// ids, as updated by "seed": a plain load, like the seed's catalogue and coupons, with no
// audit entry and no version check.
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
