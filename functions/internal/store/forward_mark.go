package store

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
)

// ForwardMark is a staff change of a product's forward marking (docs/forward-orders.md
// "Marking a product forward"): Forward nil ends it.
type ForwardMark struct {
	SKU     string
	Forward *catalogue.Forward
	Audit   orders.AuditEntry
}

// MarkForward writes m and its audit entry in one transaction: ErrChanged when there is
// no such product (it was never there or the table lost it meanwhile).
func (s *Store) MarkForward(ctx context.Context, m ForwardMark) error {
	fwd := expression.Name("fwd")
	upd := expression.Remove(fwd)
	if m.Forward != nil {
		upd = expression.Set(fwd, expression.Value(forwardToItem(m.Forward)))
	}
	t := &txn{}
	errs := []error{
		t.update(role{}, productKey(m.SKU), s.table, upd, ptr(expression.AttributeExists(expression.Name("pk")))),
		s.putAudit(t, AuditProduct+m.SKU, m.Audit),
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return changed(s.run(ctx, t, ""))
}
