package stock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/store"
)

// MaxExpected bounds the units staff expect of a forward delivery, as stock is bounded.
const MaxExpected = Max

// ForwardProblems answers what is wrong with a forward marking as staff typed it, by
// field name (delivery_from, order_by, expected; empty when nothing is).
// catalogue.Forward.Check has the last word on the rule.
func ForwardProblems(f catalogue.Forward) map[string]string {
	p := map[string]string{}
	from, ferr := time.Parse(time.DateOnly, f.DeliveryFrom)
	by, berr := time.Parse(time.DateOnly, f.OrderBy)
	if ferr != nil {
		p["delivery_from"] = "The delivery date must be a date, such as 2027-09-01."
	}
	switch {
	case berr != nil:
		p["order_by"] = "The order-by date must be a date, such as 2027-06-30."
	case ferr == nil && by.After(from):
		p["order_by"] = "The order-by date must be on or before the delivery date: pre-orders close before delivery starts."
	}
	if f.Expected < 0 || f.Expected > MaxExpected {
		p["expected"] = "The expected units must be a whole number from 0 to 10,000,000 (0 when not known)."
	}
	if err := f.Check(); err != nil && len(p) == 0 {
		p["order_by"] = "The dates are not a forward marking the shop can take: " + err.Error() + "."
	}
	return p
}

// MarkForward sets product sku's forward marking to f, or ends it when f is nil, with an
// audit entry saying what it was and what it is; it answers the product after, with its
// trail. Ending it leaves the forward orders placed already as they are: they are still
// received and allocated (docs/forward-orders.md).
func (s Service) MarkForward(ctx context.Context, sku string, f *catalogue.Forward, by orders.Staff) (Record, error) {
	now, err := s.Read(ctx, sku)
	if err != nil {
		return Record{}, err
	}
	action := "forward: marked"
	if f == nil {
		action = "forward: ended"
	}
	err = s.Store.MarkForward(ctx, store.ForwardMark{SKU: sku, Forward: f, Audit: orders.AuditEntry{At: s.Now(), By: by, Action: action,
		Before: map[string]any{"forward": forwardText(now.Product.Forward)}, After: map[string]any{"forward": forwardText(f)}}})
	if errors.Is(err, store.ErrChanged) {
		return Record{}, noProduct(sku)
	}
	if err != nil {
		return Record{}, fmt.Errorf("mark %s forward: %w", sku, err)
	}
	return s.Read(ctx, sku)
}

// forwardText is a forward marking as the audit trail shows it; "none" for none.
func forwardText(f *catalogue.Forward) string {
	if f == nil {
		return "none"
	}
	return catalogue.ForwardText(f)
}
