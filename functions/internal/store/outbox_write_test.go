package store

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"

	"github.com/tradeshop/functions/internal/outbox"
)

// putOutbox writes a pending message under OUTBOX/<id>, due now, only where no item of that
// id is (docs/back-office.md "Emails": one event never writes a message twice).
func TestPutOutboxWritesAPendingMessageOnce(t *testing.T) {
	t.Parallel()
	s := &Store{table: "tradeshop"}
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	m := outbox.Message{ID: outbox.ID("TS-100001", outbox.KindConfirmation), To: "buyer@shop.test", Subject: "Your order TS-100001", Text: "text", HTML: "<p>html</p>"}
	var tx txn
	if err := s.putOutbox(&tx, m, now); err != nil {
		t.Fatal(err)
	}
	if len(tx.items) != 1 || tx.items[0].Put == nil {
		t.Fatalf("want one Put, got %+v", tx.items)
	}
	put := tx.items[0].Put
	var got outboxItem
	if err := attributevalue.UnmarshalMap(put.Item, &got); err != nil {
		t.Fatal(err)
	}
	want := outboxItem{PK: pkOutbox, SK: "TS-100001/confirmation", To: m.To, Subject: m.Subject, Text: m.Text, HTML: m.HTML,
		State: outboxPending, CreatedAt: now.UnixMilli(), NextAt: now.UnixMilli()}
	if got != want {
		t.Fatalf("item %+v, want %+v", got, want)
	}
	if *put.TableName != "tradeshop" || put.ConditionExpression == nil || *put.ConditionExpression != "attribute_not_exists (#0)" || put.ExpressionAttributeNames["#0"] != "pk" {
		t.Fatalf("table %v, condition %v %v: want a put only where no item is", *put.TableName, put.ConditionExpression, put.ExpressionAttributeNames)
	}
}
