package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go/middleware"

	"github.com/tradeshop/functions/internal/search"
	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// opRecorder notes the name of each DynamoDB operation the store makes.
type opRecorder struct {
	mu  sync.Mutex
	ops []string
}

func (o *opRecorder) middleware(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("recordOperation",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			o.mu.Lock()
			o.ops = append(o.ops, awsmiddleware.GetOperationName(ctx))
			o.mu.Unlock()
			return next.HandleInitialize(ctx, in)
		}), middleware.Before)
}

func (o *opRecorder) take() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	ops := o.ops
	o.ops = nil
	return ops
}

// TestEndpointsStayWithinTheirTableRights drives every endpoint of endpoints.json through
// a real call against DynamoDB Local and checks that each DynamoDB operation it makes is one
// its level's tableLevels entry lists, which is what the CDK app grants: in the cloud,
// anything else is an AccessDenied for a buyer.
func TestEndpointsStayWithinTheirTableRights(t *testing.T) {
	t.Parallel()
	base := testenv.Store(t) // a fresh table, deleted afterwards
	ctx := context.Background()
	rec := &opRecorder{}
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName, cfg.APIOptions = base.TableName(), []func(*middleware.Stack) error{rec.middleware}
	st, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cat := putSeedCatalogue(t, st, 60)
	if err := st.PutCoupons(ctx, seed.Coupons(time.Now())); err != nil {
		t.Fatal(err)
	}
	deps := testDeps(t, st, testenv.Verifier(t))
	deps.Search = search.NewProvider(catalogueIndex(st), searchMaxAge) // as DepsFromEnv builds it
	h := NewHandler(deps)
	c := newClient(t, h)
	u := testenv.NewNamedUser(t, "Access Test Ltd")
	var p = cat.Products[0]
	for _, q := range cat.Products {
		if q.Stock >= 100*q.PackSize && q.UnitPrice*int64(q.PackSize)*40 >= 20000 {
			p = q
			break
		}
	}
	tok := fmt.Sprintf("%q", u.IDToken)
	line := func(packs int) string {
		return fmt.Sprintf(`{"token":%s,"sku":%q,"quantity":%d}`, tok, p.SKU, packs*p.PackSize)
	}
	billing := `{"company":"Access Test Ltd","contact":"Pat Doe","payment_method":"proforma","address":{"line1":"1 High St","town":"Exampleton","postcode":"EX1 2AB"}}`
	get := func(path string) (int, string) {
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("Authorization", "Bearer "+u.IDToken)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	post := func(path, body string) (int, string) {
		code, out := c.post(path, body, nil)
		b, _ := json.Marshal(out)
		return code, string(b)
	}
	var orderID string

	// In journey order, so each call finds what it needs (a profile, a basket, an order).
	calls := []struct {
		endpoint string
		call     func() (int, string)
	}{
		{"csrf", func() (int, string) { return get("/api/csrf") }},
		{"session", func() (int, string) {
			code, out := c.post("/api/session", "", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+u.IDToken) })
			return code, fmt.Sprint(out)
		}},
		{"getProfile", func() (int, string) { return post("/api/getProfile", `{"token":`+tok+`}`) }},
		{"profile", func() (int, string) {
			return post("/api/profile", profileBody(u.IDToken, "Access Test Ltd", "01632 960 123", u.Email, 0))
		}},
		{"search", func() (int, string) { return get("/api/search?q=" + strings.Fields(p.Name)[0]) }},
		{"prices", func() (int, string) { return post("/api/prices", fmt.Sprintf(`{"token":%s,"skus":[%q]}`, tok, p.SKU)) }},
		{"basketAdd", func() (int, string) { return post("/api/basket/add", line(10)) }},
		{"basketAddMany", func() (int, string) {
			return post("/api/basket/addMany", fmt.Sprintf(`{"token":%s,"lines":[{"sku":%q,"quantity":%d}]}`, tok, p.SKU, 10*p.PackSize))
		}},
		{"basketSet", func() (int, string) { return post("/api/basket/set", line(40)) }},
		{"basketRemove", func() (int, string) {
			return post("/api/basket/remove", fmt.Sprintf(`{"token":%s,"sku":%q}`, tok, cat.Products[1].SKU))
		}},
		{"basket", func() (int, string) { return post("/api/basket", `{"token":`+tok+`}`) }},
		{"shoppingCartSmall", func() (int, string) { return post("/api/shoppingCartSmall", `{"token":`+tok+`}`) }},
		{"recommended", func() (int, string) { return post("/api/recommended", `{"token":`+tok+`}`) }},
		{"updateCoupon", func() (int, string) {
			return post("/api/updateCoupon", `{"token":`+tok+`,"active_coupon_id":"TRADE10"}`)
		}},
		{"getCoupon", func() (int, string) { return post("/api/getCoupon", `{"token":`+tok+`,"active_coupon_id":"TRADE10"}`) }},
		{"billing", func() (int, string) { return post("/api/billing", `{"token":`+tok+`,"billing":`+billing+`}`) }},
		{"checkout", func() (int, string) { return post("/api/checkout", `{"token":`+tok+`}`) }},
		{"orders", func() (int, string) {
			code, body := post("/api/orders", `{"token":`+tok+`,"idempotency_key":"access-test-key-0001","delivery_option":"standard","same_as_billing":true}`)
			var o struct{ ID string }
			_ = json.Unmarshal([]byte(body), &o)
			orderID = o.ID
			return code, body
		}},
		{"orders", func() (int, string) { return get("/api/orders") }},
		{"order", func() (int, string) { return get("/api/orders/" + orderID) }},
		{"reorder", func() (int, string) { return post("/api/orders/"+orderID+"/reorder", `{"token":`+tok+`}`) }},
	}

	file := readEndpointsFile(t)
	level := map[string]string{}
	for _, e := range file.Endpoints {
		level[e.Name] = e.Table
	}
	covered := map[string]bool{}
	rec.take()
	for _, cl := range calls {
		code, body := cl.call()
		ops := rec.take()
		if code < 200 || code > 299 {
			t.Fatalf("%s: %d %s", cl.endpoint, code, body)
		}
		allowed, ok := file.TableLevels[level[cl.endpoint]]
		if !ok {
			t.Fatalf("%s is not in endpoints.json", cl.endpoint)
		}
		for _, op := range ops {
			if !grants(allowed, op) {
				t.Errorf("%s (table %q) made a %s call, which the cloud does not grant it", cl.endpoint, level[cl.endpoint], op)
			}
		}
		covered[cl.endpoint] = true
	}
	for name := range level {
		if !covered[name] {
			t.Errorf("endpoint %s is not exercised by this test", name)
		}
	}
}

// transactionActions are the IAM actions a TransactWriteItems call is checked against:
// IAM has no action of its own for it, each item needs the action of its kind, and the
// order endpoints write all three kinds.
var transactionActions = []string{"PutItem", "UpdateItem", "DeleteItem"}

// grants says whether a table level's actions allow SDK operation op.
func grants(allowed []string, op string) bool {
	if op == "TransactWriteItems" {
		for _, a := range transactionActions {
			if !slices.Contains(allowed, a) {
				return false
			}
		}
		return true
	}
	return slices.Contains(allowed, op)
}
