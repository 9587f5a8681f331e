package store

import (
	"context"
	"time"

	"github.com/tradeshop/functions/internal/pricing"
)

// PriceGroups answers every price group by id and how old that read is. A stand-in
// until owner B's store of price groups reaches main (issue 37): no groups, no call.
func (s *Store) PriceGroups(ctx context.Context) (map[string]pricing.Group, time.Duration, error) {
	return map[string]pricing.Group{}, 0, nil
}
