package schema

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestLoadEmbeddedSchema(t *testing.T) {
	t.Parallel()
	tbl, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	in := tbl.CreateTableInput("shop")
	if *in.TableName != "shop" || in.BillingMode != types.BillingModePayPerRequest {
		t.Fatalf("table name or billing mode wrong: %v %v", *in.TableName, in.BillingMode)
	}
	if len(in.GlobalSecondaryIndexes) != len(tbl.GlobalSecondaryIndexes) || len(in.GlobalSecondaryIndexes) == 0 {
		t.Fatalf("want every index of table.json, got %d", len(in.GlobalSecondaryIndexes))
	}
	// Every key attribute, and no other, is declared once.
	want := 2 + 2*len(tbl.GlobalSecondaryIndexes)
	if len(in.AttributeDefinitions) != want {
		t.Fatalf("attribute definitions: got %d want %d", len(in.AttributeDefinitions), want)
	}
}

func TestValidateRefusesBadShapes(t *testing.T) {
	t.Parallel()
	good := Table{PartitionKey: Key{"pk", "S"}, SortKey: &Key{"sk", "S"}}
	cases := map[string]Table{
		"empty key name": {PartitionKey: Key{"", "S"}},
		"bad key type":   {PartitionKey: Key{"pk", "X"}},
		"index without name": {PartitionKey: good.PartitionKey, GlobalSecondaryIndexes: []Index{
			{PartitionKey: Key{"a", "S"}, Projection: "ALL"}}},
		"duplicate index": {PartitionKey: good.PartitionKey, GlobalSecondaryIndexes: []Index{
			{IndexName: "g", PartitionKey: Key{"a", "S"}, Projection: "ALL"},
			{IndexName: "g", PartitionKey: Key{"b", "S"}, Projection: "ALL"}}},
		"bad projection": {PartitionKey: good.PartitionKey, GlobalSecondaryIndexes: []Index{
			{IndexName: "g", PartitionKey: Key{"a", "S"}, Projection: "SOME"}}},
	}
	for name, tbl := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if err := tbl.validate(); err == nil {
				t.Fatal("want an error")
			}
		})
	}
	if err := good.validate(); err != nil {
		t.Fatalf("good shape refused: %v", err)
	}
}
