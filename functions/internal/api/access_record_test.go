package api

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// access is one authorisation IAM makes for a DynamoDB call: an action on the table (or
// one of its indexes) with the partition keys it touches (dynamodb:LeadingKeys). A
// transaction is one access per item, each with its own action, as IAM checks it; a batch
// read is one access holding every key of the call.
type access struct {
	action string
	index  string
	keys   []string
}

func (a access) String() string {
	where := "table"
	if a.index != "" {
		where = "index " + a.index
	}
	return fmt.Sprintf("%s on %s %v", a.action, where, a.keys)
}

// opRecorder notes each DynamoDB call the store makes as the accesses IAM would check.
type opRecorder struct {
	mu       sync.Mutex
	accesses []access
}

func (o *opRecorder) middleware(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("recordOperation",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			got := accessesOf(awsmiddleware.GetOperationName(ctx), in.Parameters)
			o.mu.Lock()
			o.accesses = append(o.accesses, got...)
			o.mu.Unlock()
			return next.HandleInitialize(ctx, in)
		}), middleware.Before)
}

func (o *opRecorder) take() []access {
	o.mu.Lock()
	defer o.mu.Unlock()
	got := o.accesses
	o.accesses = nil
	return got
}

func pkOf(item map[string]types.AttributeValue) string {
	if v, ok := item["pk"].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return "?"
}

var keyEquality = regexp.MustCompile(`(#\w+)\s*=\s*(:\w+)`)

// queryPartition answers the partition key value a Query names: the equality on pk, or on
// the index's partition key (gsi1pk, gsi2pk).
func queryPartition(q *dynamodb.QueryInput) string {
	want := "pk"
	if q.IndexName != nil {
		want = *q.IndexName + "pk"
	}
	for _, m := range keyEquality.FindAllStringSubmatch(*q.KeyConditionExpression, -1) {
		if q.ExpressionAttributeNames[m[1]] == want {
			if v, ok := q.ExpressionAttributeValues[m[2]].(*types.AttributeValueMemberS); ok {
				return v.Value
			}
		}
	}
	return "?"
}

// accessesOf reads the accesses of one call from its input.
func accessesOf(op string, params any) []access {
	switch in := params.(type) {
	case *dynamodb.GetItemInput:
		return []access{{action: op, keys: []string{pkOf(in.Key)}}}
	case *dynamodb.PutItemInput:
		return []access{{action: op, keys: []string{pkOf(in.Item)}}}
	case *dynamodb.UpdateItemInput:
		return []access{{action: op, keys: []string{pkOf(in.Key)}}}
	case *dynamodb.DeleteItemInput:
		return []access{{action: op, keys: []string{pkOf(in.Key)}}}
	case *dynamodb.QueryInput:
		index := ""
		if in.IndexName != nil {
			index = *in.IndexName
		}
		return []access{{action: op, index: index, keys: []string{queryPartition(in)}}}
	case *dynamodb.BatchGetItemInput:
		a := access{action: op}
		for _, ka := range in.RequestItems {
			for _, k := range ka.Keys {
				a.keys = append(a.keys, pkOf(k))
			}
		}
		return []access{a}
	case *dynamodb.BatchWriteItemInput:
		a := access{action: op}
		for _, reqs := range in.RequestItems {
			for _, r := range reqs {
				switch {
				case r.PutRequest != nil:
					a.keys = append(a.keys, pkOf(r.PutRequest.Item))
				case r.DeleteRequest != nil:
					a.keys = append(a.keys, pkOf(r.DeleteRequest.Key))
				}
			}
		}
		return []access{a}
	case *dynamodb.TransactWriteItemsInput:
		// IAM has no TransactWriteItems action: each item is checked as its own kind.
		var out []access
		for _, it := range in.TransactItems {
			switch {
			case it.Put != nil:
				out = append(out, access{action: "PutItem", keys: []string{pkOf(it.Put.Item)}})
			case it.Update != nil:
				out = append(out, access{action: "UpdateItem", keys: []string{pkOf(it.Update.Key)}})
			case it.Delete != nil:
				out = append(out, access{action: "DeleteItem", keys: []string{pkOf(it.Delete.Key)}})
			case it.ConditionCheck != nil:
				out = append(out, access{action: "ConditionCheckItem", keys: []string{pkOf(it.ConditionCheck.Key)}})
			}
		}
		return out
	case *dynamodb.TransactGetItemsInput:
		var out []access
		for _, it := range in.TransactItems {
			out = append(out, access{action: "GetItem", keys: []string{pkOf(it.Get.Key)}})
		}
		return out
	}
	return []access{{action: op}} // Scan, table management: no grant allows them
}

// likeMatch is IAM's StringLike: * any run of characters, ? any one.
func likeMatch(pattern, s string) bool {
	if pattern == "" {
		return s == ""
	}
	switch pattern[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if likeMatch(pattern[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && likeMatch(pattern[1:], s[1:])
	}
	return s != "" && s[0] == pattern[0] && likeMatch(pattern[1:], s[1:])
}

// allows says whether one of grants allows a: a grant with its action on the same index,
// and for the table, every key it touches matching one of the grant's patterns
// (ForAllValues:StringLike on dynamodb:LeadingKeys, each statement on its own).
func allows(grants []Grant, a access) bool {
	for _, g := range grants {
		if !slices.Contains(g.Actions, a.action) || g.Index != a.index {
			continue
		}
		if g.Index != "" {
			return true
		}
		ok := len(a.keys) > 0
		for _, k := range a.keys {
			ok = ok && slices.ContainsFunc(g.Keys, func(p string) bool { return likeMatch(p, k) })
		}
		if ok {
			return true
		}
	}
	return false
}

// prefixOf is a key with its variable part cut (USER#abc to USER#), for messages.
func prefixOf(k string) string {
	if i := strings.IndexByte(k, '#'); i >= 0 {
		return k[:i+1] + "…"
	}
	return k
}
