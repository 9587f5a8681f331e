package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/smithy-go/middleware"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// get calls a GET endpoint as the admin pages do: bearer token and the CSRF header.
func (c *client) get(path, idToken string) (int, map[string]any, []byte) {
	return c.bearer("GET", path, idToken, nil, "")
}

// bearer calls an endpoint with the ID token as a bearer token and the CSRF header and
// cookie, as the admin pages' reads and raw uploads do.
func (c *client) bearer(method, path, idToken string, body []byte, contentType string) (int, map[string]any, []byte) {
	r := httptest.NewRequest(method, path, bytes.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	r.Header.Set("Authorization", "Bearer "+idToken)
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r.Header.Set(csrf.HeaderName, c.token)
	r.AddCookie(c.cook)
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, r)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out, rec.Body.Bytes()
}

// act posts a staff action on order id at version.
func (s *raceShop) act(staff testenv.User, id string, version int64, action string, extra string) (int, map[string]any) {
	return s.c.post("/api/admin/orders/"+id+"/action", fmt.Sprintf(`{"token":%q,"action":%q,"version":%d%s}`, staff.IDToken, action, version, extra), nil)
}

// placed places u's basket of units of p and answers the order number.
func (s *raceShop) placed(u testenv.User, p catalogue.Product, units int) string {
	s.t.Helper()
	s.set(u, p, units)
	code, body := s.place(u, fmt.Sprintf("admin-test-%d-%d", time.Now().UnixNano(), s.seq.Add(1)))
	if code != http.StatusCreated {
		s.t.Fatalf("place: %d %v", code, body)
	}
	return body["id"].(string)
}

func orderOf(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	o, ok := body["order"].(map[string]any)
	if !ok {
		t.Fatalf("no order in %v", body)
	}
	return o
}

func version(o map[string]any) int64 { return int64(o["version"].(float64)) }

// TestBackOfficeLifecycle walks an order from placed to completed through the staff
// actions, refuses the moves the lifecycle does not allow, and cancels a second order:
// its stock and coupon use are back.
func TestBackOfficeLifecycle(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	staff := testenv.Staff(t, testenv.NewUser(t))
	buyer := s.buyer()
	p := s.product(100, 1, 5000)
	if err := s.st.PutCoupons(ctx, []store.StoredCoupon{{Coupon: pricing.Coupon{ID: "BACKOFF10", Kind: "percent", Percent: 10, UsageLimit: 5}}}); err != nil {
		t.Fatal(err)
	}

	a := s.placed(buyer, p, 3)
	code, body, _ := s.c.get("/api/admin/orders/"+a, staff.IDToken)
	if code != 200 || version(orderOf(t, body)) != 1 || orderOf(t, body)["status"] != "placed" {
		t.Fatalf("order %s: %d %v", a, code, body)
	}
	// Dispatch before confirming, then a pro-forma dispatch before payment: refused.
	if code, body := s.act(staff, a, 1, "dispatch", `,"carrier":"Royal Mail","tracking":"RM123456789GB"`); code != 409 ||
		!strings.Contains(body["error"].(string), "only a confirmed order can be dispatched") {
		t.Fatalf("dispatch of a placed order: %d %v", code, body)
	}
	steps := []struct {
		action, extra, status string
	}{
		{"confirm", "", "confirmed"},
		{"pay", "", "confirmed"},
		{"dispatch", `,"carrier":"Royal Mail","tracking":"RM123456789GB"`, "dispatched"},
		{"complete", "", "completed"},
	}
	v := int64(1)
	for _, st := range steps {
		code, body := s.act(staff, a, v, st.action, st.extra)
		if code != 200 || orderOf(t, body)["status"] != st.status || version(orderOf(t, body)) != v+1 {
			t.Fatalf("%s: %d %v", st.action, code, body)
		}
		v++
		if st.action == "confirm" {
			if code, body := s.act(staff, a, v, "dispatch", `,"carrier":"Royal Mail","tracking":"RM123456789GB"`); code != 409 ||
				!strings.Contains(body["error"].(string), "mark it paid before dispatching") {
				t.Fatalf("dispatch of an unpaid pro-forma order: %d %v", code, body)
			}
		}
	}
	if code, body := s.act(staff, a, v, "cancel", ""); code != 409 || !strings.Contains(body["error"].(string), "can no longer be cancelled") {
		t.Fatalf("cancel of a completed order: %d %v", code, body)
	}
	// The buyer sees the dispatch and its tracking reference.
	code, mine, _ := s.c.get("/api/orders/"+a, buyer.IDToken)
	dispatch, _ := mine["dispatch"].(map[string]any)
	if code != 200 || mine["status"] != "completed" || dispatch["tracking"] != "RM123456789GB" || mine["dispatched_at"] == nil {
		t.Fatalf("buyer's order: %d %v", code, mine)
	}
	// The audit trail says who did what, newest first.
	_, body, _ = s.c.get("/api/admin/orders/"+a, staff.IDToken)
	audit := body["audit"].([]any)
	if len(audit) != 4 || audit[0].(map[string]any)["action"] != "complete" || audit[3].(map[string]any)["action"] != "confirm" ||
		audit[0].(map[string]any)["who"].(map[string]any)["uid"] != staff.UID {
		t.Fatalf("audit: %v", audit)
	}

	// A second order with the coupon, cancelled: stock and the coupon's use are back.
	if err := s.st.SetActiveCoupon(ctx, buyer.UID, store.CouponPrefix+"BACKOFF10", time.Now()); err != nil {
		t.Fatal(err)
	}
	b := s.placed(buyer, p, 5)
	if got := s.stock(p); got != 92 {
		t.Fatalf("stock after two orders: %d, want 92", got)
	}
	c, _ := s.st.Coupon(ctx, "BACKOFF10")
	if c.Used != 1 {
		t.Fatalf("coupon used %d, want 1", c.Used)
	}
	code, body = s.act(staff, b, 1, "cancel", `,"reason":"Customer asked to cancel"`)
	if code != 200 || orderOf(t, body)["status"] != "cancelled" || orderOf(t, body)["cancel_reason"] != "Customer asked to cancel" {
		t.Fatalf("cancel: %d %v", code, body)
	}
	if got := s.stock(p); got != 97 {
		t.Fatalf("stock after the cancel: %d, want 97 (100 less the 3 completed)", got)
	}
	if c, _ := s.st.Coupon(ctx, "BACKOFF10"); c.Used != 0 || c.AccountUses != 0 {
		t.Fatalf("coupon after the cancel: used %d", c.Used)
	}
	if code, body := s.act(staff, b, 2, "confirm", ""); code != 409 {
		t.Fatalf("confirm of a cancelled order: %d %v", code, body)
	}
	// The list: newest first, filtered by status, searched by number.
	code, body, _ = s.c.get("/api/admin/orders?status=cancelled&q="+b, staff.IDToken)
	if list := body["orders"].([]any); code != 200 || len(list) != 1 || list[0].(map[string]any)["id"] != b {
		t.Fatalf("search %s: %d %v", b, code, body)
	}
	code, body, _ = s.c.get("/api/admin/orders?q=race+cards", staff.IDToken)
	if list := body["orders"].([]any); code != 200 || len(list) != 2 || list[0].(map[string]any)["id"] != b {
		t.Fatalf("search by company: %d %v", code, body)
	}
	// The export: one row per line, the cancelled order marked.
	today := time.Now().In(london).Format(time.DateOnly)
	code, _, csv := s.c.get("/api/admin/export?from="+today+"&to="+today, staff.IDToken)
	rows := strings.Split(strings.TrimSpace(string(csv)), "\n")
	if code != 200 || len(rows) != 3 || !strings.HasPrefix(rows[0], "order,placed_at,status") ||
		!strings.Contains(string(csv), b+",") || !strings.Contains(string(csv), ",cancelled,") {
		t.Fatalf("export: %d %q", code, csv)
	}
	if code, _, _ := s.c.get("/api/admin/export?from="+today+"&to=2000-01-01", staff.IDToken); code != 400 {
		t.Fatalf("export of a backwards range: %d", code)
	}
}

// TestTwoStaffActingAtOnceOneWins: two staff confirm and cancel the same order at the
// same moment: one wins, the other is refused with 409, and the stock stays true.
func TestTwoStaffActingAtOnceOneWins(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	one, two := testenv.Staff(t, testenv.NewUser(t)), testenv.Staff(t, testenv.NewUser(t))
	buyer := s.buyer()
	p := s.product(1000, 1, 5000)
	const rounds = 8
	cancelled := 0
	for i := range rounds {
		id := s.placed(buyer, p, 3)
		var codes [2]int
		together(
			func() { codes[0], _ = s.act(one, id, 1, "confirm", "") },
			func() { codes[1], _ = s.act(two, id, 1, "cancel", "") },
		)
		if !(codes[0] == 200 && codes[1] == 409 || codes[0] == 409 && codes[1] == 200) {
			t.Fatalf("round %d: confirm %d, cancel %d: want one 200 and one 409", i, codes[0], codes[1])
		}
		if codes[1] == 200 {
			cancelled++
		}
		_, body, _ := s.c.get("/api/admin/orders/"+id, one.IDToken)
		if audit := body["audit"].([]any); len(audit) != 1 {
			t.Fatalf("round %d: %d audit entries, want the winner's alone", i, len(audit))
		}
	}
	// Invariant: stock + units on orders not cancelled = initial stock.
	units := 0
	list, err := s.st.Orders(context.Background(), buyer.UID)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range list {
		if o.Status != orders.StatusCancelled {
			units += o.Lines[0].Quantity
		}
	}
	if got := s.stock(p); got+units != 1000 {
		t.Fatalf("stock %d + units on live orders %d != 1000 (%d of %d cancelled)", got, units, cancelled, rounds)
	}
}

// TestCancelOfALargeOrderSurvivesACrash: a cancellation of an order of more lines than
// one transaction holds that stops after its first step is finished by the sweep, and
// two finishers at once give nothing back twice.
func TestCancelOfALargeOrderSurvivesACrash(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	buyer := s.buyer()
	var products []catalogue.Product
	for range 150 {
		p := s.product(50, 1, 100)
		products = append(products, p)
		s.set(buyer, p, 2)
	}
	code, body := s.place(buyer, "admin-large-cancel-0001")
	if code != http.StatusCreated {
		t.Fatalf("place: %d %v", code, body)
	}
	id := body["id"].(string)
	for _, p := range products {
		if got := s.stock(p); got != 48 {
			t.Fatalf("stock of %s after the order: %d", p.SKU, got)
		}
	}
	o, err := s.st.Order(ctx, buyer.UID, id)
	if err != nil {
		t.Fatal(err)
	}
	// The first step alone, as a request killed right after it leaves it.
	after, err := orders.Apply(o, orders.Action{Name: orders.ActionCancel, Version: o.Version, By: orders.Staff{UID: "s1", Email: "s@example.com"}}, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.st.ApplyChange(ctx, orders.Change{Before: o, After: after, Audit: orders.AuditEntry{At: after.CancelledAt, Action: "cancel"}}); err != nil {
		t.Fatal(err)
	}
	refs, err := s.st.Cancelling(ctx, time.Now())
	if err != nil || len(refs) != 1 || refs[0].ID != id {
		t.Fatalf("cancelling: %v %v", refs, err)
	}
	// Two sweeps at once.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() { _, errs[i] = orders.SweepCancels(ctx, s.st, nil, time.Now(), orders.InvoiceAfter) })
	}
	wg.Wait()
	got, err := s.st.Order(ctx, buyer.UID, id)
	if err != nil || got.Status != orders.StatusCancelled {
		t.Fatalf("after the sweep: %v %v (sweep errors %v)", got.Status, err, errs)
	}
	for _, p := range products {
		if st := s.stock(p); st != 50 {
			t.Fatalf("stock of %s after the cancel: %d, want 50 (sweep errors %v)", p.SKU, st, errs)
		}
	}
	if refs, _ := s.st.Cancelling(ctx, time.Now()); len(refs) != 0 {
		t.Fatalf("markers left: %v", refs)
	}
}

// accountBuyer makes a buyer with a verified email, a profile of business and billing on
// account, and answers them with their account's version as staff read it.
func accountBuyer(t *testing.T, s *raceShop, staff testenv.User, business string) (testenv.User, int64) {
	t.Helper()
	ctx := context.Background()
	buyer := testenv.VerifyEmail(t, testenv.NewUser(t))
	if _, err := s.st.CreateProfile(ctx, store.Profile{UID: buyer.UID, Business: business, Email: buyer.Email}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.st.SaveBilling(ctx, buyer.UID, store.Billing{Company: business, Contact: "Pat", PaymentMethod: "account",
		Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	code, body, _ := s.c.get("/api/admin/accounts/"+buyer.UID, staff.IDToken)
	if code != 200 {
		t.Fatalf("account: %d %v", code, body)
	}
	return buyer, int64(body["account"].(map[string]any)["version"].(float64))
}

// TestCreditLimitHoldsAtCheckout: staff approve an account with a limit; an order on
// account within it is placed, one that would go over is refused; marking the first paid
// frees the credit.
func TestCreditLimitHoldsAtCheckout(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	staff := testenv.Staff(t, testenv.NewUser(t))
	buyer, v := accountBuyer(t, s, staff, "Credit Cards Ltd")
	// £500 limit; a bad dsc is refused by field.
	code, body := s.c.post("/api/admin/accounts/"+buyer.UID, fmt.Sprintf(`{"token":%q,"version":%d,"approved_for_credit":true,"credit_limit":50000,"dsc":"{\"range:x\":120}"}`, staff.IDToken, v), nil)
	if code != 400 || body["problems"].(map[string]any)["dsc"] == nil {
		t.Fatalf("bad dsc: %d %v", code, body)
	}
	code, body = s.c.post("/api/admin/accounts/"+buyer.UID, fmt.Sprintf(`{"token":%q,"version":%d,"approved_for_credit":true,"credit_limit":50000,"dsc":""}`, staff.IDToken, v), nil)
	if code != 200 || body["account"].(map[string]any)["approved_for_credit"] != true {
		t.Fatalf("approve: %d %v", code, body)
	}
	// The same version again: someone changed it meanwhile.
	if code, _ := s.c.post("/api/admin/accounts/"+buyer.UID, fmt.Sprintf(`{"token":%q,"version":%d,"approved_for_credit":false,"dsc":""}`, staff.IDToken, v), nil); code != 409 {
		t.Fatalf("stale account change: %d", code)
	}
	p := s.product(100, 1, 10000)  // £100 a unit, £120 inc VAT
	first := s.placed(buyer, p, 3) // £360 inc VAT: owed £360
	s.set(buyer, p, 2)             // £240 more would make £600
	code, body = s.place(buyer, "admin-credit-over-0001")
	if code != 409 || !strings.Contains(body["error"].(string), "credit limit of £500.00") {
		t.Fatalf("over the limit: %d %v", code, body)
	}
	if got := s.stock(p); got != 97 {
		t.Fatalf("stock after the refused order: %d", got)
	}
	code, body = s.act(staff, first, 1, "pay", "")
	if code != 200 {
		t.Fatalf("pay: %d %v", code, body)
	}
	if code, body := s.place(buyer, "admin-credit-over-0002"); code != 201 {
		t.Fatalf("within the limit once paid: %d %v", code, body)
	}
	prof, err := s.st.Profile(ctx, buyer.UID)
	if err != nil || prof.Owed != 24000+delivery(t, s) {
		t.Fatalf("owed %d, want the second order's total (%v)", prof.Owed, err)
	}
}

// delivery is the standard delivery's charge inc VAT on an order under the threshold
// (0 over it): the second credit order is £200 ex VAT, under £250.
func delivery(t *testing.T, s *raceShop) int64 {
	t.Helper()
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	o, _ := orders.Option(shop, "standard")
	return o.ChargePence + pricing.RoundPercent(o.ChargePence, shop.DefaultVATRate)
}

var pathParam = regexp.MustCompile(`\{[a-z]+\}`)

// TestBuyerTokenOnEveryAdminEndpointIs403: every /api/admin route of endpoints.json,
// called with a signed-in buyer's token, answers 403 and makes no store call at all.
func TestBuyerTokenOnEveryAdminEndpointIs403(t *testing.T) {
	t.Parallel()
	base := testenv.Store(t)
	rec := &opRecorder{}
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName, cfg.APIOptions = base.TableName(), []func(*middleware.Stack) error{rec.middleware}
	st, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, NewHandler(testDeps(t, st, testenv.Verifier(t))))
	buyer := testenv.NewUser(t)
	walked := 0
	for _, e := range readEndpointsFile(t).Endpoints {
		for _, route := range e.Routes {
			method, path, _ := strings.Cut(route, " ")
			if !strings.HasPrefix(path, "/api/admin/") {
				continue
			}
			path = pathParam.ReplaceAllString(path, "TS-100001")
			rec.take()
			var code int
			var body map[string]any
			if method == "GET" {
				code, body, _ = c.get(path, buyer.IDToken)
			} else {
				// The token in the body, as staff writes send it, and as a bearer token, as
				// the picture upload sends it.
				code, body = c.post(path, fmt.Sprintf(`{"token":%q}`, buyer.IDToken), func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+buyer.IDToken) })
			}
			if code != 403 || body["code"] != "staff_only" {
				t.Errorf("%s with a buyer's token: %d %v, want 403 staff_only", route, code, body)
			}
			if got := rec.take(); len(got) != 0 {
				t.Errorf("%s with a buyer's token made store calls: %v", route, got)
			}
			// Without the CSRF header: 403 too.
			r := httptest.NewRequest(method, path, strings.NewReader(`{}`))
			r.Header.Set("Authorization", "Bearer "+buyer.IDToken)
			w := httptest.NewRecorder()
			c.h.ServeHTTP(w, r)
			if w.Code != 403 {
				b, _ := io.ReadAll(w.Body)
				t.Errorf("%s without the CSRF header: %d %s", route, w.Code, b)
			}
			walked++
		}
	}
	if walked < 19 {
		t.Fatalf("walked %d admin routes, want every one of endpoints.json", walked)
	}
}

// TestCouponTimesTravelInUnixMilli: a coupon staff save with its times in Unix ms comes
// back in Unix ms, and so do the times of its audit trail, which the store keeps in
// seconds.
func TestCouponTimesTravelInUnixMilli(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	staff := testenv.Staff(t, testenv.NewUser(t))
	from := time.Date(2026, 3, 31, 23, 0, 0, 0, time.UTC).UnixMilli()
	to := time.Date(2026, 4, 30, 23, 0, 0, 0, time.UTC).UnixMilli()
	id := fmt.Sprintf("MS%d", time.Now().UnixNano()%1_000_000_000)
	code, body := s.c.post("/api/admin/coupons", fmt.Sprintf(`{"token":%q,"coupon":{"id":%q,"description":"Spring","kind":"percent","percent":10,"valid_from":%d,"valid_to":%d,"version":0}}`,
		staff.IDToken, id, from, to), nil)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, body)
	}
	c := body["coupon"].(map[string]any)
	if int64(c["valid_from"].(float64)) != from || int64(c["valid_to"].(float64)) != to {
		t.Errorf("answered valid_from %v, valid_to %v; want %d, %d", c["valid_from"], c["valid_to"], from, to)
	}
	later := to + 86_400_000
	code, body = s.c.post("/api/admin/coupons/"+id, fmt.Sprintf(`{"token":%q,"coupon":{"id":%q,"description":"Spring","kind":"percent","percent":10,"valid_from":%d,"valid_to":%d,"version":1}}`,
		staff.IDToken, id, from, later), nil)
	if code != http.StatusOK {
		t.Fatalf("edit: %d %v", code, body)
	}
	e := body["audit"].([]any)[0].(map[string]any)
	before, after := e["before"].(map[string]any), e["after"].(map[string]any)
	if int64(before["valid_to"].(float64)) != to || int64(after["valid_to"].(float64)) != later || int64(after["valid_from"].(float64)) != from {
		t.Errorf("audit before %v after %v: want valid_to %d then %d", before, after, to, later)
	}
}
