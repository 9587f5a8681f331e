package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// Issue 14 item 4: every path that writes free text applies the one text rule
// (internal/text): a refused value answers 400 naming the field and nothing is stored;
// an accepted value is stored trimmed and NFC.

// refusedText checks a 400 whose problem for field names the field in the buyer's words.
func refusedText(t *testing.T, code int, body map[string]any, field, label string) {
	t.Helper()
	problems, _ := body["problems"].(map[string]any)
	problem, _ := problems[field].(string)
	if code != http.StatusBadRequest || !strings.HasPrefix(problem, label+" ") {
		t.Fatalf("status %d, problems %v: want 400 with %q's problem starting %q", code, body["problems"], field, label)
	}
	if len(problems) == 1 && body["error"] != problem {
		t.Fatalf("error %q does not name the field: want %q", body["error"], problem)
	}
}

func TestDisplayNameOnFirstProfileIsUnderTheBusinessNameRule(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	c := newClient(t, h)
	ctx := context.Background()

	for _, tc := range []struct{ name, display string }{
		{"a 3,015-character display name", strings.Repeat("A", 3015)},
		{"a right-to-left override", "Shop \u202Eevil"},
		{"a NUL", "Shop\x00Ltd"},
		{"a zero-width space", "Shop\u200bLtd"},
		{"a line break", "Shop\nLtd"},
	} {
		t.Run(tc.name+" is not stored", func(t *testing.T) {
			u := testenv.NewNamedUser(t, tc.display)
			code, p := c.post("/api/getProfile", `{"token":"`+u.IDToken+`"}`, nil)
			if code != 200 || p["business"] != "" || p["email"] != u.Email {
				t.Fatalf("%d %v", code, p)
			}
			stored, err := st.Profile(ctx, u.UID)
			if err != nil || stored.Business != "" || stored.Email != u.Email {
				t.Fatalf("stored %+v %v: want the email and no business name", stored, err)
			}
		})
	}

	t.Run("an accepted display name is stored trimmed and NFC", func(t *testing.T) {
		u := testenv.NewNamedUser(t, "  Cafe\u0301 Cards  ")
		code, p := c.post("/api/getProfile", `{"token":"`+u.IDToken+`"}`, nil)
		if code != 200 || p["business"] != "Caf\u00e9 Cards" {
			t.Fatalf("%d %v", code, p)
		}
		if stored, _ := st.Profile(ctx, u.UID); stored.Business != "Caf\u00e9 Cards" {
			t.Fatalf("stored %q", stored.Business)
		}
	})
}

func TestProfileBusinessNameUnderTheTextRule(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	c := newClient(t, h)
	ctx := context.Background()
	u := testenv.NewNamedUser(t, "Alice's Card Shop")
	if code, p := c.post("/api/getProfile", `{"token":"`+u.IDToken+`"}`, nil); code != 200 {
		t.Fatalf("%d %v", code, p)
	}

	for _, tc := range []struct{ name, business string }{
		{"NUL", "Alice\x00Cards"},
		{"CR LF", "Alice\r\nCards"},
		{"tab", "Alice\tCards"},
		{"right-to-left override", "Alice \u202Elive"},
		{"zero-width joiner", "Alice\u200dCards"},
		{"101 characters", strings.Repeat("b", 101)},
		{"3,015 characters", strings.Repeat("b", 3015)},
	} {
		t.Run("refused: "+tc.name, func(t *testing.T) {
			code, body := c.post("/api/profile", profileBody(u.IDToken, tc.business, "", u.Email, 0), nil)
			refusedText(t, code, body, "business", "Business name")
			if p, _ := st.Profile(ctx, u.UID); p.Business != "Alice's Card Shop" {
				t.Fatalf("a refused request changed the business name: %q", p.Business)
			}
		})
	}

	t.Run("stored trimmed and NFC", func(t *testing.T) {
		code, p := c.post("/api/profile", profileBody(u.IDToken, "  Cafe\u0301 Cards ", "", u.Email, 0), nil)
		if code != 200 || p["business"] != "Caf\u00e9 Cards" {
			t.Fatalf("%d %v", code, p)
		}
		if stored, _ := st.Profile(ctx, u.UID); stored.Business != "Caf\u00e9 Cards" {
			t.Fatalf("stored %q", stored.Business)
		}
	})
}

func billingBody(tok string, b store.Billing) string {
	body, _ := json.Marshal(map[string]any{"token": tok, "billing": b})
	return string(body)
}

func goodBilling() store.Billing {
	return store.Billing{Company: "Shop Ltd", Contact: "Pat Jones", PaymentMethod: "proforma",
		Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}
}

func TestBillingUnderTheTextRule(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	c := newClient(t, h)
	ctx := context.Background()
	u := testenv.NewNamedUser(t, "Shop Ltd")

	for _, tc := range []struct {
		name, field, label string
		change             func(*store.Billing)
	}{
		{"a right-to-left override in the company", "company", "Company name", func(b *store.Billing) { b.Company = "\u202Eevil Ltd" }},
		{"a NUL in the company", "company", "Company name", func(b *store.Billing) { b.Company = "Shop\x00 Ltd" }},
		{"a 101-character company", "company", "Company name", func(b *store.Billing) { b.Company = strings.Repeat("c", 101) }},
		{"a line break in the contact", "contact", "Contact name", func(b *store.Billing) { b.Contact = "Pat\r\nJones" }},
		{"a zero-width space in address line 1", "address.line1", "Address line 1", func(b *store.Billing) { b.Address.Line1 = "1 High\u200b St" }},
		{"a bidi isolate in address line 2", "address.line2", "Address line 2", func(b *store.Billing) { b.Address.Line2 = "Unit \u2067 4" }},
		{"a tab in the town", "address.town", "Town or city", func(b *store.Billing) { b.Address.Town = "Example\tton" }},
		{"a 61-character town", "address.town", "Town or city", func(b *store.Billing) { b.Address.Town = strings.Repeat("t", 61) }},
		{"a byte order mark in the PO reference", "po_ref", "PO reference", func(b *store.Billing) { b.PORef = "\ufeffPO-1" }},
		{"a 41-character PO reference", "po_ref", "PO reference", func(b *store.Billing) { b.PORef = strings.Repeat("p", 41) }},
		{"a NUL in the postcode", "address.postcode", "Postcode", func(b *store.Billing) { b.Address.Postcode = "EX1\x002AB" }},
		{"a left-to-right mark in the VAT number", "vat_number", "VAT number", func(b *store.Billing) { b.VATNumber = "GB123456789\u200e" }},
	} {
		t.Run("refused: "+tc.name, func(t *testing.T) {
			b := goodBilling()
			tc.change(&b)
			code, body := c.post("/api/billing", billingBody(u.IDToken, b), nil)
			refusedText(t, code, body, tc.field, tc.label)
			if p, err := st.Profile(ctx, u.UID); err == nil && p.Billing != nil {
				t.Fatalf("a refused billing step was stored: %+v", p.Billing)
			}
		})
	}

	t.Run("stored trimmed and NFC", func(t *testing.T) {
		b := goodBilling()
		b.Company, b.Contact, b.Address.Line2, b.PORef = "  Cafe\u0301 Cards Ltd ", " Pat Jones ", " Unit 4 ", " PO-77 "
		code, body := c.post("/api/billing", billingBody(u.IDToken, b), nil)
		if code != 200 || body["company"] != "Caf\u00e9 Cards Ltd" {
			t.Fatalf("%d %v", code, body)
		}
		p, err := st.Profile(ctx, u.UID)
		if err != nil || p.Billing == nil || p.Billing.Company != "Caf\u00e9 Cards Ltd" || p.Billing.Contact != "Pat Jones" ||
			p.Billing.Address.Line2 != "Unit 4" || p.Billing.PORef != "PO-77" {
			t.Fatalf("stored %+v %v", p.Billing, err)
		}
	})
}

func TestDeliveryAddressAndNoteUnderTheTextRule(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	cat := putSeedCatalogue(t, st, 300)
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	c := newClient(t, h)
	big := cat.Products[0]
	for _, p := range cat.Products {
		if p.Stock >= 50*p.PackSize && p.UnitPrice*int64(p.PackSize)*10 >= 15000 {
			big = p
			break
		}
	}
	u := testenv.NewUser(t)
	if err := st.SaveBilling(ctx, u.UID, goodBilling(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.SetLine(ctx, u.UID, big.SKU, 10*big.PackSize, time.Now()); err != nil {
		t.Fatal(err)
	}
	place := func(key string, order map[string]any) (int, map[string]any) {
		order["token"], order["idempotency_key"], order["delivery_option"] = u.IDToken, key, "standard"
		body, _ := json.Marshal(order)
		return c.post("/api/orders", string(body), nil)
	}
	to := func(line1, town string) map[string]any {
		return map[string]any{"line1": line1, "line2": "", "town": town, "postcode": "EX1 2AB"}
	}

	for _, tc := range []struct {
		name, field, label string
		order              map[string]any
	}{
		{"a right-to-left override in the delivery note", "delivery_note", "Delivery note",
			map[string]any{"same_as_billing": true, "delivery_note": "Leave with \u202Eevil"}},
		{"a NUL in the delivery note", "delivery_note", "Delivery note", map[string]any{"same_as_billing": true, "delivery_note": "Side\x00door"}},
		{"a tab in the delivery note", "delivery_note", "Delivery note", map[string]any{"same_as_billing": true, "delivery_note": "Side\tdoor"}},
		{"a 301-character delivery note", "delivery_note", "Delivery note", map[string]any{"same_as_billing": true, "delivery_note": strings.Repeat("n", 301)}},
		{"a line break in delivery address line 1", "deliver_to.line1", "Address line 1",
			map[string]any{"same_as_billing": false, "deliver_to": to("1 High St\nFloor 2", "Exampleton")}},
		{"a zero-width space in the delivery town", "deliver_to.town", "Town or city",
			map[string]any{"same_as_billing": false, "deliver_to": to("1 High St", "Example\u200bton")}},
	} {
		t.Run("refused: "+tc.name, func(t *testing.T) {
			code, body := place("text-rule-refused-01", tc.order)
			refusedText(t, code, body, tc.field, tc.label)
			if orders, _ := st.Orders(ctx, u.UID); len(orders) != 0 {
				t.Fatalf("a refused order was stored: %+v", orders)
			}
			if lines, _ := basketLines(ctx, st, u.UID); len(lines) != 1 {
				t.Fatalf("a refused order changed the basket: %+v", lines)
			}
		})
	}

	t.Run("the note keeps its line breaks as LF; the address and note are stored trimmed and NFC", func(t *testing.T) {
		code, o := place("text-rule-accepted-1", map[string]any{"same_as_billing": false, "deliver_to": to("  Cafe\u0301 Corner ", " Exampleton "),
			"delivery_note": " Side door\r\nRing twice "})
		if code != 201 {
			t.Fatalf("%d %v", code, o)
		}
		stored, err := st.Order(ctx, u.UID, o["id"].(string))
		if err != nil || stored.DeliveryNote != "Side door\nRing twice" || stored.DeliverTo == nil ||
			stored.DeliverTo.Line1 != "Caf\u00e9 Corner" || stored.DeliverTo.Town != "Exampleton" {
			t.Fatalf("stored %+v %v", stored, err)
		}
	})
}

// Issue 14 item 5: an id in a path or body is checked for its shape and length before
// anything reads it: 404 in a path, 400 in a body, never 500.
func TestMalformedIdsAreRefusedBeforeTheStore(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	c := newClient(t, h)
	u := testenv.NewUser(t)
	tok := `"` + u.IDToken + `"`
	get := func(path string) (int, map[string]any) {
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("Authorization", "Bearer "+u.IDToken)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var body map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		return rec.Code, body
	}
	long := "TS-" + strings.Repeat("1", 1100) // over DynamoDB's 1,024-byte sort key
	for _, id := range []string{long, strings.Repeat("x", 2000), "TS-100001%00", "TS-1", "ts-100001", "TS-100001%E2%80%AE", "..%2F..%2Fetc"} {
		t.Run("order "+id[:min(len(id), 24)], func(t *testing.T) {
			if code, body := get("/api/orders/" + id); code != 404 || body["error"] == nil {
				t.Fatalf("GET: %d %v, want 404", code, body)
			}
			if code, body := c.post("/api/orders/"+id+"/reorder", `{"token":`+tok+`}`, nil); code != 404 || body["error"] == nil {
				t.Fatalf("reorder: %d %v, want 404", code, body)
			}
		})
	}
	t.Run("a well-formed order number that is not an order is the same 404", func(t *testing.T) {
		if code, body := get("/api/orders/TS-100001"); code != 404 || body["error"] != msgNotFound {
			t.Fatalf("%d %v", code, body)
		}
	})

	longSKU := strings.Repeat("A", 2000)
	for _, tc := range []struct{ name, path, body, field string }{
		{"SKU in basket add", "/api/basket/add", `{"token":` + tok + `,"sku":"` + longSKU + `","quantity":6}`, "sku"},
		{"SKU in basket set", "/api/basket/set", `{"token":` + tok + `,"sku":"` + longSKU + `","quantity":6}`, "sku"},
		{"SKU in basket remove", "/api/basket/remove", `{"token":` + tok + `,"sku":"GC101-00001\u202e"}`, "sku"},
		{"SKU in add many", "/api/basket/addMany", `{"token":` + tok + `,"lines":[{"sku":"` + longSKU + `","quantity":6}]}`, "lines[0].sku"},
		{"SKU in prices", "/api/prices", `{"token":` + tok + `,"skus":["` + longSKU + `"]}`, "skus"},
		{"coupon code", "/api/getCoupon", `{"token":` + tok + `,"active_coupon_id":"` + strings.Repeat("A", 2000) + `"}`, "active_coupon_id"},
		{"coupon code on update", "/api/updateCoupon", `{"token":` + tok + `,"active_coupon_id":"TRADE10\u0000"}`, "active_coupon_id"},
		{"idempotency key", "/api/orders", `{"token":` + tok + `,"idempotency_key":"` + strings.Repeat("k", 2000) + `","delivery_option":"standard","same_as_billing":true}`, "idempotency_key"},
		{"delivery option", "/api/orders", `{"token":` + tok + `,"idempotency_key":"delivery-option-key1","delivery_option":"` + strings.Repeat("d", 2000) + `","same_as_billing":true}`, "delivery_option"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := c.post(tc.path, tc.body, nil)
			problems, _ := body["problems"].(map[string]any)
			if code != 400 || problems[tc.field] == nil {
				t.Fatalf("%d %v, want 400 naming %s", code, body, tc.field)
			}
		})
	}
	for _, q := range []string{"range=" + strings.Repeat("r", 2000), "category=" + strings.Repeat("9", 30), "range=Wholesale%00"} {
		t.Run("search "+q[:min(len(q), 20)], func(t *testing.T) {
			if code, body := get("/api/search?q=card&" + q); code != 400 {
				t.Fatalf("%d %v, want 400", code, body)
			}
		})
	}
}
