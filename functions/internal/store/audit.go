package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/tradeshop/functions/internal/orders"
)

// The audit trail (docs/back-office.md "Roles"): one item per staff change, written in
// the same transaction as the change, in the partition of what changed: AUDIT#ORDER#id,
// AUDIT#ACCOUNT#uid, AUDIT#COUPON#id, AUDIT#PRODUCT#sku,
// AUDIT#PRICEGROUP#id; sk the time (Unix ms, zero-padded)
// and a random suffix, so the trail reads newest first.
const prefixAudit = "AUDIT#"

// The audited kinds of thing.
const (
	AuditOrder   = "ORDER#"
	AuditAccount = "ACCOUNT#"
	AuditCoupon  = "COUPON#"
	AuditProduct = "PRODUCT#"
	// AuditPriceGroup is a price group's trail: created, renamed, its rules replaced.
	AuditPriceGroup = "PRICEGROUP#"
)

// auditItem is one audit entry as stored. Before and After are JSON objects.
type auditItem struct {
	PK      string `dynamodbav:"pk"`
	SK      string `dynamodbav:"sk"`
	At      int64  `dynamodbav:"at"`
	ByUID   string `dynamodbav:"byUid"`
	ByEmail string `dynamodbav:"byEmail"`
	Action  string `dynamodbav:"action"`
	Before  string `dynamodbav:"before"`
	After   string `dynamodbav:"after"`
}

func auditSK(at time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%015d#%s", at.UnixMilli(), hex.EncodeToString(b[:]))
}

// putAudit adds the write of entry e on thing (a kind and its id) to t.
func (s *Store) putAudit(t *txn, thing string, e orders.AuditEntry) error {
	before, err := json.Marshal(e.Before)
	if err != nil {
		return err
	}
	after, err := json.Marshal(e.After)
	if err != nil {
		return err
	}
	return t.put(role{}, s.table, auditItem{PK: prefixAudit + thing, SK: auditSK(e.At), At: e.At.UnixMilli(), ByUID: e.By.UID,
		ByEmail: e.By.Email, Action: e.Action, Before: string(before), After: string(after)}, notThere)
}

// auditLimit is the most entries an audit trail answers.
const auditLimit = 100

// Audit answers the newest entries (at most 100) of thing's audit trail (AuditOrder+id, …).
func (s *Store) Audit(ctx context.Context, thing string) ([]orders.AuditEntry, error) {
	return s.auditNewest(ctx, thing, auditLimit)
}

// auditNewest answers the newest limit entries of thing's audit trail.
func (s *Store) auditNewest(ctx context.Context, thing string, limit int) ([]orders.AuditEntry, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(prefixAudit + thing))).Build()
	if err != nil {
		return nil, err
	}
	out, err := s.db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ScanIndexForward: aws.Bool(false),
		ConsistentRead: aws.Bool(true), Limit: aws.Int32(int32(limit))})
	if err != nil {
		return nil, fmt.Errorf("audit of %s: %w", thing, err)
	}
	var items []auditItem
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return nil, fmt.Errorf("audit of %s: %w", thing, err)
	}
	list := make([]orders.AuditEntry, len(items))
	for i, it := range items {
		e := orders.AuditEntry{At: time.UnixMilli(it.At).UTC(), By: orders.Staff{UID: it.ByUID, Email: it.ByEmail}, Action: it.Action}
		_ = json.Unmarshal([]byte(it.Before), &e.Before)
		_ = json.Unmarshal([]byte(it.After), &e.After)
		list[i] = e
	}
	return list, nil
}
