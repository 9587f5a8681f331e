package store

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// DynamoDB Local (3.3.1) answers a TransactWriteItems before its SQLite COMMIT has run:
// it queues the commit on the database's one worker and answers at once. A kill -9 of the
// store in the few milliseconds after the answer loses the whole transaction (SQLite rolls
// its journal back on the next start), though the caller was told it was written. Every
// other call waits for its own turn on that worker, which comes after the queued commit.
// So on a local endpoint each transaction that answered is followed by a consistent read
// of one of its items (commitBarrier): when the read answers, the commit has run. If the
// read fails, whether the transaction stands is unknown, and the call is ErrUnavailable,
// as a call that timed out is: callers already treat that answer as "may or may not have
// been written" (docs/local-store.md, "Known differences from the cloud"). The cloud
// commits before it answers; there the barrier is not added.

// commitUnconfirmed is a transaction that answered whose commit could not be confirmed.
type commitUnconfirmed struct{ err error }

func (e *commitUnconfirmed) Error() string {
	return fmt.Sprintf("the local store answered the transaction, but its commit could not be confirmed: %v", e.err)
}

func (e *commitUnconfirmed) Unwrap() []error { return []error{ErrUnavailable, e.err} }

// commitBarrier is an Initialize-step middleware of a local endpoint's client: after a
// TransactWriteItems answers, it reads the key of the transaction's first item with
// ConsistentRead through db.
func commitBarrier(db *dynamodb.Client) middleware.InitializeMiddleware {
	return middleware.InitializeMiddlewareFunc("LocalCommitBarrier", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		out, md, err := next.HandleInitialize(ctx, in)
		tx, ok := in.Parameters.(*dynamodb.TransactWriteItemsInput)
		if err != nil || !ok {
			return out, md, err
		}
		table, key := firstKey(tx.TransactItems)
		if key == nil {
			return out, md, err
		}
		if _, rerr := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: table, Key: key, ConsistentRead: aws.Bool(true),
			ProjectionExpression: aws.String("#k"), ExpressionAttributeNames: map[string]string{"#k": keyPK}}); rerr != nil {
			return out, md, &commitUnconfirmed{err: rerr}
		}
		return out, md, nil
	})
}

// keyPK and keySK are the table's key attributes (schema/table.json).
const (
	keyPK = "pk"
	keySK = "sk"
)

// firstKey answers the table and key of a transaction's first item, or a nil key.
func firstKey(items []types.TransactWriteItem) (*string, map[string]types.AttributeValue) {
	if len(items) == 0 {
		return nil, nil
	}
	it := items[0]
	switch {
	case it.Put != nil:
		return it.Put.TableName, map[string]types.AttributeValue{keyPK: it.Put.Item[keyPK], keySK: it.Put.Item[keySK]}
	case it.Update != nil:
		return it.Update.TableName, it.Update.Key
	case it.Delete != nil:
		return it.Delete.TableName, it.Delete.Key
	case it.ConditionCheck != nil:
		return it.ConditionCheck.TableName, it.ConditionCheck.Key
	}
	return nil, nil
}
