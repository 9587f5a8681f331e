package orders

import (
	"context"
	"time"

	"github.com/tradeshop/functions/internal/pricing"
)

// PriceGroups answers no price groups: the fake's accounts are in none.
func (f *fakeStore) PriceGroups(context.Context) (map[string]pricing.Group, time.Duration, error) {
	return nil, 0, nil
}
