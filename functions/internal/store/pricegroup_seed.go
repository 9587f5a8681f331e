package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tradeshop/functions/internal/pricing"
)

// This file writes the seed's price groups until the price group store (pk PRICEGROUP,
// sk GROUP#{id}; docs/data-model.md) is merged; that store's item mapping then replaces
// seedGroupItem, with the same attribute names.

const (
	pkPriceGroupSeed     = "PRICEGROUP"
	prefixPriceGroupSeed = "GROUP#"
)

// seedGroupItem is a price group as the table holds it: its rules as one JSON string.
type seedGroupItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	Name      string `dynamodbav:"name"`
	Rules     string `dynamodbav:"rules"`
	Version   int64  `dynamodbav:"version"`
	UpdatedAt int64  `dynamodbav:"updatedAt"` // Unix ms
	UpdatedBy string `dynamodbav:"updatedBy"`
}

// PutSeedPriceGroups writes the seed's price groups, overwriting same ids, as updated by
// "seed".
func (s *Store) PutSeedPriceGroups(ctx context.Context, groups []pricing.Group) error {
	items := make([]any, len(groups))
	for i, g := range groups {
		rules, err := json.Marshal(g.Rules)
		if err != nil {
			return fmt.Errorf("price group %s: %w", g.ID, err)
		}
		items[i] = seedGroupItem{PK: pkPriceGroupSeed, SK: prefixPriceGroupSeed + g.ID, Name: g.Name, Rules: string(rules),
			Version: g.Version, UpdatedAt: g.UpdatedAt.UnixMilli(), UpdatedBy: "seed"}
	}
	return s.batchPut(ctx, items, nil)
}
