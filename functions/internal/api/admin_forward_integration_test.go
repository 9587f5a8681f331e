package api

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// putForwardLineForTest writes a forward line of 6 units of sku for uid into st's ledger
// as a placement writes it (docs/forward-orders.md "The ledger"), with a client of its
// own: the store writes one only with its forward order.
func putForwardLineForTest(t *testing.T, st *store.Store, sku, uid string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.NewClient(ctx, store.ConfigFromEnv(os.Getenv))
	if err != nil {
		t.Fatal(err)
	}
	placed := time.Now()
	item, err := attributevalue.MarshalMap(map[string]any{"pk": "FWD#" + sku, "sk": forward.LineSK(placed, "FW-TEST-1"), "sku": sku,
		"orderId": "FW-TEST-1", "uid": uid, "email": "buyer@example.com", "name": "Test line", "placedAt": placed.UnixMilli(), "packSize": 6,
		"ordered": 6, "open": 6, "allocated": 0, "cancelled": 0, "deliveryFrom": "2099-09-01", "orderBy": "2099-06-30", "unitPrice": 100})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(st.TableName()), Item: item}); err != nil {
		t.Fatal(err)
	}
}

// TestStaffMarkAProductForward: staff mark a product forward, the field problems of a bad
// marking come back by field, a buyer is refused, the product answers its marking (and
// the buyers' prices theirs), the trail has both changes, ending it clears it, and the
// demand of the product and its range answers as JSON and CSV.
func TestStaffMarkAProductForward(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	cat := putSeedCatalogue(t, st, 20)
	p := cat.Products[0]
	c := newClient(t, NewHandler(testDeps(t, st, testenv.Verifier(t))))
	staff := testenv.Staff(t, testenv.NewNamedUser(t, "Forward Staff"))
	buyer := testenv.NewUser(t)
	mark := func(u testenv.User, body string) (int, map[string]any) {
		return c.post("/api/admin/products/"+p.SKU+"/forward", fmt.Sprintf(`{"token":%q,%s}`, u.IDToken, body), nil)
	}

	for _, tc := range []struct {
		name, body string
		fields     []string
	}{
		{"not dates", `"delivery_from":"01/09/2099","order_by":"","expected":0`, []string{"delivery_from", "order_by"}},
		{"order by after delivery", `"delivery_from":"2099-09-01","order_by":"2099-09-02","expected":0`, []string{"order_by"}},
		{"negative units", `"delivery_from":"2099-09-01","order_by":"2099-06-30","expected":-5`, []string{"expected"}},
	} {
		code, out := mark(staff, tc.body)
		problems, _ := out["problems"].(map[string]any)
		if code != 400 || len(problems) != len(tc.fields) {
			t.Fatalf("%s: %d %v", tc.name, code, out)
		}
		for _, f := range tc.fields {
			if _, ok := problems[f]; !ok {
				t.Errorf("%s: no problem for %s in %v", tc.name, f, problems)
			}
		}
	}
	if code, out := mark(buyer, `"delivery_from":"2099-09-01","order_by":"2099-06-30","expected":600`); code != 403 {
		t.Fatalf("a buyer marked a product: %d %v", code, out)
	}
	if code, out := c.post("/api/admin/products/NO-SUCH-1/forward", fmt.Sprintf(`{"token":%q,"clear":true}`, staff.IDToken), nil); code != 404 {
		t.Fatalf("an unknown product: %d %v", code, out)
	}

	code, out := mark(staff, `"delivery_from":"2099-09-01","order_by":"2099-06-30","expected":600`)
	if code != 200 {
		t.Fatalf("mark: %d %v", code, out)
	}
	code, out, _ = c.get("/api/admin/products/"+p.SKU, staff.IDToken)
	fw, _ := out["product"].(map[string]any)["forward"].(map[string]any)
	if code != 200 || fw["delivery_from"] != "2099-09-01" || fw["order_by"] != "2099-06-30" || fw["expected"] != float64(600) {
		t.Fatalf("product after marking: %d %v", code, out)
	}
	got, err := st.Product(ctx, p.SKU)
	if err != nil || got.Forward == nil || *got.Forward != (catalogue.Forward{DeliveryFrom: "2099-09-01", OrderBy: "2099-06-30", Expected: 600}) {
		t.Fatalf("stored marking %+v %v", got.Forward, err)
	}
	code, prices := c.post("/api/prices", fmt.Sprintf(`{"token":%q,"skus":[%q]}`, buyer.IDToken, p.SKU), nil)
	own, _ := prices["prices"].(map[string]any)[p.SKU].(map[string]any)
	if bf, _ := own["forward"].(map[string]any); code != 200 || bf["order_by"] != "2099-06-30" || bf["expected"] != nil {
		t.Fatalf("buyer's prices carry the marking without the expected units: %d %v", code, prices)
	}

	putForwardLineForTest(t, st, p.SKU, buyer.UID)
	code, out, _ = c.get("/api/admin/forward/demand?sku="+strings.ToLower(p.SKU), staff.IDToken)
	products, _ := out["products"].([]any)
	if code != 200 || len(products) != 1 || products[0].(map[string]any)["sku"] != p.SKU {
		t.Fatalf("demand: %d %v", code, out)
	}
	accounts, _ := products[0].(map[string]any)["accounts"].([]any)
	if len(accounts) != 1 || accounts[0].(map[string]any)["uid"] != buyer.UID || fmt.Sprint(accounts[0].(map[string]any)["packs"]) != "map[allocated:0 backordered:0 cancelled:0 open:1 ordered:1]" {
		t.Fatalf("demand by account: %v", accounts)
	}
	code, _, body := c.get("/api/admin/forward/demand.csv?range="+p.RangeURLText, staff.IDToken)
	if code != 200 || !strings.HasPrefix(string(body), "range,sku,name,") || !strings.Contains(string(body), p.SKU+",") {
		t.Fatalf("demand CSV: %d\n%s", code, body)
	}
	if code, out, _ := c.get("/api/admin/forward/demand", staff.IDToken); code != 400 {
		t.Fatalf("demand of nothing: %d %v", code, out)
	}
	if code, out, _ := c.get("/api/admin/forward/demand?sku="+p.SKU, buyer.IDToken); code != 403 {
		t.Fatalf("a buyer read the demand: %d %v", code, out)
	}
	code, out, _ = c.get("/api/admin/forward", staff.IDToken)
	if ranges, _ := out["ranges"].([]any); code != 200 || len(ranges) != 1 {
		t.Fatalf("forward list: %d %v", code, out)
	}

	code, out = mark(staff, `"clear":true`)
	if pr, _ := out["product"].(map[string]any); code != 200 || pr["forward"] != nil {
		t.Fatalf("end: %d %v", code, out)
	}
	audit, _ := out["audit"].([]any)
	if len(audit) != 2 || !strings.Contains(fmt.Sprint(audit[0]), "forward: ended") || !strings.Contains(fmt.Sprint(audit[1]), "forward: marked") {
		t.Fatalf("trail: %v", audit)
	}
}
