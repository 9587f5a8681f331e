package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/smithy-go/middleware"
	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/alerts"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/cardpay"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/publish"
	"github.com/tradeshop/functions/internal/receiving"
	"github.com/tradeshop/functions/internal/search"
	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// TestEndpointsStayWithinTheirTableRights drives every endpoint of endpoints.json through
// a real call against DynamoDB Local and checks that each DynamoDB access it makes (each
// action, each transaction item as its own action, and the partition keys it touches) is
// one its "access" grants allow, which is exactly what the CDK app grants: in the cloud,
// anything else is an AccessDenied for a buyer. It also checks "csrfSecret": an endpoint
// without it must never use the secret, one with it must.
func TestEndpointsStayWithinTheirTableRights(t *testing.T) {
	t.Parallel()
	base := testenv.Store(t) // a fresh table, deleted afterwards
	ctx := context.Background()
	rec := &opRecorder{}
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName, cfg.APIOptions = base.TableName(), []func(*middleware.Stack) error{rec.middleware}
	// No price group cache: every request that prices for the buyer (in a group from
	// the prices call on) reads the groups, so each such endpoint's grant is checked.
	cfg.PriceGroupCache = -1
	st, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cat := putSeedCatalogue(t, st, 160) // enough in stock for a large order
	if err := st.PutCoupons(ctx, seed.Coupons(time.Now())); err != nil {
		t.Fatal(err)
	}
	deps := testDeps(t, st, testenv.Verifier(t))
	deps.Search = search.NewProvider(catalogueIndex(st), searchMaxAge) // as DepsFromEnv builds it
	pictures := &mediaRecorder{Store: media.NewDirStore(t.TempDir())}
	deps.Media = pictures
	deps.Publisher = CommandPublisher(&publish.Command{Args: []string{"true"}}) // as the local edge has one
	deps.ErrorReportLimit = DefaultErrorReportLimit                             // as DepsFromEnv sets it
	deps.Card, deps.CardOffered = testCard(t, st), true                         // card payment on, against stripe-mock
	withSecret := NewHandler(deps)
	// As DepsForEndpoint builds a function deployed without CSRF_SECRET: any use of the
	// secret panics.
	noSecretDeps := deps
	noSecretDeps.CSRF = csrf.Disabled()
	withoutSecret := NewHandler(noSecretDeps)
	current, panicked := withSecret, false
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				panicked = true
				w.WriteHeader(599)
			}
		}()
		current.ServeHTTP(w, r)
	})
	c := newClient(t, h)
	u := testenv.NewNamedUser(t, "Access Test Ltd")
	var p = cat.Products[0]
	for _, q := range cat.Products {
		if q.Stock >= 100*q.PackSize && q.UnitPrice*int64(q.PackSize)*40 >= 20000 {
			p = q
			break
		}
	}
	// soldOut is a product the alerts' calls sell out and staff restock (not p, which the
	// basket and the import use).
	soldOut := cat.Products[len(cat.Products)-1]
	if soldOut.SKU == p.SKU || soldOut.Stock < soldOut.PackSize {
		t.Fatalf("the last product %s cannot be the sold-out one", soldOut.SKU)
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
	var orderID, largeID, creditNote, forwardID, forwardSKU string
	var accountVersion int64
	var paymentID, refundSource string
	su := testenv.Staff(t, testenv.NewNamedUser(t, "Access Staff"))
	stok := fmt.Sprintf("%q", su.IDToken)
	staffGet := func(path string) func() (int, string) {
		return func() (int, string) {
			code, _, body := c.get(path, su.IDToken)
			return code, string(body)
		}
	}
	// latestOrder is uid's nth newest order (0 the newest).
	latestOrder := func(uid string, n int) string {
		t.Helper()
		list, err := st.Orders(ctx, uid)
		if err != nil || len(list) <= n {
			t.Fatalf("orders of %s: %d, %v", uid, len(list), err)
		}
		return list[n].ID
	}
	profileVersion := func(uid string) int64 {
		t.Helper()
		p, err := st.Profile(ctx, uid)
		if err != nil {
			t.Fatal(err)
		}
		return p.UpdatedAt.UnixMilli()
	}

	// inGroup puts the buyer in the seed's price group, as staff would.
	inGroup := func() {
		t.Helper()
		now := time.Now()
		audit := orders.AuditEntry{At: now, By: orders.Staff{UID: su.UID, Email: su.Email}, Action: "price group"}
		if err := st.CreatePriceGroup(ctx, store.PriceGroupWrite{ID: "independents", Name: "Independents", Audit: audit}); err != nil {
			t.Fatal(err)
		}
		rules := pricing.Rules{Discounts: map[string]int{fmt.Sprintf("category:%d", p.CategoryID): 10}}
		if err := st.ReplacePriceGroupRules(ctx, store.PriceGroupWrite{ID: "independents", Rules: rules, Seen: 1, Audit: audit}); err != nil {
			t.Fatal(err)
		}
		prof, err := st.Profile(ctx, u.UID)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.ChangeAccount(ctx, store.AccountChange{UID: u.UID, Seen: prof.UpdatedAt, PriceGroup: "independents", Audit: audit}); err != nil {
			t.Fatal(err)
		}
	}

	// Receiving (issue 38): the last product of the catalogue is made forward and another
	// buyer forward-orders it (beside the journey), so the deliveries have a line to share.
	fwdP := cat.Products[len(cat.Products)-1]
	var receiptID string
	forwardOrdered := func() {
		t.Helper()
		fwdP.Forward = &catalogue.Forward{DeliveryFrom: catalogue.LondonDate(time.Now().AddDate(0, 3, 0)), OrderBy: catalogue.LondonDate(time.Now().AddDate(0, 1, 0))}
		if err := st.PutCatalogue(ctx, nil, nil, []catalogue.Product{fwdP}, nil); err != nil {
			t.Fatal(err)
		}
		fu := testenv.NewNamedUser(t, "Access Forward Ltd")
		if err := st.SaveBilling(ctx, fu.UID, store.Billing{Company: "Access Forward Ltd", Contact: "Pat", PaymentMethod: "proforma",
			Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
			t.Fatal(err)
		}
		packs := int(20000/(fwdP.UnitPrice*int64(fwdP.PackSize))) + 4
		if err := st.SetLine(ctx, fu.UID, fwdP.SKU, packs*fwdP.PackSize, time.Now()); err != nil {
			t.Fatal(err)
		}
		if code, o := c.post("/api/orders", fmt.Sprintf(`{"token":%q,"idempotency_key":"access-forward-0001","delivery_option":"standard","same_as_billing":true}`, fu.IDToken), nil); code != 201 || o["kind"] != "forward" {
			t.Fatalf("forward order: %d %v", code, o)
		}
	}

	// In journey order, so each call finds what it needs (a profile, a basket, an order).
	// stalePending leaves uid's basket locked by a large order whose request died an hour
	// ago, one chunk reserved, as the orders endpoint or the sweeper then finds it.
	// uninvoiced places an order as a request that died before issuing its invoice
	// leaves it: the order and its to-invoice marker, an hour old.
	uninvoiced := func(uid, id string) {
		t.Helper()
		if err := st.AddLines(ctx, uid, []basket.Add{{SKU: p.SKU, Quantity: p.PackSize, Limit: 1000 * p.PackSize}}, time.Now()); err != nil {
			t.Fatal(err)
		}
		b, err := st.Basket(ctx, uid)
		if err != nil {
			t.Fatal(err)
		}
		o := orders.Order{ID: id, UID: uid, PlacedAt: time.Now().Add(-time.Hour), Lines: []orders.Line{{SKU: p.SKU, Quantity: p.PackSize,
			LineAmount: int64(p.PackSize) * p.UnitPrice, VATRate: 20}}, Status: orders.StatusPlaced}
		if err := st.PlaceInOne(ctx, orders.Placement{Order: o, Key: "crash-" + id, Token: "crash-" + id, BasketVersion: b.Version,
			StartedAt: o.PlacedAt}); err != nil {
			t.Fatal(err)
		}
	}
	stalePending := func(uid, id string, packs int) {
		t.Helper()
		q := cat.Products[0]
		for _, r := range cat.Products {
			if r.SKU != p.SKU && r.Stock >= 3*packs*r.PackSize && r.UnitPrice*int64(r.PackSize*packs) >= 15000 {
				q = r
				break
			}
		}
		if err := st.AddLines(ctx, uid, []basket.Add{{SKU: q.SKU, Quantity: packs * q.PackSize, Limit: 1000 * q.PackSize}}, time.Now()); err != nil {
			t.Fatal(err)
		}
		b, err := st.Basket(ctx, uid)
		if err != nil {
			t.Fatal(err)
		}
		line := orders.Line{SKU: q.SKU, Quantity: packs * q.PackSize}
		coupon, err := st.Coupon(ctx, "TRADE10") // its use is given back too
		if err != nil {
			t.Fatal(err)
		}
		pm := orders.Placement{Order: orders.Order{ID: id, UID: uid, Lines: []orders.Line{line}}, Key: "stale-" + id, Token: "stale-" + id,
			BasketVersion: b.Version, StartedAt: time.Now().Add(-time.Hour), Chunks: [][]orders.Line{{line}}, Coupon: &coupon}
		if err := st.StartLarge(ctx, pm); err != nil {
			t.Fatal(err)
		}
		if err := st.ReserveChunk(ctx, pm, 0); err != nil {
			t.Fatal(err)
		}
	}
	// largeBasket adds a line of one pack of each of enough products for a large order
	// (more lines than one transaction takes).
	largeBasket := func() {
		t.Helper()
		var adds []basket.Add
		for _, q := range cat.Products {
			if q.Stock >= 2*q.PackSize && q.SKU != p.SKU && len(adds) <= orders.MaxOneTransaction {
				adds = append(adds, basket.Add{SKU: q.SKU, Quantity: q.PackSize, Limit: 1000 * q.PackSize})
			}
		}
		if len(adds) <= orders.MaxOneTransaction {
			t.Fatalf("only %d products in stock for a large order", len(adds))
		}
		for i := 0; i < len(adds); i += 20 { // one UpdateItem's expression takes about 20 lines
			if err := st.AddLines(ctx, u.UID, adds[i:min(i+20, len(adds))], time.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	// manyLines is a JSON array of one pack of each of the first n products in stock.
	manyLines := func(n int) string {
		t.Helper()
		var lines []map[string]any
		for _, q := range cat.Products {
			if q.Stock >= 4*q.PackSize && len(lines) < n {
				lines = append(lines, map[string]any{"sku": q.SKU, "quantity": q.PackSize})
			}
		}
		if len(lines) < n {
			t.Fatalf("only %d products in stock for %d lines", len(lines), n)
		}
		b, _ := json.Marshal(lines)
		return string(b)
	}
	var listID string
	var picture map[string]any
	var job string
	// catalogueImport is the check (job "") or apply body of a new product with the
	// uploaded picture, a price change, and a range and a category renamed.
	catalogueImport := func(job string) string {
		t.Helper()
		changed := p
		changed.UnitPrice += 5
		added := p
		added.SKU, added.Name, added.LargeImg, added.Stock = "ACCESS-NEW-1", "Access Test Card", "access.png", 10
		var products, structure bytes.Buffer
		if err := catimport.WriteProducts(&products, []catalogue.Product{changed, added}); err != nil {
			t.Fatal(err)
		}
		ranges, cats := slices.Clone(cat.Ranges[:1]), slices.Clone(cat.Categories[:1])
		ranges[0].Name += " (renamed)"
		cats[0].Name += " (renamed)"
		if err := catimport.WriteStructure(&structure, ranges, cats); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(map[string]any{"token": su.IDToken, "products": map[string]string{"name": "access.csv", "text": products.String()},
			"categories": map[string]string{"name": "access-categories.csv", "text": structure.String()}, "images": picture, "job": job})
		if job == "" {
			b = bytes.Replace(b, []byte(`,"job":""`), nil, 1)
		}
		return string(b)
	}
	// cardEvent delivers Stripe's event evt of type typ, on PaymentIntent pi of the buyer's
	// order *id (its whole total; failure the decline's message), signed as Stripe signs.
	var cardOrder string
	cardEvent := func(evt string, typ stripe.EventType, pi string, id *string, failure string) func() (int, string) {
		return func() (int, string) {
			o, err := st.Order(ctx, u.UID, *id)
			if err != nil {
				t.Fatal(err)
			}
			obj := map[string]any{"id": pi, "object": "payment_intent", "amount": o.TotalIncVAT, "amount_received": o.TotalIncVAT, "currency": "gbp",
				"metadata": map[string]string{"order_id": o.ID, "uid": u.UID, "attempt": "1"}}
			if failure != "" {
				obj["last_payment_error"] = map[string]any{"message": failure}
			}
			body, _ := json.Marshal(map[string]any{"id": evt, "object": "event", "api_version": stripe.APIVersion, "created": time.Now().Unix(),
				"type": typ, "data": map[string]any{"object": obj}})
			sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: deps.Card.Config.WebhookSecret})
			r := httptest.NewRequest("POST", "/api/payments/stripe", bytes.NewReader(body))
			r.Header.Set("Stripe-Signature", sp.Header)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			return w.Code, w.Body.String()
		}
	}
	placeOrder := func(key string) func() (int, string) {
		return func() (int, string) {
			return post("/api/orders", `{"token":`+tok+`,"idempotency_key":"`+key+`","delivery_option":"standard","same_as_billing":true}`)
		}
	}

	calls := []struct {
		endpoint string
		call     func() (int, string)
		setup    func() // run first; its own calls are not the endpoint's
	}{
		{"csrf", func() (int, string) { return get("/api/csrf") }, nil},
		{"session", func() (int, string) {
			code, out := c.post("/api/session", "", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+u.IDToken) })
			return code, fmt.Sprint(out)
		}, nil},
		{"getProfile", func() (int, string) { return post("/api/getProfile", `{"token":`+tok+`}`) }, nil},
		{"profile", func() (int, string) {
			return post("/api/profile", profileBody(u.IDToken, "Access Test Ltd", "01632 960 123", u.Email, 0))
		}, nil},
		{"search", func() (int, string) { return get("/api/search?q=" + strings.Fields(p.Name)[0]) }, nil},
		{"prices", func() (int, string) { return post("/api/prices", fmt.Sprintf(`{"token":%s,"skus":[%q]}`, tok, p.SKU)) }, inGroup},
		{"listingStock", func() (int, string) {
			return post("/api/listing-stock", fmt.Sprintf(`{"token":%s,"category":%d}`, tok, p.CategoryID))
		}, nil},
		{"listingStock", func() (int, string) {
			return post("/api/listing-stock", fmt.Sprintf(`{"token":%s,"range":%q}`, tok, p.RangeURLText))
		}, nil},
		{"basketAdd", func() (int, string) { return post("/api/basket/add", line(10)) }, nil},
		{"basketAddMany", func() (int, string) {
			return post("/api/basket/addMany", fmt.Sprintf(`{"token":%s,"lines":[{"sku":%q,"quantity":%d}]}`, tok, p.SKU, 10*p.PackSize))
		}, nil},
		{"basketSet", func() (int, string) { return post("/api/basket/set", line(40)) }, nil},
		{"basketRemove", func() (int, string) {
			return post("/api/basket/remove", fmt.Sprintf(`{"token":%s,"sku":%q}`, tok, cat.Products[1].SKU))
		}, nil},
		{"basket", func() (int, string) { return post("/api/basket", `{"token":`+tok+`}`) }, nil},
		{"shoppingCartSmall", func() (int, string) { return post("/api/shoppingCartSmall", `{"token":`+tok+`}`) }, nil},
		{"recommended", func() (int, string) { return post("/api/recommended", `{"token":`+tok+`}`) }, nil},
		{"updateCoupon", func() (int, string) {
			return post("/api/updateCoupon", `{"token":`+tok+`,"active_coupon_id":"TRADE10"}`)
		}, nil},
		{"getCoupon", func() (int, string) { return post("/api/getCoupon", `{"token":`+tok+`,"active_coupon_id":"TRADE10"}`) }, nil},
		{"billing", func() (int, string) { return post("/api/billing", `{"token":`+tok+`,"billing":`+billing+`}`) }, nil},
		{"checkout", func() (int, string) { return post("/api/checkout", `{"token":`+tok+`}`) }, nil},
		{"orders", func() (int, string) {
			code, body := post("/api/orders", `{"token":`+tok+`,"idempotency_key":"access-test-key-0001","delivery_option":"standard","same_as_billing":true}`)
			var o struct{ ID string }
			_ = json.Unmarshal([]byte(body), &o)
			orderID = o.ID
			return code, body
		}, nil},
		{"orders", func() (int, string) { return get("/api/orders") }, nil},
		{"order", func() (int, string) { return get("/api/orders/" + orderID) }, nil},
		// Pay now: a Checkout Session (stripe-mock's), its attempt recorded on the order,
		// which then lists its card refunds (none).
		{"payOrder", func() (int, string) { return post("/api/orders/"+orderID+"/pay", `{"token":`+tok+`}`) }, nil},
		{"order", func() (int, string) { return get("/api/orders/" + orderID) }, nil},
		{"invoice", func() (int, string) { return get("/api/orders/" + orderID + "/invoice") }, nil},
		{"reorder", func() (int, string) { return post("/api/orders/"+orderID+"/reorder", `{"token":`+tok+`}`) }, nil},
		// A retry of a placed order: the key's order is answered.
		{"orders", placeOrder("access-test-key-0001"), nil},
		// A large order, reserved in steps under its pending record.
		{"orders", placeOrder("access-test-key-0002"), largeBasket},
		// A basket locked by a large order whose request died: undone, then placed.
		{"orders", placeOrder("access-test-key-0003"), func() { stalePending(u.UID, "TS-STALE-1", 20) }},
		// The back office, as a member of staff.
		{"adminMe", staffGet("/api/admin/me"), nil},
		{"adminOrders", staffGet("/api/admin/orders?status=placed&q=access"), nil},
		{"adminOrders", func() (int, string) { return staffGet("/api/admin/orders?q=" + orderID)() }, nil},
		{"adminOrder", func() (int, string) { return staffGet("/api/admin/orders/" + orderID)() }, nil},
		{"adminOrderAction", func() (int, string) {
			return post("/api/admin/orders/"+orderID+"/action", `{"token":`+stok+`,"action":"confirm","version":1}`)
		}, nil},
		// Mark paid: a payment recorded and allocated to the order's invoice.
		{"adminOrderAction", func() (int, string) {
			return post("/api/admin/orders/"+orderID+"/action", `{"token":`+stok+`,"action":"pay","version":2}`)
		}, nil},
		// A unit of the paid order credited before dispatch: its stock back, the note
		// with the counter, and the credit on account (the invoice owes nothing).
		{"adminOrderCredit", func() (int, string) {
			return post("/api/admin/orders/"+orderID+"/credit", `{"token":`+stok+`,"version":3,"lines":[{"line":0,"units":1}],"delivery":1,"reason":"Access test"}`)
		}, nil},
		// The large order, paid by card, cancelled: its stock given back in steps, its
		// credit refunded to the card (issue 36).
		{"adminOrderAction", func() (int, string) {
			return post("/api/admin/orders/"+largeID+"/action", `{"token":`+stok+`,"action":"cancel","version":2,"reason":"Access test"}`)
		}, func() {
			largeID = latestOrder(u.UID, 1)
			o, err := st.Order(ctx, u.UID, largeID)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.StartCardAttempt(ctx, u.UID, largeID, 0, "cs_test_access", time.Now()); err != nil {
				t.Fatal(err)
			}
			payByCard(t, st, o, "pi_test_access01")
		}},
		// The buyer downloads the cancelled order's credit note.
		{"creditNote", func() (int, string) { return get("/api/orders/" + largeID + "/creditNotes/" + creditNote) }, func() {
			if o, err := st.Order(ctx, u.UID, largeID); err == nil && len(o.CreditNotes) == 1 {
				creditNote = orders.CreditNoteNumber(o.CreditNotes[0].Number)
			}
		}},
		{"adminExport", staffGet("/api/admin/export?from=" + time.Now().In(london).Format(time.DateOnly) + "&to=" + time.Now().In(london).Format(time.DateOnly)), nil},
		{"adminAccounts", staffGet("/api/admin/accounts?q=access"), nil},
		{"adminAccount", staffGet("/api/admin/accounts/" + u.UID), nil},
		// Price groups (issue 37): one made, renamed, a file checked and applied, the list,
		// the export; the account is then put in the group.
		{"adminPriceGroupSave", func() (int, string) {
			return post("/api/admin/price-groups", `{"token":`+stok+`,"id":"access","name":"Access","version":0}`)
		}, nil},
		{"adminPriceGroupSave", func() (int, string) {
			return post("/api/admin/price-groups", `{"token":`+stok+`,"id":"access","name":"Access group","version":1}`)
		}, nil},
		{"adminPriceGroupImport", func() (int, string) {
			return post("/api/admin/price-groups/access/import", `{"token":`+stok+`,"csv":{"name":"access.csv","text":"applies_to,code,discount_percent\nproduct,`+p.SKU+`,5\n"},"apply":false,"version":2}`)
		}, nil},
		{"adminPriceGroupImport", func() (int, string) {
			return post("/api/admin/price-groups/access/import", `{"token":`+stok+`,"csv":{"name":"access.csv","text":"applies_to,code,discount_percent\nproduct,`+p.SKU+`,5\n"},"apply":true,"version":2}`)
		}, nil},
		{"adminPriceGroups", staffGet("/api/admin/price-groups"), nil},
		{"adminPriceGroupExport", staffGet("/api/admin/price-groups/access/export"), nil},
		// Receiving (issue 38): a delivery recorded, listed, read with its proposal, applied.
		{"adminReceiptRecord", func() (int, string) {
			code, body := post("/api/admin/receipts", fmt.Sprintf(`{"token":%s,"lines":[{"sku":%q,"units":%d}]}`, stok, fwdP.SKU, 2*fwdP.PackSize))
			var out struct{ ID string }
			_ = json.Unmarshal([]byte(body), &out)
			if out.ID != "" {
				receiptID = out.ID
			}
			return code, body
		}, forwardOrdered},
		{"adminReceipts", staffGet("/api/admin/receipts"), nil},
		{"adminReceipt", func() (int, string) { return staffGet("/api/admin/receipts/" + receiptID)() }, nil},
		{"adminReceiptApply", func() (int, string) {
			return post("/api/admin/receipts/"+receiptID+"/apply", `{"token":`+stok+`,"allocations":[]}`)
		}, nil},
		{"adminAccountUpdate", func() (int, string) {
			return post("/api/admin/accounts/"+u.UID, fmt.Sprintf(`{"token":%s,"version":%d,"approved_for_credit":true,"credit_limit":100000,"price_group":"independents","dsc":"{\"range:wholesale-christmas\":10}"}`, stok, accountVersion))
		}, func() { accountVersion = profileVersion(u.UID) }},
		// Payments: one recorded unallocated, then allocated oldest first; the ledger.
		{"adminPaymentRecord", func() (int, string) {
			code, body := post("/api/admin/accounts/"+u.UID+"/payments", `{"token":`+stok+`,"method":"bank_transfer","date":"`+
				time.Now().In(london).Format(time.DateOnly)+`","amount":1000,"reference":"ACCESS 1","allocate":"none"}`)
			var out struct{ Payment struct{ ID string } }
			_ = json.Unmarshal([]byte(body), &out)
			paymentID = out.Payment.ID
			return code, body
		}, nil},
		{"adminPaymentAllocate", func() (int, string) {
			return post("/api/admin/accounts/"+u.UID+"/payments/"+paymentID+"/allocate", `{"token":`+stok+`}`)
		}, nil},
		// A refund of part of a payment nothing was allocated from.
		{"adminPaymentRecord", func() (int, string) {
			code, body := post("/api/admin/accounts/"+u.UID+"/payments", `{"token":`+stok+`,"method":"cheque","date":"`+
				time.Now().In(london).Format(time.DateOnly)+`","amount":500,"reference":"ACCESS 2","allocate":"none"}`)
			var out struct{ Payment struct{ ID string } }
			_ = json.Unmarshal([]byte(body), &out)
			refundSource = out.Payment.ID
			return code, body
		}, nil},
		{"adminRefund", func() (int, string) {
			return post("/api/admin/accounts/"+u.UID+"/refunds", `{"token":`+stok+`,"source":"`+refundSource+`","method":"bank_transfer","date":"`+
				time.Now().In(london).Format(time.DateOnly)+`","amount":200,"reference":"ACCESS BACK"}`)
		}, nil},
		{"adminLedger", func() (int, string) { return staffGet("/api/admin/accounts/" + u.UID + "/ledger")() }, nil},
		// Card payments (issue 36): Stripe's events for the buyer's newest order (unpaid,
		// pro-forma): a decline, then the payment allocated to its invoice; a payment
		// for the cancelled large order, flagged and refunded to the card.
		{"stripeWebhook", cardEvent("evt_access_1", stripe.EventTypePaymentIntentPaymentFailed, "pi_access_1", &cardOrder, "Your card was declined."),
			func() { cardOrder = latestOrder(u.UID, 0) }},
		{"stripeWebhook", cardEvent("evt_access_2", stripe.EventTypePaymentIntentSucceeded, "pi_access_2", &cardOrder, ""), nil},
		{"stripeWebhook", cardEvent("evt_access_3", stripe.EventTypePaymentIntentSucceeded, "pi_access_3", &largeID, ""), nil},
		// Statements (issue 35, item 4): the buyer's own, and every account's for staff.
		{"statement", func() (int, string) { return get("/api/account/statement") }, nil},
		{"statementPdf", func() (int, string) { return get("/api/account/statement.pdf") }, nil},
		{"adminBalances", staffGet("/api/admin/balances"), nil},
		{"adminAgedDebt", staffGet("/api/admin/balances/aged.csv"), nil},
		// Credit hold (issue 35, item 5): read, then lifted with a reason.
		{"adminCreditHold", staffGet("/api/admin/accounts/" + u.UID + "/credit-hold"), nil},
		{"adminCreditHoldLift", func() (int, string) {
			return post("/api/admin/accounts/"+u.UID+"/credit-hold/lift", `{"token":`+stok+`,"reason":"Access test"}`)
		}, nil},
		{"adminCoupons", staffGet("/api/admin/coupons"), nil},
		{"adminCouponSave", func() (int, string) {
			return post("/api/admin/coupons", `{"token":`+stok+`,"coupon":{"id":"ACCESS1","description":"Access test","kind":"percent","percent":5,"version":0}}`)
		}, nil},
		{"adminCouponSave", func() (int, string) {
			return post("/api/admin/coupons/ACCESS1", `{"token":`+stok+`,"coupon":{"id":"ACCESS1","description":"Access test, expired","kind":"percent","percent":5,"valid_to":`+fmt.Sprint(time.Now().UnixMilli())+`,"version":1}}`)
		}, nil},
		{"adminProduct", staffGet("/api/admin/products/" + p.SKU), nil},
		{"adminPublish", staffGet("/api/admin/catalogue/publish"), nil}, // publishing itself reads no table
		{"adminStock", func() (int, string) {
			return post("/api/admin/products/"+p.SKU+"/stock", `{"token":`+stok+`,"mode":"adjust","quantity":12,"reason":"Delivery from the printer"}`)
		}, nil},
		// Forward products (issue 38): marked, listed, its demand as JSON and CSV, then the
		// marking ended so the buyer's calls after these see an ordinary product.
		{"adminForward", func() (int, string) {
			return post("/api/admin/products/"+p.SKU+"/forward", `{"token":`+stok+`,"delivery_from":"2099-09-01","order_by":"2099-06-30","expected":600}`)
		}, nil},
		{"adminForwardList", staffGet("/api/admin/forward"), nil},
		// A forward line of the buyer's (as a placement writes it), so the demand names its account.
		{"adminForwardDemand", staffGet("/api/admin/forward/demand?sku=" + p.SKU), func() { putForwardLineForTest(t, st, p.SKU, u.UID) }},
		{"adminForwardDemand", staffGet("/api/admin/forward/demand.csv?range=" + p.RangeURLText), nil},
		{"adminForward", func() (int, string) {
			return post("/api/admin/products/"+p.SKU+"/forward", `{"token":`+stok+`,"clear":true}`)
		}, nil},
		// Back-in-stock alerts (issue 38): a buyer asks on a product sold out, lists, removes
		// and asks again; staff setting its stock back emails them (the product's alerts read,
		// the pair deleted with the email put, in adminStock's grants).
		{"alerts", func() (int, string) {
			return post("/api/alerts", fmt.Sprintf(`{"token":%s,"sku":%q}`, tok, soldOut.SKU))
		}, func() {
			gone := soldOut
			gone.Stock = 0
			if err := st.PutCatalogue(ctx, nil, nil, []catalogue.Product{gone}, nil); err != nil {
				t.Fatal(err)
			}
		}},
		{"alerts", func() (int, string) { return get("/api/alerts") }, nil},
		{"alertRemove", func() (int, string) {
			return post("/api/alerts/remove", fmt.Sprintf(`{"token":%s,"sku":%q}`, tok, soldOut.SKU))
		}, nil},
		{"alerts", func() (int, string) {
			return post("/api/alerts", fmt.Sprintf(`{"token":%s,"sku":%q}`, tok, soldOut.SKU))
		}, nil},
		{"adminStock", func() (int, string) {
			return post("/api/admin/products/"+soldOut.SKU+"/stock", fmt.Sprintf(`{"token":%s,"mode":"set","quantity":%d,"expected":0,"reason":"Reprinted"}`, stok, soldOut.Stock))
		}, nil},
		// The catalogue import as the back-office page makes it: a picture, the check, the
		// apply (a new product with the picture, a price change, a range and a category
		// renamed), the export.
		{"adminCatalogueImages", func() (int, string) {
			code, out := c.upload("access.png", su.IDToken, testPNG(t, 200, color.RGBA{10, 120, 40, 255}))
			picture = map[string]any{"access.png": map[string]any{"small": out["small"], "large": out["large"]}}
			b, _ := json.Marshal(out)
			return code, string(b)
		}, nil},
		{"adminCatalogueCheck", func() (int, string) {
			code, out := c.post("/api/admin/catalogue/check", catalogueImport(""), nil)
			if plan, ok := out["plan"].(map[string]any); ok {
				job, _ = plan["job"].(string)
			}
			b, _ := json.Marshal(out)
			return code, string(b)
		}, nil},
		{"adminCatalogueApply", func() (int, string) { return post("/api/admin/catalogue/apply", catalogueImport(job)) }, nil},
		{"adminCatalogueExport", staffGet("/api/admin/catalogue/export?file=products"), nil},
		{"adminCatalogueExport", staffGet("/api/admin/catalogue/export?file=categories"), nil},
		// A page's app error reports (counted against the client's limit), then the Health
		// page that lists them with the outbox, the pending orders, the orders to invoice
		// and the import above.
		{"errors", func() (int, string) {
			return post("/api/errors", `{"build":"access","agent":"desktop","reports":[{"kind":"api","name":"ApiError","message":"The basket answered 500.","path":"/basket/","status":500,"count":1}]}`)
		}, nil},
		{"adminHealth", staffGet("/api/admin/health"), nil},
		// Quick order and saved lists: a look-up and an add of more lines than one
		// UpdateItem holds (the basket's conditional put), a list saved from that basket,
		// read, changed, added back to the basket, deleted.
		{"skus", func() (int, string) { return post("/api/skus", `{"token":`+tok+`,"lines":`+manyLines(120)+`}`) }, nil},
		{"basketAddMany", func() (int, string) {
			return post("/api/basket/addMany", `{"token":`+tok+`,"lines":`+manyLines(90)+`}`)
		}, nil},
		{"lists", func() (int, string) {
			code, body := post("/api/lists", `{"token":`+tok+`,"name":"Access list","from_basket":true}`)
			var out struct{ List struct{ ID string } }
			_ = json.Unmarshal([]byte(body), &out)
			listID = out.List.ID
			return code, body
		}, nil},
		{"lists", func() (int, string) { return get("/api/lists") }, nil},
		{"list", func() (int, string) { return get("/api/lists/" + listID) }, nil},
		{"list", func() (int, string) {
			return post("/api/lists/"+listID, fmt.Sprintf(`{"token":%s,"name":"Access list, renamed","set":[{"sku":%q,"quantity":0}]}`, tok, p.SKU))
		}, nil},
		{"listBasket", func() (int, string) { return post("/api/lists/"+listID+"/basket", `{"token":`+tok+`}`) }, nil},
		{"list", func() (int, string) {
			code, _, body := c.bearer("DELETE", "/api/lists/"+listID, u.IDToken, nil, "")
			return code, string(body)
		}, nil},
		// The buyers' book (issue 38): a forward order placed (the setup), listed with its
		// lines' ledger items, and its line cancelled.
		{"forwardOrders", func() (int, string) { return get("/api/forward-orders") }, func() {
			fp := cat.Products[2]
			fp.Stock, fp.Forward = 0, &catalogue.Forward{DeliveryFrom: "2099-09-01", OrderBy: "2099-06-30"}
			if err := st.PutCatalogue(ctx, nil, nil, []catalogue.Product{fp}, nil); err != nil {
				t.Fatal(err)
			}
			b, err := st.Basket(ctx, u.UID)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range b.Lines {
				if err := st.RemoveLine(ctx, u.UID, l.SKU, time.Now()); err != nil {
					t.Fatal(err)
				}
			}
			// Enough packs for the minimum order (forward lines count towards it).
			packs := 1 + 12000/(int(fp.UnitPrice)*fp.PackSize)
			if err := st.SetLine(ctx, u.UID, fp.SKU, packs*fp.PackSize, time.Now()); err != nil {
				t.Fatal(err)
			}
			code, body := placeOrder("access-test-key-0004")()
			var o struct{ ID, Kind string }
			_ = json.Unmarshal([]byte(body), &o)
			if code != 201 || o.Kind != "forward" {
				t.Fatalf("forward order: %d %s", code, body)
			}
			forwardID, forwardSKU = o.ID, fp.SKU
		}},
		{"forwardOrderLine", func() (int, string) {
			return post("/api/forward-orders/"+forwardID+"/lines", fmt.Sprintf(`{"token":%s,"sku":%q,"packs":0}`, tok, forwardSKU))
		}, nil},
		// In stock now of an empty range and an empty category (last, so no other call sees
		// them): each reads its own item to tell it from none (GetItem).
		{"listingStock", func() (int, string) { return post("/api/listing-stock", `{"token":`+tok+`,"range":"access_empty"}`) }, func() {
			if err := st.PutCatalogue(ctx, []catalogue.Range{{URLText: "access_empty", Name: "Access Empty", Order: 99}},
				[]catalogue.Category{{ID: 999999, Slug: "access-empty", Name: "Access Empty", RangeURLText: "access_empty_too", Order: 999}}, nil, nil); err != nil {
				t.Fatal(err)
			}
		}},
		{"listingStock", func() (int, string) { return post("/api/listing-stock", `{"token":`+tok+`,"category":999999}`) }, nil},
	}

	file := readEndpointsFile(t)
	spec := map[string]DeployedFunction{}
	for _, e := range file.Endpoints {
		spec[e.Name] = e
	}
	covered, usesSecret := map[string]bool{}, map[string]bool{}
	rec.take()
	for _, cl := range calls {
		if cl.setup != nil {
			cl.setup()
			rec.take()
		}
		e, ok := spec[cl.endpoint]
		if !ok {
			t.Fatalf("%s is not in endpoints.json", cl.endpoint)
		}
		if e.CSRFSecret {
			// Does this call use the secret? Served as if the function had none, it
			// panics where it would check or issue a token (before doing anything else).
			current, panicked = withoutSecret, false
			cl.call()
			usesSecret[cl.endpoint] = usesSecret[cl.endpoint] || panicked
			current = withSecret
		} else {
			current = withoutSecret
		}
		panicked = false
		code, body := cl.call()
		current = withSecret
		if panicked {
			t.Errorf("%s used the CSRF secret, which endpoints.json does not give it (csrfSecret false)", cl.endpoint)
			continue
		}
		if code < 200 || code > 299 {
			t.Fatalf("%s: %d %s", cl.endpoint, code, body)
		}
		checkAccesses(t, cl.endpoint, e.Access, rec.take())
		covered[cl.endpoint] = true
	}
	// Staff's restock emailed the buyer's alert, through the grants of adminStock.
	if left, err := st.AlertsOf(ctx, u.UID); err != nil || len(left) != 0 {
		t.Fatalf("the restock left the alert: %+v %v", left, err)
	}
	// The card-paid order's cancellation refunded its credit to the card, through the
	// grants of adminOrderAction.
	if refunds, err := st.Refunds(ctx, u.UID); err != nil || !slices.ContainsFunc(refunds, func(r payments.Refund) bool {
		return r.PaymentIntent == "pi_test_access01" && r.Status == payments.RefundSucceeded
	}) {
		t.Fatalf("no refund to the card of the cancelled order: %+v %v", refunds, err)
	}
	// The scheduled sweep, as sweepOrders runs it, of another buyer's dead large order
	// and of an order whose request died before it issued the invoice.
	u2 := testenv.NewNamedUser(t, "Access Sweep Ltd")
	stalePending(u2.UID, "TS-STALE-2", 1)
	u3 := testenv.NewNamedUser(t, "Access Invoice Ltd")
	uninvoiced(u3.UID, "TS-CRASH-1")
	// A cancellation whose request died after its first step.
	crashed, err := st.Order(ctx, u3.UID, "TS-CRASH-1")
	if err != nil {
		t.Fatal(err)
	}
	// Staff cannot cancel an order before its invoice (its credit note credits it); this
	// one is made cancelling without it all the same, so that one run of the sweep issues
	// the invoice, then finishes the cancellation with its credit note, and both writes
	// are held to sweepOrders' grants. Apply is shown an invoice to let it through.
	shown := crashed
	shown.Invoice = &orders.Invoice{}
	cancelling, err := orders.Apply(shown, orders.Action{Name: orders.ActionCancel, Version: crashed.Version}, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.ApplyChange(ctx, orders.Change{Before: crashed, After: cancelling, Audit: orders.AuditEntry{At: cancelling.CancelledAt, Action: "cancel"}}); err != nil {
		t.Fatal(err)
	}
	// A refund to a card recorded an hour ago whose request died before Stripe answered:
	// the sweep asks Stripe for it (issue 36).
	hourAgo := time.Now().Add(-time.Hour)
	credit := payments.Payment{ID: "CN-009999", UID: u3.UID, Method: payments.MethodCreditNote, Date: payments.Day(hourAgo).Format(time.DateOnly),
		Amount: 500, Reference: "CN-009999", RecordedAt: hourAgo, OrderID: "TS-CRASH-1"}
	if err := st.WriteAllocation(ctx, payments.Write{Payment: credit, New: true, Audit: orders.AuditEntry{At: hourAgo, Action: "credit note"}}); err != nil {
		t.Fatal(err)
	}
	unanswered := payments.Refund{ID: cardpay.CardRefundID(credit.ID, "pi_access_sweep", 500), UID: u3.UID, Source: credit.ID, Method: payments.MethodCard,
		Date: credit.Date, Amount: 500, Reference: "pi_access_sweep", RecordedAt: hourAgo, PaymentIntent: "pi_access_sweep",
		Status: payments.RefundPending, OrderID: "TS-CRASH-1"}
	if err := st.WriteCardRefund(ctx, payments.RefundWrite{Refund: unanswered, Source: credit, Audit: orders.AuditEntry{At: hourAgo, Action: "refund to card"}}); err != nil {
		t.Fatal(err)
	}
	// A back-in-stock alert a notify missed (its product has stock): the sweep sends it.
	if _, err := st.PutAlert(ctx, alerts.Alert{SKU: p.SKU, UID: u3.UID, Email: "sweep@example.com", CreatedAt: time.Now()}, alerts.MaxPerBuyer); err != nil {
		t.Fatal(err)
	}
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	// A delivery whose apply died after storing its plan: the sweep finishes it (issue 38).
	// The catalogue import since wrote the product as its file has it: forward again.
	if err := st.PutCatalogue(ctx, nil, nil, []catalogue.Product{fwdP}, nil); err != nil {
		t.Fatal(err)
	}
	staffer := orders.Staff{UID: su.UID, Email: su.Email}
	stuck, err := receiving.Service{Store: st, Shop: shop, Now: time.Now}.Record(ctx, []receiving.LineRequest{{SKU: fwdP.SKU, Units: fwdP.PackSize}}, staffer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (receiving.Service{Store: diesAfterPlan{st}, Shop: shop, Now: time.Now}).Apply(ctx, stuck.ID, nil, staffer); !errors.Is(err, errDied) {
		t.Fatalf("the apply that dies: %v", err)
	}
	rec.take()
	later := receiving.Service{Store: st, Shop: shop, Now: func() time.Time { return time.Now().Add(time.Hour) }, Notify: mail.Notices{Shop: shop}, Placed: mail.Notices{Shop: shop}}
	if n, err := later.Sweep(ctx, receiving.SweepAfter); err != nil || n != 1 {
		t.Fatalf("deliveries swept: %d, %v", n, err)
	}
	if asked, err := deps.Card.Sweep(ctx); err != nil || asked != 1 {
		t.Fatalf("card refunds swept: %d, %v", asked, err)
	}
	if r, err := orders.Recover(ctx, st, shop, nil, time.Now(), orders.DefaultStaleAfter, orders.InvoiceAfter); err != nil || r.Undone != 1 || r.Invoiced != 1 || r.Cancelled != 1 {
		t.Fatalf("sweep: %+v, %v", r, err)
	}
	if sent, err := AlertsOf(deps).Sweep(ctx); err != nil || sent != 1 {
		t.Fatalf("alerts swept: %d, %v", sent, err)
	}
	// Each run ends with the order backlogs' gauges (cmd/sweepOrders).
	if err := st.RecordOrderBacklogs(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	checkAccesses(t, "sweepOrders", jobOf(t, file, "sweepOrders").Access, rec.take())
	// The picture upload publishes only under the media bucket's media/products/, which is
	// all its grant allows.
	for _, key := range pictures.keys {
		if !strings.HasPrefix(key, "products/") || strings.Contains(key, "..") {
			t.Errorf("adminCatalogueImages touched media/%s, outside its grant (media/products/*)", key)
		}
	}
	if len(pictures.keys) == 0 {
		t.Error("adminCatalogueImages published nothing")
	}

	for name, e := range spec {
		if !covered[name] {
			t.Errorf("endpoint %s is not exercised by this test", name)
		}
		if e.CSRFSecret && covered[name] && !usesSecret[name] {
			t.Errorf("endpoint %s neither checks nor issues CSRF tokens, but endpoints.json gives it the secret", name)
		}
	}
}

// mediaRecorder notes the keys a media store is asked for.
type mediaRecorder struct {
	media.Store
	mu   sync.Mutex
	keys []string
}

func (m *mediaRecorder) note(key string) {
	m.mu.Lock()
	m.keys = append(m.keys, key)
	m.mu.Unlock()
}

func (m *mediaRecorder) Exists(ctx context.Context, key string) (bool, error) {
	m.note(key)
	return m.Store.Exists(ctx, key)
}

func (m *mediaRecorder) Put(ctx context.Context, key string, data []byte, contentType string) error {
	m.note(key)
	return m.Store.Put(ctx, key, data, contentType)
}

// checkAccesses fails the test for each access no grant of the function allows: in the
// cloud each of them would be an AccessDenied for a buyer.
func checkAccesses(t *testing.T, name string, grants []Grant, got []access) {
	t.Helper()
	seen := map[string]bool{}
	for _, a := range got {
		if allows(grants, a) {
			continue
		}
		shown := a
		shown.keys = nil
		for _, k := range a.keys {
			shown.keys = append(shown.keys, prefixOf(k))
		}
		if msg := shown.String(); !seen[msg] {
			seen[msg] = true
			t.Errorf("%s made %s, which its endpoints.json grants do not allow", name, msg)
		}
	}
}

// diesAfterPlan is a store under an apply whose request dies after the plan is stored:
// no forward order's step is written.
type diesAfterPlan struct{ *store.Store }

var errDied = errors.New("the request died")

func (diesAfterPlan) AllocateOrder(context.Context, receiving.Step) error { return errDied }
