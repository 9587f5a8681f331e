package apicalls

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"slices"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/testenv"
)

// BasketLines is the journey's basket: one line in each of 20 categories.
const BasketLines = 20

// step is one counted request of the journey; setup runs first, not counted.
type step struct {
	endpoint, route, what string
	setup                 func() error
	request               func() answer
	after                 func(answer) error // reads what later steps need from the answer
}

// Endpoints makes one realistic request to every route of the API, in the order a
// buyer's and then a member of staff's visit makes them, and answers the calls of each.
func (b *Bench) Endpoints() ([]Row, error) {
	u, err := b.newBuyer("Round Trip Cards Ltd")
	if err != nil {
		return nil, err
	}
	first, err := testenv.SignUp("First Visit Cards")
	if err != nil {
		return nil, err
	}
	staff, err := testenv.SignUp("Bench Staff")
	if err == nil {
		staff, err = testenv.GrantStaff(staff)
	}
	if err != nil {
		return nil, err
	}
	tok, stok := u.IDToken, staff.IDToken
	with := func(fields map[string]any) map[string]any {
		out := map[string]any{"token": tok}
		for k, v := range fields {
			out[k] = v
		}
		return out
	}
	staffWith := func(fields map[string]any) map[string]any {
		out := map[string]any{"token": stok}
		for k, v := range fields {
			out[k] = v
		}
		return out
	}
	ps := b.products[:BasketLines]
	skus := make([]string, len(ps))
	for i, p := range ps {
		skus[i] = p.SKU
	}
	onePack := func(p catalogue.Product) map[string]any {
		return with(map[string]any{"sku": p.SKU, "quantity": p.PackSize})
	}
	extra := b.products[BasketLines] // a 21st product, added and removed again
	other := b.others[0]             // in no basket: the back office's product
	var alertSKU string              // the product a back-in-stock alert is asked for
	fwd := b.others[1]               // in no basket: made a forward product for receiving
	var receiptID string
	var orderID, listID, job, creditNote, paymentID string
	var fwdBuyer buyer
	var fwdID, fwdSKU string
	var picture map[string]any
	today := time.Now().In(london).Format(time.DateOnly)
	billing := map[string]any{"company": "Round Trip Cards Ltd", "contact": "Pat Bench", "payment_method": "proforma",
		"address": map[string]any{"line1": "1 High St", "town": "Exampleton", "postcode": "EX1 2AB"}}
	// catalogueFile is the import the back office's Catalogue page sends: a price change,
	// a new product with the uploaded picture, a range and a category renamed.
	catalogueFile := func(job string) (map[string]any, error) {
		changed := other
		changed.UnitPrice += 5
		added := other
		added.SKU, added.Name, added.Slug, added.LargeImg, added.SmallImg, added.Stock = "BENCH-NEW-1", "Bench Calls Card", "", "bench.png", "", 10
		var products, structure bytes.Buffer
		if err := catimport.WriteProducts(&products, []catalogue.Product{changed, added}); err != nil {
			return nil, err
		}
		ranges, cats := slices.Clone(seed.Ranges[:1]), slices.Clone(seed.Categories()[:1])
		ranges[0].Name += " (renamed)"
		cats[0].Name += " (renamed)"
		if err := catimport.WriteStructure(&structure, ranges, cats); err != nil {
			return nil, err
		}
		body := staffWith(map[string]any{"products": map[string]string{"name": "bench.csv", "text": products.String()},
			"categories": map[string]string{"name": "bench-categories.csv", "text": structure.String()}, "images": picture})
		if job != "" {
			body["job"] = job
		}
		return body, nil
	}
	ids := func(into *string, field string) func(answer) error {
		return func(a answer) error {
			var v map[string]any
			if err := a.json(&v); err != nil {
				return err
			}
			if list, ok := v["list"].(map[string]any); ok {
				v = list
			}
			s, ok := v[field].(string)
			if !ok || s == "" {
				return fmt.Errorf("no %s in %s", field, a.body)
			}
			*into = s
			return nil
		}
	}

	steps := []step{
		{endpoint: "csrf", route: "GET /api/csrf", what: "a page's CSRF token", request: func() answer { return b.get("/api/csrf", "") }},
		{endpoint: "session", route: "POST /api/session", what: "sign-in's session cookie", request: func() answer { return b.serve("POST", "/api/session", tok, nil, "") }},
		{endpoint: "session", route: "DELETE /api/session", what: "sign-out", request: func() answer { return b.serve("DELETE", "/api/session", "", nil, "") }},
		{endpoint: "getProfile", route: "POST /api/getProfile", what: "first sign-in: creates the profile",
			request: func() answer { return b.post("/api/getProfile", map[string]any{"token": first.IDToken}) }},
		{endpoint: "getProfile", route: "POST /api/getProfile", what: "a returning buyer's profile", request: func() answer { return b.post("/api/getProfile", u.tok) }},
		{endpoint: "profile", route: "POST /api/profile", what: "Update Your Details", request: func() answer {
			return b.post("/api/profile", map[string]any{"payLoad": map[string]any{"business": "Round Trip Cards Ltd", "telephone": "01632 960 123",
				"email": u.Email, "optInMarketing": 0, "token": tok}})
		}},
		{endpoint: "billing", route: "POST /api/billing", what: "the checkout's billing step", request: func() answer {
			return b.post("/api/billing", with(map[string]any{"billing": billing}))
		}},
		{endpoint: "search", route: "GET /api/search", what: "a cold function: builds the index (1,000 products)", request: func() answer { return b.get("/api/search?q=birthday", "") }},
		{endpoint: "search", route: "GET /api/search", what: "a warm function", request: func() answer { return b.get("/api/search?q=christmas+cards", "") }},
		{endpoint: "prices", route: "POST /api/prices", what: "a grid's 20 own prices", request: func() answer { return b.post("/api/prices", with(map[string]any{"skus": skus})) },
			setup: func() error { return b.fillBasket(u, BasketLines) }},
		{endpoint: "listingStock", route: "POST /api/listing-stock", what: "In stock now on a category page", request: func() answer {
			return b.post("/api/listing-stock", with(map[string]any{"category": ps[0].CategoryID}))
		}},
		{endpoint: "listingStock", route: "POST /api/listing-stock", what: "In stock now on a range page", request: func() answer {
			return b.post("/api/listing-stock", with(map[string]any{"range": ps[0].RangeURLText}))
		}},
		{endpoint: "basket", route: "POST /api/basket", what: "the basket page: 20 lines, a coupon", request: func() answer { return b.post("/api/basket", u.tok) }},
		{endpoint: "shoppingCartSmall", route: "POST /api/shoppingCartSmall", what: "the header's basket: 20 lines, a coupon", request: func() answer { return b.post("/api/shoppingCartSmall", u.tok) }},
		{endpoint: "checkout", route: "POST /api/checkout", what: "the checkout's first step: 20 lines", request: func() answer { return b.post("/api/checkout", u.tok) }},
		{endpoint: "basketAdd", route: "POST /api/basket/add", what: "a pack more of a line of the 20", request: func() answer { return b.post("/api/basket/add", onePack(ps[3])) }},
		{endpoint: "basketAdd", route: "POST /api/basket/add", what: "a new 21st line", request: func() answer { return b.post("/api/basket/add", onePack(extra)) }},
		{endpoint: "basketSet", route: "POST /api/basket/set", what: "the basket page sets a line of 21 to 3 packs", request: func() answer {
			return b.post("/api/basket/set", with(map[string]any{"sku": ps[5].SKU, "quantity": 3 * ps[5].PackSize}))
		}},
		{endpoint: "basketRemove", route: "POST /api/basket/remove", what: "the basket page removes the 21st line", request: func() answer {
			return b.post("/api/basket/remove", with(map[string]any{"sku": extra.SKU}))
		}},
		{endpoint: "basketAddMany", route: "POST /api/basket/addMany", what: "a grid's Add all: a pack more of each of the 20 lines", request: func() answer {
			lines := make([]map[string]any, len(ps))
			for i, p := range ps {
				lines[i] = map[string]any{"sku": p.SKU, "quantity": p.PackSize}
			}
			return b.post("/api/basket/addMany", with(map[string]any{"lines": lines}))
		}},
		{endpoint: "recommended", route: "POST /api/recommended", what: "20 lines in 20 categories", request: func() answer { return b.post("/api/recommended", u.tok) }},
		{endpoint: "updateCoupon", route: "POST /api/updateCoupon", what: "applies TRADE10", request: func() answer {
			return b.post("/api/updateCoupon", with(map[string]any{"active_coupon_id": "TRADE10"}))
		}},
		{endpoint: "getCoupon", route: "POST /api/getCoupon", what: "TRADE10's terms", request: func() answer {
			return b.post("/api/getCoupon", with(map[string]any{"active_coupon_id": "TRADE10"}))
		}},
		{endpoint: "skus", route: "POST /api/skus", what: "a quick order's check of 20 lines", request: func() answer {
			return b.post("/api/skus", with(map[string]any{"lines": b.lines(BasketLines)}))
		}},
		{endpoint: "lists", route: "POST /api/lists", what: "saves the 20-line basket as a list", request: func() answer {
			return b.post("/api/lists", with(map[string]any{"name": "Bench list", "from_basket": true}))
		}, after: ids(&listID, "id")},
		{endpoint: "lists", route: "GET /api/lists", what: "the buyer's lists", request: func() answer { return b.get("/api/lists", tok) }},
		{endpoint: "list", route: "GET /api/lists/{id}", what: "a 20-line list, checked", request: func() answer { return b.get("/api/lists/"+listID, tok) }},
		{endpoint: "list", route: "POST /api/lists/{id}", what: "renames it and sets a line", request: func() answer {
			return b.post("/api/lists/"+listID, with(map[string]any{"name": "Bench list, renamed", "set": []map[string]any{{"sku": ps[0].SKU, "quantity": 2 * ps[0].PackSize}}}))
		}},
		{endpoint: "listBasket", route: "POST /api/lists/{id}/basket", what: "adds the 20-line list to the basket", request: func() answer {
			return b.post("/api/lists/"+listID+"/basket", u.tok)
		}},
		{endpoint: "orders", route: "POST /api/orders", what: "places the 20-line order, with the coupon", request: func() answer {
			return b.post("/api/orders", with(map[string]any{"idempotency_key": "bench-calls-order-0001", "delivery_option": "standard", "same_as_billing": true}))
		}, after: ids(&orderID, "id")},
		{endpoint: "orders", route: "GET /api/orders", what: "the first page of order history", request: func() answer { return b.get("/api/orders", tok) }},
		{endpoint: "order", route: "GET /api/orders/{id}", what: "one order", request: func() answer { return b.get("/api/orders/"+orderID, tok) }},
		// Pay now (issue 36): a Checkout Session (stripe-mock's), its attempt recorded.
		{endpoint: "payOrder", route: "POST /api/orders/{id}/pay", what: "Pay now: a Checkout Session for what the invoice owes", request: func() answer {
			return b.post("/api/orders/"+orderID+"/pay", u.tok)
		}},
		{endpoint: "invoice", route: "GET /api/orders/{id}/invoice", what: "its VAT invoice (PDF)", request: func() answer { return b.get("/api/orders/"+orderID+"/invoice", tok) }},
		{endpoint: "reorder", route: "POST /api/orders/{id}/reorder", what: "Order again: the 20 lines into the emptied basket", request: func() answer {
			return b.post("/api/orders/"+orderID+"/reorder", u.tok)
		}},
		// The buyers' book (issue 38): a second buyer's forward order of one line (placed in
		// the setup), listed with its ledger line, and the line cancelled.
		{endpoint: "forwardOrders", route: "GET /api/forward-orders", what: "one forward order of one line", setup: func() error {
			var err error
			fwdBuyer, fwdID, fwdSKU, err = b.forwardOrder()
			return err
		}, request: func() answer { return b.get("/api/forward-orders", fwdBuyer.IDToken) }},
		{endpoint: "forwardOrderLine", route: "POST /api/forward-orders/{id}/lines", what: "cancels its line", request: func() answer {
			return b.post("/api/forward-orders/"+fwdID+"/lines", map[string]any{"token": fwdBuyer.IDToken, "sku": fwdSKU, "packs": 0})
		}},
		// Back-in-stock alerts (issue 38): one on a product the setup puts out of stock.
		{endpoint: "alerts", route: "POST /api/alerts", what: "asks for an email when an out-of-stock product is back", setup: func() error {
			p := b.others[len(b.others)-2]
			p.Stock = 0
			alertSKU = p.SKU
			return b.st.PutCatalogue(b.ctx, nil, nil, []catalogue.Product{p}, nil)
		}, request: func() answer { return b.post("/api/alerts", with(map[string]any{"sku": alertSKU})) }},
		{endpoint: "alerts", route: "GET /api/alerts", what: "the buyer's alerts", request: func() answer { return b.get("/api/alerts", tok) }},
		{endpoint: "alertRemove", route: "POST /api/alerts/remove", what: "removes the alert", request: func() answer {
			return b.post("/api/alerts/remove", with(map[string]any{"sku": alertSKU}))
		}},
		{endpoint: "list", route: "DELETE /api/lists/{id}", what: "deletes the list", request: func() answer { return b.serve("DELETE", "/api/lists/"+listID, tok, nil, "") }},

		// The back office, as a member of staff.
		{endpoint: "adminMe", route: "GET /api/admin/me", what: "who is signed in", request: func() answer { return b.get("/api/admin/me", stok) }},
		{endpoint: "adminOrders", route: "GET /api/admin/orders", what: "placed orders", request: func() answer { return b.get("/api/admin/orders?status=placed", stok) }},
		{endpoint: "adminOrder", route: "GET /api/admin/orders/{id}", what: "one order with its audit", request: func() answer { return b.get("/api/admin/orders/"+orderID, stok) }},
		{endpoint: "adminOrderAction", route: "POST /api/admin/orders/{id}/action", what: "confirms it", request: func() answer {
			return b.post("/api/admin/orders/"+orderID+"/action", staffWith(map[string]any{"action": "confirm", "version": 1}))
		}},
		{endpoint: "adminOrderCredit", route: "POST /api/admin/orders/{id}/credit", what: "takes a unit of a line off it, with its VAT credit note", request: func() answer {
			return b.post("/api/admin/orders/"+orderID+"/credit", staffWith(map[string]any{"version": 2,
				"lines": []map[string]any{{"line": 0, "units": 1}}, "reason": "Round trips"}))
		}},
		{endpoint: "adminPaymentRecord", route: "POST /api/admin/accounts/{uid}/payments", what: "a bank transfer, not allocated yet", request: func() answer {
			return b.post("/api/admin/accounts/"+u.UID+"/payments", staffWith(map[string]any{"method": "bank_transfer", "date": today,
				"amount": 5000, "reference": "BACS ROUND TRIP", "allocate": "none"}))
		}, after: func(a answer) error {
			var out struct{ Payment struct{ ID string } }
			if err := a.json(&out); err != nil {
				return err
			}
			paymentID = out.Payment.ID
			return nil
		}},
		{endpoint: "adminRefund", route: "POST /api/admin/accounts/{uid}/refunds", what: "refunds £1 of it", request: func() answer {
			return b.post("/api/admin/accounts/"+u.UID+"/refunds", staffWith(map[string]any{"source": paymentID, "method": "bank_transfer",
				"date": today, "amount": 100, "reference": "BACS BACK"}))
		}},
		{endpoint: "adminPaymentAllocate", route: "POST /api/admin/accounts/{uid}/payments/{id}/allocate", what: "allocates it oldest first", request: func() answer {
			return b.post("/api/admin/accounts/"+u.UID+"/payments/"+paymentID+"/allocate", staffWith(map[string]any{}))
		}},
		{endpoint: "adminLedger", route: "GET /api/admin/accounts/{uid}/ledger", what: "the account's ledger", request: func() answer {
			return b.get("/api/admin/accounts/"+u.UID+"/ledger", stok)
		}},
		{endpoint: "statement", route: "GET /api/account/statement", what: "the buyer's statement", request: func() answer {
			return b.get("/api/account/statement", tok)
		}},
		{endpoint: "statementPdf", route: "GET /api/account/statement.pdf", what: "the buyer's statement (PDF)", request: func() answer {
			return b.get("/api/account/statement.pdf", tok)
		}},
		{endpoint: "adminBalances", route: "GET /api/admin/balances", what: "every account's balance", request: func() answer {
			return b.get("/api/admin/balances", stok)
		}},
		{endpoint: "adminAgedDebt", route: "GET /api/admin/balances/aged.csv", what: "the aged debt report (CSV)", request: func() answer {
			return b.get("/api/admin/balances/aged.csv", stok)
		}},
		// Credit hold (issue 35, item 5).
		{endpoint: "adminCreditHold", route: "GET /api/admin/accounts/{uid}/credit-hold", what: "whether the account is on credit hold", request: func() answer {
			return b.get("/api/admin/accounts/"+u.UID+"/credit-hold", stok)
		}},
		{endpoint: "adminCreditHoldLift", route: "POST /api/admin/accounts/{uid}/credit-hold/lift", what: "lifts the hold with a reason", request: func() answer {
			return b.post("/api/admin/accounts/"+u.UID+"/credit-hold/lift", staffWith(map[string]any{"reason": "Round trips"}))
		}},
		{endpoint: "adminOrderAction", route: "POST /api/admin/orders/{id}/action", what: "cancels it, with its VAT credit note", request: func() answer {
			return b.post("/api/admin/orders/"+orderID+"/action", staffWith(map[string]any{"action": "cancel", "version": 3, "reason": "Round trips"}))
		}, after: func(a answer) error {
			var out struct {
				Order struct {
					CreditNotes []struct{ Number string } `json:"credit_notes"`
				}
			}
			if err := a.json(&out); err != nil || len(out.Order.CreditNotes) != 2 {
				return fmt.Errorf("no credit note in the cancellation's answer: %s", a.body)
			}
			creditNote = out.Order.CreditNotes[1].Number
			return nil
		}},
		{endpoint: "creditNote", route: "GET /api/orders/{id}/creditNotes/{number}", what: "its VAT credit note (PDF)", request: func() answer {
			return b.get("/api/orders/"+orderID+"/creditNotes/"+creditNote, tok)
		}},
		{endpoint: "adminExport", route: "GET /api/admin/export", what: "today's orders as CSV", request: func() answer {
			return b.get("/api/admin/export?from="+today+"&to="+today, stok)
		}},
		{endpoint: "adminAccounts", route: "GET /api/admin/accounts", what: "accounts matching \"round\"", request: func() answer { return b.get("/api/admin/accounts?q=round", stok) }},
		{endpoint: "adminAccount", route: "GET /api/admin/accounts/{uid}", what: "one account with its audit", request: func() answer { return b.get("/api/admin/accounts/"+u.UID, stok) }},
		{endpoint: "adminAccountUpdate", route: "POST /api/admin/accounts/{uid}", what: "approves credit", request: func() answer {
			p, err := b.st.Profile(b.ctx, u.UID)
			if err != nil {
				return answer{code: 599, body: []byte(err.Error())}
			}
			return b.post("/api/admin/accounts/"+u.UID, staffWith(map[string]any{"version": p.UpdatedAt.UnixMilli(), "approved_for_credit": true,
				"credit_limit": 100000, "price_group": benchGroup, "dsc": `{"range:wholesale-christmas":10}`}))
		}},
		{endpoint: "adminCoupons", route: "GET /api/admin/coupons", what: "every coupon", request: func() answer { return b.get("/api/admin/coupons", stok) }},
		{endpoint: "adminCouponSave", route: "POST /api/admin/coupons", what: "a new coupon", request: func() answer {
			return b.post("/api/admin/coupons", staffWith(map[string]any{"coupon": map[string]any{"id": "BENCH1", "description": "Bench", "kind": "percent", "percent": 5, "version": 0}}))
		}},
		{endpoint: "adminCouponSave", route: "POST /api/admin/coupons/{id}", what: "changes it", request: func() answer {
			return b.post("/api/admin/coupons/BENCH1", staffWith(map[string]any{"coupon": map[string]any{"id": "BENCH1", "description": "Bench, 6%", "kind": "percent", "percent": 6, "version": 1}}))
		}},
		{endpoint: "adminPriceGroups", route: "GET /api/admin/price-groups", what: "every price group", request: func() answer {
			return b.get("/api/admin/price-groups", stok)
		}},
		{endpoint: "adminPriceGroupSave", route: "POST /api/admin/price-groups", what: "a new price group", request: func() answer {
			return b.post("/api/admin/price-groups", staffWith(map[string]any{"id": "bench-new", "name": "Bench New"}))
		}},
		{endpoint: "adminPriceGroupImport", route: "POST /api/admin/price-groups/{id}/import", what: "a two-row file, applied", request: func() answer {
			csv := fmt.Sprintf("applies_to,code,price,discount_percent,breaks\nproduct,%s,,10,\ncategory,%d,,5,\n", other.SKU, other.CategoryID)
			return b.post("/api/admin/price-groups/bench-new/import", staffWith(map[string]any{"csv": map[string]any{"name": "bench-new.csv", "text": csv},
				"apply": true, "version": 1}))
		}, after: func(answer) error {
			// Applying it dropped the process's group cache: warm it again, as the other
			// Lambdas' caches stay (the rest of the run measures a warm Lambda).
			_, _, err := b.st.PriceGroups(b.ctx)
			return err
		}},
		{endpoint: "adminPriceGroupExport", route: "GET /api/admin/price-groups/{id}/export", what: "the group as CSV", request: func() answer {
			return b.get("/api/admin/price-groups/bench-new/export", stok)
		}},
		// Receiving (issue 38): another buyer forward-orders a product made forward (not
		// counted), then a delivery of it is recorded, listed, read and applied.
		{endpoint: "adminReceiptRecord", route: "POST /api/admin/receipts", what: "a delivery of one forward product", setup: func() error {
			fwd.Forward = &catalogue.Forward{DeliveryFrom: catalogue.LondonDate(time.Now().AddDate(0, 3, 0)), OrderBy: catalogue.LondonDate(time.Now().AddDate(0, 1, 0))}
			if err := b.st.PutCatalogue(b.ctx, nil, nil, []catalogue.Product{fwd}, nil); err != nil {
				return err
			}
			fb, err := b.newBuyer("Bench Forward Cards")
			if err != nil {
				return err
			}
			packs := int(20000/(fwd.UnitPrice*int64(fwd.PackSize))) + 4
			for _, call := range []struct {
				path string
				body map[string]any
			}{
				{"/api/billing", map[string]any{"token": fb.IDToken, "billing": billing}},
				{"/api/basket/set", map[string]any{"token": fb.IDToken, "sku": fwd.SKU, "quantity": packs * fwd.PackSize}},
				{"/api/orders", map[string]any{"token": fb.IDToken, "idempotency_key": "bench-forward-0001", "delivery_option": "standard", "same_as_billing": true}},
			} {
				if a := b.post(call.path, call.body); !a.ok() {
					return fmt.Errorf("forward order: %s answered %d: %s", call.path, a.code, a.body)
				}
			}
			return nil
		}, request: func() answer {
			return b.post("/api/admin/receipts", staffWith(map[string]any{"lines": []map[string]any{{"sku": fwd.SKU, "units": 2 * fwd.PackSize}}}))
		}, after: ids(&receiptID, "id")},
		{endpoint: "adminReceipts", route: "GET /api/admin/receipts", what: "every delivery", request: func() answer { return b.get("/api/admin/receipts", stok) }},
		{endpoint: "adminReceipt", route: "GET /api/admin/receipts/{id}", what: "the delivery with its proposal", request: func() answer {
			return b.get("/api/admin/receipts/"+receiptID, stok)
		}},
		{endpoint: "adminReceiptApply", route: "POST /api/admin/receipts/{id}/apply", what: "applies it: one release order", request: func() answer {
			return b.post("/api/admin/receipts/"+receiptID+"/apply", staffWith(map[string]any{"allocations": []any{}}))
		}},
		{endpoint: "adminProduct", route: "GET /api/admin/products/{sku}", what: "one product with its stock audit", request: func() answer { return b.get("/api/admin/products/"+other.SKU, stok) }},
		{endpoint: "adminStock", route: "POST /api/admin/products/{sku}/stock", what: "a stock adjustment", request: func() answer {
			return b.post("/api/admin/products/"+other.SKU+"/stock", staffWith(map[string]any{"mode": "adjust", "quantity": 12, "reason": "Delivery from the printer"}))
		}},
		{endpoint: "adminForward", route: "POST /api/admin/products/{sku}/forward", what: "a product marked forward", request: func() answer {
			return b.post("/api/admin/products/"+other.SKU+"/forward", staffWith(map[string]any{"delivery_from": "2099-09-01", "order_by": "2099-06-30", "expected": 600}))
		}},
		{endpoint: "adminForwardList", route: "GET /api/admin/forward", what: "the forward products by range", request: func() answer {
			return b.get("/api/admin/forward", stok)
		}},
		{endpoint: "adminForwardDemand", route: "GET /api/admin/forward/demand", what: "one forward product's demand", request: func() answer {
			return b.get("/api/admin/forward/demand?sku="+other.SKU, stok)
		}},
		{endpoint: "adminForwardDemand", route: "GET /api/admin/forward/demand.csv", what: "a range's forward demand as CSV", request: func() answer {
			return b.get("/api/admin/forward/demand.csv?range="+other.RangeURLText, stok)
		}, after: func(answer) error {
			// The product is ordinary again for the rest of the journey.
			a := b.post("/api/admin/products/"+other.SKU+"/forward", staffWith(map[string]any{"clear": true}))
			if a.code != 200 {
				return fmt.Errorf("ending the forward marking answered %d", a.code)
			}
			return nil
		}},
		{endpoint: "adminCatalogueImages", route: "POST /api/admin/catalogue/images", what: "a picture upload", request: func() answer {
			return b.serve("POST", "/api/admin/catalogue/images?name=bench.png", stok, picturePNG(), "image/png")
		}, after: func(a answer) error {
			var out map[string]any
			if err := a.json(&out); err != nil {
				return err
			}
			picture = map[string]any{"bench.png": map[string]any{"small": out["small"], "large": out["large"]}}
			return nil
		}},
		{endpoint: "adminCatalogueCheck", route: "POST /api/admin/catalogue/check", what: "checks 2 rows against 1,000 products", request: func() answer {
			body, err := catalogueFile("")
			if err != nil {
				return answer{code: 599, body: []byte(err.Error())}
			}
			return b.post("/api/admin/catalogue/check", body)
		}, after: func(a answer) error {
			var out struct{ Plan struct{ Job string } }
			if err := a.json(&out); err != nil || out.Plan.Job == "" {
				return fmt.Errorf("no job in the check's answer: %s", a.body)
			}
			job = out.Plan.Job
			return nil
		}},
		{endpoint: "adminCatalogueApply", route: "POST /api/admin/catalogue/apply", what: "applies them", request: func() answer {
			body, err := catalogueFile(job)
			if err != nil {
				return answer{code: 599, body: []byte(err.Error())}
			}
			return b.post("/api/admin/catalogue/apply", body)
		}},
		{endpoint: "adminCatalogueExport", route: "GET /api/admin/catalogue/export", what: "the products file (1,001 products)", request: func() answer {
			return b.get("/api/admin/catalogue/export?file=products", stok)
		}},
		{endpoint: "adminPublish", route: "GET /api/admin/catalogue/publish", what: "the last publish's state", request: func() answer { return b.get("/api/admin/catalogue/publish", stok) }},
		{endpoint: "adminPublish", route: "POST /api/admin/catalogue/publish", what: "starts a publish (the local edge's command)", request: func() answer {
			return b.post("/api/admin/catalogue/publish", map[string]any{"token": stok})
		}},
		{endpoint: "errors", route: "POST /api/errors", what: "a page's two app error reports", request: func() answer {
			return b.post("/api/errors", map[string]any{"build": "bench", "agent": "desktop", "reports": []map[string]any{
				{"kind": "api", "name": "ApiError", "message": "The basket answered 500.", "path": "/basket/", "status": 500, "count": 1},
				{"kind": "chunk", "name": "ChunkLoadError", "message": "Loading chunk 7 failed.", "path": "/cards/", "count": 2}}})
		}},
		{endpoint: "adminHealth", route: "GET /api/admin/health", what: "the Health page: error groups, backlogs, last import", request: func() answer {
			return b.get("/api/admin/health", stok)
		}},
		// Card payments (issue 36): Stripe's event of a payment for the order cancelled
		// above, recorded flagged and refunded to the card, with the staff notice.
		{endpoint: "stripeWebhook", route: "POST /api/payments/stripe", what: "a card payment for a cancelled order (flagged, refunded)", request: func() answer {
			return b.stripeEvent("evt_bench_1", "payment_intent.succeeded", map[string]any{"id": "pi_bench_1", "object": "payment_intent",
				"amount": 5000, "amount_received": 5000, "currency": "gbp", "metadata": map[string]string{"order_id": orderID, "uid": u.UID, "attempt": "1"}})
		}},
	}
	var rows []Row
	for _, s := range steps {
		if s.setup != nil {
			if err := s.setup(); err != nil {
				return rows, fmt.Errorf("before %s: %w", s.route, err)
			}
		}
		row, a, err := b.count(s.endpoint, s.route, s.what, s.request)
		if err != nil {
			return rows, err
		}
		if s.after != nil {
			if err := s.after(a); err != nil {
				return rows, fmt.Errorf("%s: %w", s.route, err)
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// london is the shop's calendar (the export's days).
var london = func() *time.Location {
	l, err := time.LoadLocation("Europe/London")
	if err != nil {
		return time.UTC
	}
	return l
}()

// picturePNG is a 200-pixel square picture in one colour.
func picturePNG() []byte {
	m := image.NewRGBA(image.Rect(0, 0, 200, 200))
	for y := range 200 {
		for x := range 200 {
			m.Set(x, y, color.RGBA{10, 120, 40, 255})
		}
	}
	var out bytes.Buffer
	_ = png.Encode(&out, m)
	return out.Bytes()
}

// forwardOrder places a new buyer's forward order of one line (the last of b.others made
// a forward product, enough packs for the minimum order) and answers the buyer, the
// order's number and the line's SKU; none of its requests is counted.
func (b *Bench) forwardOrder() (buyer, string, string, error) {
	u, err := b.newBuyer("Forward Bench Cards")
	if err != nil {
		return buyer{}, "", "", err
	}
	p := b.others[len(b.others)-1]
	p.Stock, p.Forward = 0, &catalogue.Forward{DeliveryFrom: "2099-09-01", OrderBy: "2099-06-30"}
	if err := b.st.PutCatalogue(b.ctx, nil, nil, []catalogue.Product{p}, nil); err != nil {
		return buyer{}, "", "", err
	}
	packs := 1 + 20000/(int(max(p.UnitPrice, 1))*max(p.PackSize, 1))
	if err := b.st.SetLine(b.ctx, u.UID, p.SKU, packs*p.PackSize, time.Now()); err != nil {
		return buyer{}, "", "", err
	}
	a := b.post("/api/orders", map[string]any{"token": u.IDToken, "idempotency_key": "bench-calls-forward-0001", "delivery_option": "standard", "same_as_billing": true})
	var o struct{ ID, Kind string }
	if err := a.json(&o); err != nil || !a.ok() || o.Kind != "forward" {
		return buyer{}, "", "", fmt.Errorf("forward order: %d %s", a.code, a.body)
	}
	return u, o.ID, p.SKU, nil
}
