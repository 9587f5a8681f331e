package store

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The site's app error reports (POST /api/errors, docs/api.md "App error reports"): each
// recorded report adds to its group, one item per kind, name, message and path in the
// partition APPERR, which the back office's Health page lists; and each client's reports
// of a minute are counted in an item of their own, so the limit holds across every Lambda
// serving the endpoint.
const (
	// pkAppErrors is the partition of the error groups (sk a hash of the group's kind,
	// name, message and path).
	pkAppErrors = "APPERR"
	// prefixErrorRate keys a client's report counter (pk ERRRATE#{hash of its address},
	// sk the minute, Unix minutes).
	prefixErrorRate = "ERRRATE#"
)

// appErrorKeep is how long an error group is kept after it was last seen (the table's
// TTL then deletes it).
const appErrorKeep = 30 * 24 * time.Hour

// rateKeep is how long past its minute a client's counter is kept: long enough for a
// clock a little behind to still find it, short enough that no address's hash lingers.
const rateKeep = 2 * time.Minute

// MaxAppErrorGroupsRead bounds the groups AppErrorGroups reads before it picks the most
// recently seen: the partition holds every group of the last 30 days, and a flood of
// distinct reports must not make the Health page slow.
const MaxAppErrorGroupsRead = 2000

// AppErrorReport is one report as recorded: what went wrong, where, and in which build
// of the site.
type AppErrorReport struct {
	Kind, Name, Message, Path string
	// Status is the HTTP status of a failed /api call; 0 for none.
	Status int
	// Count is how many times the page saw it before it sent the report.
	Count int
	// Build is the site's build id.
	Build string
}

// AppErrorGroup is the reports of one kind, name, message and path: how many, when first
// and last seen, and the status and build of the last.
type AppErrorGroup struct {
	Kind, Name, Message, Path string
	Status                    int
	Count                     int
	FirstSeen, LastSeen       time.Time
	Build                     string
}

// appErrorItem is an error group as stored (pk APPERR, sk appErrorSK). FirstSeen and
// LastSeen are Unix ms; TTL Unix s, appErrorKeep after LastSeen.
type appErrorItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	Kind      string `dynamodbav:"kind"`
	Name      string `dynamodbav:"name"`
	Message   string `dynamodbav:"message"`
	Path      string `dynamodbav:"path"`
	Status    int    `dynamodbav:"status"`
	Count     int    `dynamodbav:"count"`
	FirstSeen int64  `dynamodbav:"firstSeen"`
	LastSeen  int64  `dynamodbav:"lastSeen"`
	Build     string `dynamodbav:"build"`
	TTL       int64  `dynamodbav:"ttl"`
}

// appErrorSK is the sort key of a report's group: a hash of what makes it the same error
// at the same place, so a long message never makes a long key.
func appErrorSK(r AppErrorReport) string {
	sum := sha256.Sum256([]byte(r.Kind + "\x00" + r.Name + "\x00" + r.Message + "\x00" + r.Path))
	return hex.EncodeToString(sum[:16])
}

// RecordAppErrors adds reports to their groups at now: each group's count grows by the
// report's count, its first sighting is kept, its last sighting, status and build are the
// report's, and it expires appErrorKeep after now. Reports of the same group are added
// together first, so a batch makes one write per group.
func (s *Store) RecordAppErrors(ctx context.Context, reports []AppErrorReport, now time.Time) error {
	var order []string
	groups := map[string]AppErrorReport{}
	for _, r := range reports {
		sk := appErrorSK(r)
		if g, ok := groups[sk]; ok {
			r.Count += g.Count
		} else {
			order = append(order, sk)
		}
		groups[sk] = r
	}
	for _, sk := range order {
		r := groups[sk]
		ms := now.UnixMilli()
		upd := expression.Add(expression.Name("count"), expression.Value(r.Count)).
			Set(expression.Name("firstSeen"), expression.IfNotExists(expression.Name("firstSeen"), expression.Value(ms))).
			Set(expression.Name("lastSeen"), expression.Value(ms)).
			Set(expression.Name("kind"), expression.Value(r.Kind)).
			Set(expression.Name("name"), expression.Value(r.Name)).
			Set(expression.Name("message"), expression.Value(r.Message)).
			Set(expression.Name("path"), expression.Value(r.Path)).
			Set(expression.Name("status"), expression.Value(r.Status)).
			Set(expression.Name("build"), expression.Value(r.Build)).
			Set(expression.Name("ttl"), expression.Value(now.Add(appErrorKeep).Unix()))
		expr, err := expression.NewBuilder().WithUpdate(upd).Build()
		if err != nil {
			return err
		}
		if _, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(pkAppErrors, sk),
			UpdateExpression: expr.Update(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()}); err != nil {
			return fmt.Errorf("record app error %s: %w", sk, err)
		}
	}
	return nil
}

// AppErrorGroups answers at most limit error groups at now, most recently seen first,
// leaving out those expired that DynamoDB's TTL has not deleted yet (it takes up to a few
// days). It reads at most MaxAppErrorGroupsRead of them (in key order, which is no order
// of time): past that many groups the list is the most recent of those read.
func (s *Store) AppErrorGroups(ctx context.Context, now time.Time, limit int) ([]AppErrorGroup, error) {
	items, _, err := partitionAtMost[appErrorItem](ctx, s, pkAppErrors, MaxAppErrorGroupsRead, nil)
	if err != nil {
		return nil, fmt.Errorf("app error groups: %w", err)
	}
	items = slices.DeleteFunc(items, func(it appErrorItem) bool { return it.TTL <= now.Unix() })
	slices.SortFunc(items, func(a, b appErrorItem) int {
		return cmp.Or(cmp.Compare(b.LastSeen, a.LastSeen), cmp.Compare(b.Count, a.Count))
	})
	items = items[:min(limit, len(items))]
	out := make([]AppErrorGroup, len(items))
	for i, it := range items {
		out[i] = AppErrorGroup{Kind: it.Kind, Name: it.Name, Message: it.Message, Path: it.Path, Status: it.Status, Count: it.Count,
			FirstSeen: time.UnixMilli(it.FirstSeen).UTC(), LastSeen: time.UnixMilli(it.LastSeen).UTC(), Build: it.Build}
	}
	return out, nil
}

// TakeErrorReports counts n reports from client (a hash of its address, never the
// address) against its limit of reports in the minute of now, and answers how many of
// them may be recorded: n while they fit, fewer when only some do, 0 once the minute's
// limit is used up. retryAfter is then the time to the next minute. The count is one
// conditional update of the client's counter for the minute, so two Lambdas taking at
// once never both get the last place.
func (s *Store) TakeErrorReports(ctx context.Context, client string, n, limit int, now time.Time) (taken int, retryAfter time.Duration, err error) {
	minute := now.Truncate(time.Minute)
	retryAfter = minute.Add(time.Minute).Sub(now)
	k := key(prefixErrorRate+client, strconv.FormatInt(minute.Unix()/60, 10))
	want := min(n, limit)
	for attempt := 0; want > 0 && attempt < 5; attempt++ {
		upd := expression.Add(expression.Name("count"), expression.Value(want)).
			Set(expression.Name("ttl"), expression.Value(minute.Add(time.Minute+rateKeep).Unix()))
		cond := expression.AttributeNotExists(expression.Name("count")).
			Or(expression.Name("count").LessThanEqual(expression.Value(limit - want)))
		expr, err := expression.NewBuilder().WithUpdate(upd).WithCondition(cond).Build()
		if err != nil {
			return 0, retryAfter, err
		}
		_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: k,
			UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(),
			ExpressionAttributeValues: expr.Values(), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
		var failed *types.ConditionalCheckFailedException
		if !errors.As(err, &failed) {
			if err != nil {
				return 0, retryAfter, fmt.Errorf("count error reports: %w", err)
			}
			return want, retryAfter, nil
		}
		// Some of the minute's places are taken: try again for what is left (another
		// request may take those first, so this is a loop, and a short one).
		var old struct {
			Count int `dynamodbav:"count"`
		}
		if failed.Item == nil {
			return 0, retryAfter, nil
		}
		if err := attributevalue.UnmarshalMap(failed.Item, &old); err != nil {
			return 0, retryAfter, fmt.Errorf("count error reports: %w", err)
		}
		want = min(want, limit-old.Count)
	}
	return 0, retryAfter, nil
}

// partitionAtMost reads at most limit items of partition pk (strongly consistent, in key
// order) into T, with only the attributes of projection when it is not nil, and says
// whether the partition holds more.
func partitionAtMost[T any](ctx context.Context, s *Store, pk string, limit int, projection []string) ([]T, bool, error) {
	b := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(pk)))
	if len(projection) > 0 {
		names := make([]expression.NameBuilder, len(projection))
		for i, p := range projection {
			names[i] = expression.Name(p)
		}
		b = b.WithProjection(expression.NamesList(names[0], names[1:]...))
	}
	expr, err := b.Build()
	if err != nil {
		return nil, false, err
	}
	in := &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(), ProjectionExpression: expr.Projection(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ConsistentRead: aws.Bool(true),
		Limit: aws.Int32(int32(limit + 1))}
	var out []T
	for {
		page, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, false, err
		}
		var items []T
		if err := attributevalue.UnmarshalListOfMaps(page.Items, &items); err != nil {
			return nil, false, err
		}
		out = append(out, items...)
		if len(out) > limit {
			return out[:limit], true, nil
		}
		if page.LastEvaluatedKey == nil {
			return out, false, nil
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
		in.Limit = aws.Int32(int32(limit + 1 - len(out)))
	}
}
