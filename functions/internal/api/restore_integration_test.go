package api

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// A restored table serves the shop (docs/operations.md "Backups and restoring the table").
// DynamoDB Local has no restore, export or import (each answers UnknownOperationException),
// so this copies every item into a new table made from schema/table.json under another
// name, which is what a point-in-time restore gives: the same items, keys and indexes. The
// shop pointed at the copy, as a stage is by its tableName setting, finds the orders by the
// staff list's index, the buyer's order with its invoice, the product, and carries on both
// gap-free sequences: the next order placed gets the next order and invoice numbers. It
// shows the shop keeps no state outside the table; the restore itself is AWS's and is
// tried on staging.
func TestRestoredTableServesTheShop(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := testenv.Store(t)
	cat := putSeedCatalogue(t, src, 40)
	verifier := testenv.Verifier(t)
	product := cat.Products[0]
	for _, p := range cat.Products {
		if p.Stock >= 20*p.PackSize && p.UnitPrice*int64(p.PackSize)*10 >= 15000 {
			product = p
			break
		}
	}
	buyer := testenv.NewUser(t)
	place := func(st *store.Store, key string) string {
		t.Helper()
		if err := st.SaveBilling(ctx, buyer.UID, store.Billing{Company: "Shop Ltd", Contact: "Pat", PaymentMethod: "proforma",
			Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := st.SetLine(ctx, buyer.UID, product.SKU, 10*product.PackSize, time.Now()); err != nil {
			t.Fatal(err)
		}
		c := newClient(t, NewHandler(testDeps(t, st, verifier)))
		code, o := c.post("/api/orders", fmt.Sprintf(`{"token":%q,"idempotency_key":%q,"delivery_option":"standard","same_as_billing":true}`, buyer.IDToken, key), nil)
		if code != 200 && code != 201 {
			t.Fatalf("place an order on %s: %d %v", st.TableName(), code, o)
		}
		id, _ := o["id"].(string)
		return id
	}
	first := place(src, "restore-test-first-order")
	placed, err := src.Order(ctx, buyer.UID, first)
	if err != nil || placed.Invoice == nil {
		t.Fatalf("the order placed: %+v %v", placed, err)
	}

	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName = src.TableName() + "-restored"
	restored, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := restored.EnsureTable(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = restored.DeleteTable(context.Background()) })
	db, err := store.NewClient(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	copied := copyItems(t, db, src.TableName(), restored.TableName())

	// The shop pointed at the copy reads what was there.
	if o, err := restored.Order(ctx, buyer.UID, first); err != nil || o.Invoice == nil || o.Invoice.Number != placed.Invoice.Number {
		t.Fatalf("the buyer's order in the restored table (%d items copied): %+v %v", copied, o, err)
	}
	list, _, err := restored.StaffOrders(ctx, "", "", nil, 10)
	if err != nil || len(list) != 1 || list[0].ID != first {
		t.Fatalf("the staff order list (an index) of the restored table: %+v %v", list, err)
	}
	if p, err := restored.Product(ctx, product.SKU); err != nil || p.SKU != product.SKU {
		t.Fatalf("product %s in the restored table: %+v %v", product.SKU, p, err)
	}
	counter, err := restored.InvoiceCounter(ctx)
	if err != nil || counter != placed.Invoice.Number {
		t.Fatalf("the restored invoice counter: %d %v, want %d", counter, err, placed.Invoice.Number)
	}

	// And carries on from it: the next order and invoice numbers follow the restored ones.
	second := place(restored, "restore-test-second-order")
	next, err := restored.Order(ctx, buyer.UID, second)
	if err != nil || next.Invoice == nil {
		t.Fatalf("the order placed on the restored table: %+v %v", next, err)
	}
	if next.Invoice.Number != placed.Invoice.Number+1 || second == first {
		t.Errorf("after the restore: order %s invoice %d, want a new order and invoice %d", second, next.Invoice.Number, placed.Invoice.Number+1)
	}
	if _, err := src.Order(ctx, buyer.UID, second); err == nil {
		t.Errorf("order %s placed on the restored table is in the source table too", second)
	}
}

// copyItems writes every item of table from into table to (a Scan, then one Put each) and
// answers how many.
func copyItems(t *testing.T, db *dynamodb.Client, from, to string) int {
	t.Helper()
	ctx := context.Background()
	n := 0
	var start map[string]types.AttributeValue
	for {
		out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(from), ExclusiveStartKey: start, ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range out.Items {
			if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(to), Item: item}); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if len(out.LastEvaluatedKey) == 0 {
			return n
		}
		start = out.LastEvaluatedKey
	}
}
