package store_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// The engine behaviours the shop's order placement is built on (docs/local-store.md):
// the local store is DynamoDB Local because it has them, as the cloud does, and dynalite
// did not. These talk to the engine directly, on a fresh table of the shop's schema.

// engine answers a raw client of the local store and the name of a fresh table.
func engine(t *testing.T) (*dynamodb.Client, string) {
	t.Helper()
	table := testenv.Store(t).TableName()
	db, err := store.NewClient(context.Background(), store.ConfigFromEnv(os.Getenv))
	if err != nil {
		t.Fatal(err)
	}
	return db, table
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

func keyOf(pk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": s(pk), "sk": s("ITEM")}
}

func itemOf(pk string, stock string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": s(pk), "sk": s("ITEM"), "stock": n(stock)}
}

// get reads one item by key (strongly consistent); nil when it does not exist.
func get(t *testing.T, db *dynamodb.Client, table, pk string) map[string]any {
	t.Helper()
	out, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: keyOf(pk), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Item == nil {
		return nil
	}
	var m map[string]any
	if err := attributevalue.UnmarshalMap(out.Item, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestEngineTransactWriteItemsAllOrNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, table := engine(t)
	notExists := aws.String("attribute_not_exists(pk)")
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemOf("STOCK#A", "5")}); err != nil {
		t.Fatal(err)
	}

	// Every item carries a condition and every condition holds: all of it is written.
	_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(table), Item: itemOf("ORDER#1", "0"), ConditionExpression: notExists}},
		{Update: &types.Update{TableName: aws.String(table), Key: keyOf("STOCK#A"),
			UpdateExpression:          aws.String("SET stock = stock - :n"),
			ConditionExpression:       aws.String("stock >= :n"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":n": n("2")}}},
		{Put: &types.Put{TableName: aws.String(table), Item: itemOf("IDEMPOTENCY#k1", "0"), ConditionExpression: notExists}},
	}})
	if err != nil {
		t.Fatalf("transaction whose conditions all hold: %v", err)
	}
	if get(t, db, table, "ORDER#1") == nil || get(t, db, table, "IDEMPOTENCY#k1") == nil {
		t.Fatal("the transaction's puts are missing")
	}
	if got := get(t, db, table, "STOCK#A")["stock"]; got != float64(3) {
		t.Fatalf("stock after the transaction = %v, want 3", got)
	}

	// The second item's condition fails (the key was claimed above): the transaction is
	// cancelled with one reason per item, the failed one carrying the current item, and
	// nothing of it is written, not even the items whose conditions held.
	_, err = db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(table), Item: itemOf("ORDER#2", "0"), ConditionExpression: notExists}},
		{Put: &types.Put{TableName: aws.String(table), Item: itemOf("IDEMPOTENCY#k1", "0"), ConditionExpression: notExists,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
		{Update: &types.Update{TableName: aws.String(table), Key: keyOf("STOCK#A"),
			UpdateExpression:          aws.String("SET stock = stock - :n"),
			ConditionExpression:       aws.String("stock >= :n"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":n": n("1")}}},
	}})
	var cancelled *types.TransactionCanceledException
	if !errors.As(err, &cancelled) {
		t.Fatalf("transaction with a failing condition: err = %v, want TransactionCanceledException", err)
	}
	reasons := cancelled.CancellationReasons
	if len(reasons) != 3 {
		t.Fatalf("cancellation reasons = %d, want one per item (3): %+v", len(reasons), reasons)
	}
	for i, want := range []string{"None", "ConditionalCheckFailed", "None"} {
		if got := aws.ToString(reasons[i].Code); got != want {
			t.Errorf("reason %d = %q, want %q", i, got, want)
		}
	}
	if pk, ok := reasons[1].Item["pk"].(*types.AttributeValueMemberS); !ok || pk.Value != "IDEMPOTENCY#k1" {
		t.Errorf("the failed item's reason carries %v, want the current item (ALL_OLD)", reasons[1].Item)
	}
	if get(t, db, table, "ORDER#2") != nil {
		t.Error("a cancelled transaction wrote ORDER#2")
	}
	if got := get(t, db, table, "STOCK#A")["stock"]; got != float64(3) {
		t.Errorf("stock after the cancelled transaction = %v, want 3 (unchanged)", got)
	}
}

func TestEngineFailedConditionReturnsTheCurrentItem(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, table := engine(t)
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemOf("STOCK#B", "1")}); err != nil {
		t.Fatal(err)
	}
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: keyOf("STOCK#B"),
		UpdateExpression:                    aws.String("SET stock = stock - :n"),
		ConditionExpression:                 aws.String("stock >= :n"),
		ExpressionAttributeValues:           map[string]types.AttributeValue{":n": n("4")},
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var failed *types.ConditionalCheckFailedException
	if !errors.As(err, &failed) {
		t.Fatalf("update with a failing condition: err = %v, want ConditionalCheckFailedException", err)
	}
	var current map[string]any
	if err := attributevalue.UnmarshalMap(failed.Item, &current); err != nil {
		t.Fatal(err)
	}
	if current["pk"] != "STOCK#B" || current["stock"] != float64(1) {
		t.Fatalf("the exception's item = %v, want the current item (stock 1)", current)
	}
	if got := get(t, db, table, "STOCK#B")["stock"]; got != float64(1) {
		t.Fatalf("stock after the failed update = %v, want 1 (unchanged)", got)
	}
}

func TestEngineTransactGetAndPartiQL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, table := engine(t)
	for _, pk := range []string{"STOCK#C", "STOCK#D"} {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemOf(pk, "7")}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String(table), Key: keyOf("STOCK#C")}},
		{Get: &types.Get{TableName: aws.String(table), Key: keyOf("STOCK#D")}},
	}})
	if err != nil {
		t.Fatalf("TransactGetItems: %v", err)
	}
	if len(got.Responses) != 2 || got.Responses[0].Item == nil || got.Responses[1].Item == nil {
		t.Fatalf("TransactGetItems answered %+v, want both items", got.Responses)
	}
	out, err := db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement:  aws.String(`SELECT stock FROM "` + table + `" WHERE pk = ? AND sk = ?`),
		Parameters: []types.AttributeValue{s("STOCK#D"), s("ITEM")},
	})
	if err != nil {
		t.Fatalf("ExecuteStatement (PartiQL): %v", err)
	}
	if len(out.Items) != 1 {
		t.Fatalf("PartiQL SELECT answered %d items, want 1", len(out.Items))
	}
	if v, ok := out.Items[0]["stock"].(*types.AttributeValueMemberN); !ok || v.Value != "7" {
		t.Fatalf("PartiQL SELECT answered %v, want stock 7", out.Items[0])
	}
}
