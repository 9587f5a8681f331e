package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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

// Businesses answers the business names of the accounts uids (a profile without one, or
// no profile, is absent), in batched reads: the demand view names each account of a
// forward product by it.
func (s *Store) Businesses(ctx context.Context, uids []string) (map[string]string, error) {
	keys := make([]map[string]types.AttributeValue, len(uids))
	for i, uid := range uids {
		keys[i] = key(prefixUser+uid, skProfile)
	}
	items, err := s.batchGet(ctx, keys, false)
	if err != nil {
		return nil, fmt.Errorf("businesses: %w", err)
	}
	out := make(map[string]string, len(items))
	for _, item := range items {
		var it profileItem
		if err := attributevalue.UnmarshalMap(item, &it); err != nil {
			return nil, fmt.Errorf("unmarshal profile: %w", err)
		}
		if it.Business != "" {
			out[strings.TrimPrefix(it.PK, prefixUser)] = it.Business
		}
	}
	return out, nil
}
