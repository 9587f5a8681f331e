package store_test

import (
	"context"
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// ledgerOf reads a forward line's buckets straight from its item.
func ledgerOf(t *testing.T, db *dynamodb.Client, table string, k map[string]types.AttributeValue) (open, allocated, cancelled, ordered int) {
	t.Helper()
	out, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: k, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	num := func(name string) int {
		v, _ := out.Item[name].(*types.AttributeValueMemberN)
		if v == nil {
			t.Fatalf("ledger item has no %s: %v", name, out.Item)
		}
		x, _ := strconv.Atoi(v.Value)
		return x
	}
	return num("open"), num("allocated"), num("cancelled"), num("ordered")
}

// openOf reads a forward line's open units (0 when the read fails: the cancel is then
// not sent).
func openOf(ctx context.Context, db *dynamodb.Client, table string, k map[string]types.AttributeValue) int {
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: k, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return 0
	}
	v, _ := out.Item["open"].(*types.AttributeValueMemberN)
	if v == nil {
		return 0
	}
	x, _ := strconv.Atoi(v.Value)
	return x
}

// TestForwardLineReducesRacingAllocationsKeepTheLedger runs 20 writers at once on one
// forward line of 20 packs (docs/forward-orders.md "The buyers' book"): buyers' reduces
// of a pack, buyers' cancels of what they last saw open, and allocations of two packs
// (the receiving's update, written here as it writes it: ADD open -n, allocated n on
// condition open >= n). Whatever wins, open never goes below 0, open + allocated +
// cancelled = ordered, and each bucket holds exactly what the writes that succeeded put
// there.
func TestForwardLineReducesRacingAllocationsKeepTheLedger(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	db, err := store.NewClient(ctx, store.ConfigFromEnv(os.Getenv))
	if err != nil {
		t.Fatal(err)
	}
	table := st.TableName()
	placed := time.Now().UTC().Truncate(time.Millisecond)
	const pack, ordered = 6, 120
	l := forward.Line{SKU: "XM001-00001", OrderID: "TS-100001", UID: "buyer", Email: "b@shop.test", Name: "Robin cards", PlacedAt: placed,
		PackSize: pack, Ordered: ordered, Open: ordered, DeliveryFrom: "2099-09-01", OrderBy: "2099-06-30", UnitPrice: 150}
	k := map[string]types.AttributeValue{"pk": s("FWD#" + l.SKU), "sk": s(forward.LineSK(placed, l.OrderID))}
	item := map[string]types.AttributeValue{"pk": k["pk"], "sk": k["sk"], "sku": s(l.SKU), "orderId": s(l.OrderID), "uid": s(l.UID),
		"email": s(l.Email), "placedAt": n(strconv.FormatInt(placed.UnixMilli(), 10)), "packSize": n("6"), "ordered": n("120"), "open": n("120"),
		"allocated": n("0"), "cancelled": n("0"), "noBackorders": &types.AttributeValueMemberBOOL{Value: false},
		"deliveryFrom": s(l.DeliveryFrom), "orderBy": s(l.OrderBy), "unitPrice": n("150"), "name": s(l.Name)}
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
		t.Fatal(err)
	}
	allocate := func(units int) error {
		_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: k,
			UpdateExpression:          aws.String("ADD #o :neg, #a :n"),
			ConditionExpression:       aws.String("#o >= :n"),
			ExpressionAttributeNames:  map[string]string{"#o": "open", "#a": "allocated"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":neg": n(strconv.Itoa(-units)), ":n": n(strconv.Itoa(units))}})
		var failed *types.ConditionalCheckFailedException
		if errors.As(err, &failed) {
			return store.ErrLineChanged
		}
		return err
	}
	var mu sync.Mutex
	var wantAllocated, wantCancelled, refused int
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			var units int
			var err error
			switch i % 4 {
			case 0, 2: // a reduce by one pack
				units = pack
				_, err = st.ReduceForwardLine(ctx, l, units, "2099-06-01")
			case 1: // a cancel of what the buyer last saw open (maybe stale)
				units = openOf(ctx, db, table, k)
				if units > 0 {
					_, err = st.ReduceForwardLine(ctx, l, units, "2099-06-01")
				}
			case 3: // an allocation of two packs
				units = 2 * pack
				err = allocate(units)
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.Is(err, store.ErrLineChanged):
				refused++
			case err != nil:
				t.Error(err)
			case i%4 == 3:
				wantAllocated += units
			default:
				wantCancelled += units
			}
		})
	}
	wg.Wait()
	open, allocated, cancelled, total := ledgerOf(t, db, table, k)
	if open < 0 || open+allocated+cancelled != total || total != ordered {
		t.Fatalf("ledger open %d allocated %d cancelled %d ordered %d: the buckets no longer add up", open, allocated, cancelled, total)
	}
	if allocated != wantAllocated || cancelled != wantCancelled {
		t.Errorf("allocated %d cancelled %d, want %d and %d (what the successful writes moved; %d refused)", allocated, cancelled, wantAllocated, wantCancelled, refused)
	}
	// After the order-by date the condition refuses the reduce, whatever is open.
	if open > 0 {
		if _, err := st.ReduceForwardLine(ctx, l, open, "2099-07-01"); !errors.Is(err, store.ErrLineChanged) {
			t.Errorf("reduce after the order-by date: %v, want ErrLineChanged", err)
		}
	}
}
