package schema

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

//go:embed table.json
var tableJSON []byte

// Key is one key attribute: its name and DynamoDB scalar type (S, N or B).
type Key struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Index is one global secondary index.
type Index struct {
	IndexName    string `json:"indexName"`
	PartitionKey Key    `json:"partitionKey"`
	SortKey      *Key   `json:"sortKey,omitempty"`
	Projection   string `json:"projection"`
}

// Table is the whole table shape as table.json states it.
type Table struct {
	PartitionKey           Key     `json:"partitionKey"`
	SortKey                *Key    `json:"sortKey,omitempty"`
	TimeToLiveAttribute    string  `json:"timeToLiveAttribute,omitempty"`
	GlobalSecondaryIndexes []Index `json:"globalSecondaryIndexes"`
}

// Load parses the embedded table.json and checks it is usable.
func Load() (Table, error) {
	var t Table
	if err := json.Unmarshal(tableJSON, &t); err != nil {
		return Table{}, fmt.Errorf("parse table.json: %w", err)
	}
	if err := t.validate(); err != nil {
		return Table{}, fmt.Errorf("table.json: %w", err)
	}
	return t, nil
}

func (t Table) validate() error {
	keys := []Key{t.PartitionKey}
	if t.SortKey != nil {
		keys = append(keys, *t.SortKey)
	}
	seen := map[string]bool{}
	for _, ix := range t.GlobalSecondaryIndexes {
		if ix.IndexName == "" {
			return fmt.Errorf("an index has no indexName")
		}
		if seen[ix.IndexName] {
			return fmt.Errorf("index %s is declared twice", ix.IndexName)
		}
		seen[ix.IndexName] = true
		if ix.Projection != "ALL" && ix.Projection != "KEYS_ONLY" {
			return fmt.Errorf("index %s: projection %q is not ALL or KEYS_ONLY", ix.IndexName, ix.Projection)
		}
		keys = append(keys, ix.PartitionKey)
		if ix.SortKey != nil {
			keys = append(keys, *ix.SortKey)
		}
	}
	for _, k := range keys {
		if k.Name == "" {
			return fmt.Errorf("a key has no name")
		}
		switch k.Type {
		case "S", "N", "B":
		default:
			return fmt.Errorf("key %s: type %q is not S, N or B", k.Name, k.Type)
		}
	}
	return nil
}

// CreateTableInput is the on-demand CreateTable request for a table of this shape.
func (t Table) CreateTableInput(name string) *dynamodb.CreateTableInput {
	attrs := map[string]types.ScalarAttributeType{}
	addAttr := func(k Key) { attrs[k.Name] = types.ScalarAttributeType(k.Type) }

	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema:   keySchema(t.PartitionKey, t.SortKey),
	}
	addAttr(t.PartitionKey)
	if t.SortKey != nil {
		addAttr(*t.SortKey)
	}
	for _, ix := range t.GlobalSecondaryIndexes {
		addAttr(ix.PartitionKey)
		if ix.SortKey != nil {
			addAttr(*ix.SortKey)
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName:  aws.String(ix.IndexName),
			KeySchema:  keySchema(ix.PartitionKey, ix.SortKey),
			Projection: &types.Projection{ProjectionType: types.ProjectionType(ix.Projection)},
		})
	}
	for name, typ := range attrs {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(name), AttributeType: typ,
		})
	}
	return in
}

func keySchema(pk Key, sk *Key) []types.KeySchemaElement {
	out := []types.KeySchemaElement{{AttributeName: aws.String(pk.Name), KeyType: types.KeyTypeHash}}
	if sk != nil {
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(sk.Name), KeyType: types.KeyTypeRange})
	}
	return out
}
