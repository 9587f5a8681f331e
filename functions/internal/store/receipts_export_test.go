package store

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
)

// CancelForwardForTest is a buyer's reduction of a forward line by k units, as the
// buyers' book makes it: open to cancelled, on condition k are open.
func (s *Store) CancelForwardForTest(ctx context.Context, sku, lineSK string, k int) error {
	open := expression.Name("open")
	t := &txn{}
	if err := t.update(role{}, ForwardLineKey(sku, lineSK), s.table,
		expression.Add(open, expression.Value(-k)).Add(expression.Name("cancelled"), expression.Value(k)),
		ptr(open.GreaterThanEqual(expression.Value(k)))); err != nil {
		return err
	}
	return s.run(ctx, t, "")
}
