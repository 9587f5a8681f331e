package api

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// TestGrantsAsIAMChecksThem pins how the access test reads a call, as IAM authorises it.
func TestGrantsAsIAMChecksThem(t *testing.T) {
	t.Parallel()
	grants := []Grant{
		{Actions: []string{"BatchGetItem"}, Keys: []string{"USER#*"}},
		{Actions: []string{"BatchGetItem", "UpdateItem"}, Keys: []string{"PRODUCT#*", "COUPON#*"}},
		{Actions: []string{"UpdateItem"}, Keys: []string{"COUNTER#ORDER"}},
		{Actions: []string{"Query"}, Index: "gsi2"},
	}
	k := func(pk string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"pk": s(pk), "sk": s("ITEM")}
	}
	batch := func(pks ...string) *dynamodb.BatchGetItemInput {
		var keys []map[string]types.AttributeValue
		for _, pk := range pks {
			keys = append(keys, k(pk))
		}
		return &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"t": {Keys: keys}}}
	}
	cases := []struct {
		name   string
		op     string
		params any
		want   bool
	}{
		{"a batch within one grant", "BatchGetItem", batch("PRODUCT#1", "COUPON#X"), true},
		{"a batch across two grants (one statement must hold every key)", "BatchGetItem", batch("USER#u", "PRODUCT#1"), false},
		{"an update of a granted prefix", "UpdateItem", &dynamodb.UpdateItemInput{Key: k("PRODUCT#1")}, true},
		{"an exact key only as written", "UpdateItem", &dynamodb.UpdateItemInput{Key: k("COUNTER#ORDERS")}, false},
		{"an action not granted", "DeleteItem", &dynamodb.DeleteItemInput{Key: k("PRODUCT#1")}, false},
		{"a table query where only the index is granted", "Query", &dynamodb.QueryInput{KeyConditionExpression: aws.String("#0 = :0"),
			ExpressionAttributeNames: map[string]string{"#0": "pk"}, ExpressionAttributeValues: map[string]types.AttributeValue{":0": s("TYPE#PRODUCT")}}, false},
		{"the granted index", "Query", &dynamodb.QueryInput{IndexName: aws.String("gsi2"), KeyConditionExpression: aws.String("#0 = :0"),
			ExpressionAttributeNames: map[string]string{"#0": "gsi2pk"}, ExpressionAttributeValues: map[string]types.AttributeValue{":0": s("TYPE#PRODUCT")}}, true},
		{"a scan", "Scan", &dynamodb.ScanInput{}, false},
	}
	for _, c := range cases {
		all := true
		for _, a := range accessesOf(c.op, c.params) {
			all = all && allows(grants, a)
		}
		if all != c.want {
			t.Errorf("%s: allowed %v, want %v", c.name, all, c.want)
		}
	}

	// A transaction is one access per item, each its own action: the order's stock
	// update is allowed, its counter put is not (only UpdateItem is granted there).
	tx := &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Update: &types.Update{Key: k("PRODUCT#1")}},
		{Put: &types.Put{Item: k("COUNTER#ORDER")}},
		{ConditionCheck: &types.ConditionCheck{Key: k("COUPON#X")}},
	}}
	got := accessesOf("TransactWriteItems", tx)
	if len(got) != 3 || got[0].action != "UpdateItem" || got[1].action != "PutItem" || got[2].action != "ConditionCheckItem" {
		t.Fatalf("transaction read as %v", got)
	}
	if !allows(grants, got[0]) || allows(grants, got[1]) || allows(grants, got[2]) {
		t.Errorf("transaction items: %v %v %v", allows(grants, got[0]), allows(grants, got[1]), allows(grants, got[2]))
	}
}
