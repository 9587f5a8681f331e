package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/lists"
	"github.com/tradeshop/functions/internal/shoperr"
)

// A saved list is one item (pk USER#{uid}, sk LIST#{id}) under its account's own key, so
// a request is only ever answered from the caller's own lists. Beside them, the item
// (pk USER#{uid}, sk LISTS) counts them: creating a list adds 1 on condition that the
// count is under lists.MaxPerAccount, in one transaction with the list's put, and
// deleting one takes 1 off with its delete, so the count is always the number of lists.
const (
	prefixList  = "LIST#"
	skListCount = "LISTS"
	attrCount   = "count"
)

// listItem is a list as stored; Lines keeps their order.
type listItem struct {
	PK        string       `dynamodbav:"pk"`
	SK        string       `dynamodbav:"sk"`
	ID        string       `dynamodbav:"id"`
	Name      string       `dynamodbav:"name"`
	Lines     []lists.Line `dynamodbav:"lines"`
	LineCount int          `dynamodbav:"lineCount"`
	CreatedAt int64        `dynamodbav:"createdAt"`
	UpdatedAt int64        `dynamodbav:"updatedAt"`
	Version   int64        `dynamodbav:"version"`
}

func listKey(uid, id string) map[string]types.AttributeValue {
	return key(prefixUser+uid, prefixList+id)
}

func listToItem(uid string, l lists.List) listItem {
	lines := l.Lines
	if lines == nil {
		lines = []lists.Line{}
	}
	return listItem{PK: prefixUser + uid, SK: prefixList + l.ID, ID: l.ID, Name: l.Name, Lines: lines, LineCount: len(lines),
		CreatedAt: l.CreatedAt.UnixMilli(), UpdatedAt: l.UpdatedAt.UnixMilli(), Version: l.Version}
}

func (it listItem) toList() lists.List {
	return lists.List{ID: it.ID, Name: it.Name, Lines: it.Lines, CreatedAt: time.UnixMilli(it.CreatedAt).UTC(),
		UpdatedAt: time.UnixMilli(it.UpdatedAt).UTC(), Version: it.Version}
}

// ErrTooManyLists refuses a new list to an account that keeps lists.MaxPerAccount.
var ErrTooManyLists = &shoperr.ConflictError{Msg: fmt.Sprintf("You keep the most saved lists an account can (%d): delete one you no longer use, then create this one.", lists.MaxPerAccount)}

// ErrListMoved means a list changed since it was read (another tab saved it): read it
// again and repeat the change.
var ErrListMoved = errors.New("list changed since it was read")

// Lists answers uid's lists, most recently changed first: names and line counts only.
func (s *Store) Lists(ctx context.Context, uid string) ([]lists.Summary, error) {
	expr, err := expression.NewBuilder().
		WithKeyCondition(expression.Key("pk").Equal(expression.Value(prefixUser + uid)).And(expression.Key("sk").BeginsWith(prefixList))).
		WithProjection(expression.NamesList(expression.Name("id"), expression.Name("name"), expression.Name("lineCount"), expression.Name("updatedAt"))).
		Build()
	if err != nil {
		return nil, err
	}
	var items []listItem
	in := &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(), ProjectionExpression: expr.Projection(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ConsistentRead: aws.Bool(true)}
	for p := dynamodb.NewQueryPaginator(s.db, in); p.HasMorePages(); {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("lists of %s: %w", uid, err)
		}
		var page []listItem
		if err := attributevalue.UnmarshalListOfMaps(out.Items, &page); err != nil {
			return nil, fmt.Errorf("lists of %s: %w", uid, err)
		}
		items = append(items, page...)
	}
	out := make([]lists.Summary, len(items))
	for i, it := range items {
		out[i] = lists.Summary{ID: it.ID, Name: it.Name, Lines: it.LineCount, UpdatedAt: time.UnixMilli(it.UpdatedAt).UTC()}
	}
	slices.SortStableFunc(out, func(a, b lists.Summary) int {
		if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// List reads one of uid's lists; ErrNotFound when uid has no list id.
func (s *Store) List(ctx context.Context, uid, id string) (lists.List, error) {
	it, err := getItem[listItem](ctx, s, prefixUser+uid, prefixList+id)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return lists.List{}, err
		}
		return lists.List{}, fmt.Errorf("list %s of %s: %w", id, uid, err)
	}
	return it.toList(), nil
}

// CreateList stores a new list l (its Version 1) and counts it, in one transaction:
// ErrTooManyLists when uid keeps lists.MaxPerAccount already.
func (s *Store) CreateList(ctx context.Context, uid string, l lists.List) error {
	l.Version = 1
	count := expression.Name(attrCount)
	room := expression.AttributeNotExists(count).Or(count.LessThan(expression.Value(lists.MaxPerAccount)))
	t := &txn{}
	if err := errors.Join(
		t.update(role{}, key(prefixUser+uid, skListCount), s.table, expression.Add(count, expression.Value(1)), &room),
		t.put(role{}, s.table, listToItem(uid, l), notThere),
	); err != nil {
		return fmt.Errorf("build list %s: %w", l.ID, err)
	}
	_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) && len(cancelled.CancellationReasons) > 0 && aws.ToString(cancelled.CancellationReasons[0].Code) == "ConditionalCheckFailed" {
		return ErrTooManyLists
	}
	if err != nil {
		return fmt.Errorf("create list %s of %s: %w", l.ID, uid, err)
	}
	return nil
}

// SaveList stores a changed list l on condition that it is still at l.Version (as read),
// moving the version on: ErrListMoved when it changed since, ErrNotFound when it was
// deleted.
func (s *Store) SaveList(ctx context.Context, uid string, l lists.List) error {
	read := l.Version
	l.Version++
	item, err := attributevalue.MarshalMap(listToItem(uid, l))
	if err != nil {
		return err
	}
	err = s.putIf(ctx, item, expression.Name("version").Equal(expression.Value(read)))
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		if failed.Item == nil {
			return ErrNotFound
		}
		return ErrListMoved
	}
	if err != nil {
		return fmt.Errorf("save list %s of %s: %w", l.ID, uid, err)
	}
	return nil
}

// DeleteList deletes one of uid's lists and takes it off the count, in one transaction;
// ErrNotFound when uid has no list id.
func (s *Store) DeleteList(ctx context.Context, uid, id string) error {
	t := &txn{}
	if err := errors.Join(
		t.del(role{}, s.table, listKey(uid, id), expression.AttributeExists(expression.Name("pk"))),
		t.update(role{}, key(prefixUser+uid, skListCount), s.table, expression.Add(expression.Name(attrCount), expression.Value(-1)), nil),
	); err != nil {
		return fmt.Errorf("build list delete %s: %w", id, err)
	}
	_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) && len(cancelled.CancellationReasons) > 0 && aws.ToString(cancelled.CancellationReasons[0].Code) == "ConditionalCheckFailed" {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("delete list %s of %s: %w", id, uid, err)
	}
	return nil
}
