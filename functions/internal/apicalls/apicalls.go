// Package apicalls counts the DynamoDB calls one request to each /api endpoint makes: the
// real handlers (api.NewHandler, the real token verifier against the Auth emulator, CSRF
// tokens as the page sends them) over a store whose every call a callcount.Counter counts,
// on a table of its own in the DynamoDB Local of DYNAMODB_ENDPOINT (created by Open,
// deleted by Close). cmd/benchcalls prints the figures (scripts/bench calls;
// docs/PERFORMANCE.md "Round trips"), and this package's test holds the targets.
//
// Endpoints makes one realistic request to every route: a buyer with a 20-line basket
// (one line in each of 20 categories), the coupon TRADE10 and a saved list, then a member
// of staff in the back office. Growth makes the requests whose cost could grow with the
// basket at several sizes, each for a buyer of its own. Every buyer is in the bench's
// price group (its own prices for some products, discounts on half the categories) and a
// third of the products have quantity breaks, so every priced request prices through a
// group and breaks; the process's cache of the groups is warm throughout (its clock
// stands still), as in a warm Lambda: a cold one makes one Query more (docs/PERFORMANCE.md
// "Round trips").
package apicalls

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/tradeshop/functions/internal/api"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/callcount"
	"github.com/tradeshop/functions/internal/cardpay"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/publish"
	"github.com/tradeshop/functions/internal/seed"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// Products is the size of the bench catalogue (the seed's, spread over its 62
// categories), every product given stock enough for any run.
const Products = 1000

// benchStock is each product's stock: far over what a run orders.
const benchStock = 1_000_000

// Row is the calls of one request.
type Row struct {
	Endpoint string // its name in endpoints.json
	Route    string // its route, as routes.go names it ("POST /api/basket/add")
	What     string // the request, in words
	Count    callcount.Count
}

// Bench is a table of its own with the bench catalogue, and the /api handlers over it.
type Bench struct {
	ctx      context.Context
	st       *store.Store
	db       *dynamodb.Client // the same table, not counted: writes the store has no call for yet
	counter  *callcount.Counter
	h        http.Handler
	routes   []string
	products []catalogue.Product // buyable, one category after another in turn
	others   []catalogue.Product // products no basket holds (the back office's)
	tmp      string
	csrf     string
	cookie   *http.Cookie
	// webhookSecret signs the Stripe events the journey delivers.
	webhookSecret string
}

// Open creates the bench's table in the DynamoDB Local of DYNAMODB_ENDPOINT, writes the
// bench catalogue and the seed's coupons, and builds the handlers as the local edge does
// (token verification against FIREBASE_AUTH_EMULATOR_HOST).
func Open(ctx context.Context, getenv func(string) string) (*Bench, error) {
	if getenv("DYNAMODB_ENDPOINT") == "" || getenv("FIREBASE_AUTH_EMULATOR_HOST") == "" {
		return nil, fmt.Errorf("DYNAMODB_ENDPOINT and FIREBASE_AUTH_EMULATOR_HOST must name a local DynamoDB and Auth emulator")
	}
	db, err := store.NewClient(ctx, store.ConfigFromEnv(getenv))
	if err != nil {
		return nil, err
	}
	counter := callcount.New()
	cfg := store.ConfigFromEnv(getenv)
	cfg.TableName = fmt.Sprintf("bench-calls-%d", time.Now().UnixNano())
	cfg.APIOptions = []func(*middleware.Stack) error{counter.Middleware}
	started := time.Now()
	cfg.Now = func() time.Time { return started } // the groups, once read, stay warm
	st, err := store.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := st.EnsureTable(ctx); err != nil {
		return nil, err
	}
	b := &Bench{ctx: ctx, st: st, db: db, counter: counter}
	if err := b.fill(); err != nil {
		_ = b.Close()
		return nil, err
	}
	env := func(k string) string {
		if k == "CSRF_SECRET" || k == "ORIGIN_SECRET" || k == "MEDIA_BUCKET" {
			return "" // a random CSRF secret, no origin check, pictures in a folder
		}
		return getenv(k)
	}
	deps, err := api.DepsFromStore(ctx, env, slog.New(slog.NewTextHandler(io.Discard, nil)), st)
	if err != nil {
		_ = b.Close()
		return nil, err
	}
	if b.tmp, err = os.MkdirTemp("", "bench-calls-"); err != nil {
		_ = b.Close()
		return nil, err
	}
	deps.Media = media.NewDirStore(b.tmp)
	if deps.Card == nil {
		// No Stripe key here: the webhook still verifies the journey's events with a
		// secret of its own, and a refund is recorded for the sweep to send.
		deps.Card = &cardpay.Service{Config: cardpay.Config{Stage: cardpay.StageLocal, WebhookSecret: "whsec_bench_calls"}, Store: deps.Store,
			Payments: payments.Service{Store: deps.Store, Now: deps.Now}, Notify: mail.Notices{Shop: deps.Shop}, Now: deps.Now, Log: deps.Log}
	}
	b.webhookSecret = deps.Card.Config.WebhookSecret
	deps.Publisher = api.CommandPublisher(&publish.Command{Args: []string{"true"}}) // as the local edge has one; publishing reads no table
	for _, e := range api.Endpoints(deps) {
		b.routes = append(b.routes, e.Name+" "+e.Pattern)
	}
	b.h = api.NewHandler(deps)
	rec := httptest.NewRecorder()
	b.h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/csrf", nil))
	var tok map[string]string
	_ = json.Unmarshal(rec.Body.Bytes(), &tok)
	if cs := rec.Result().Cookies(); rec.Code != 200 || tok["token"] == "" || len(cs) != 1 {
		_ = b.Close()
		return nil, fmt.Errorf("csrf: %d %s", rec.Code, rec.Body.String())
	} else {
		b.csrf, b.cookie = tok["token"], cs[0]
	}
	return b, nil
}

// Close deletes the bench's table and folder.
func (b *Bench) Close() error {
	if b.tmp != "" {
		_ = os.RemoveAll(b.tmp)
	}
	return b.st.DeleteTable(context.WithoutCancel(b.ctx))
}

// fill writes the bench catalogue: the seed's ranges, categories and products, every
// product active with benchStock; and the seed's coupons.
func (b *Bench) fill() error {
	cat, err := seed.Generate(Products)
	if err != nil {
		return err
	}
	byCategory := map[int][]catalogue.Product{}
	var order []int
	group := pricing.Rules{Prices: map[string]int64{}, Discounts: map[string]int{}}
	for i := range cat.Products {
		p := &cat.Products[i]
		p.Stock, p.Status = benchStock, catalogue.StatusActive
		if i%3 == 0 && len(p.Breaks) == 0 {
			p.Breaks = pricing.Ladder{{From: 2, Percent: 5}, {From: 6, Percent: 10}}
		}
		if i%5 == 0 && p.UnitPrice > 1 {
			group.Prices["product:"+p.SKU] = p.UnitPrice - 1
		}
		if p.CategoryID%2 == 0 {
			group.Discounts[fmt.Sprintf("category:%d", p.CategoryID)] = 4
		}
		if _, ok := byCategory[p.CategoryID]; !ok {
			order = append(order, p.CategoryID)
		}
		byCategory[p.CategoryID] = append(byCategory[p.CategoryID], *p)
	}
	// The baskets' products take one product of each category in turn, so that n lines
	// come from min(n, 62) categories; the last product of each category is kept out of
	// every basket for the back office's requests.
	for i := 0; ; i++ {
		added := false
		for _, id := range order {
			if ps := byCategory[id]; i < len(ps)-1 {
				b.products = append(b.products, ps[i])
				added = true
			}
		}
		if !added {
			break
		}
	}
	for _, id := range order {
		b.others = append(b.others, byCategory[id][len(byCategory[id])-1])
	}
	if err := b.st.PutCatalogue(b.ctx, cat.Ranges, cat.Categories, cat.Products, nil); err != nil {
		return err
	}
	if err := b.st.PutSeedPriceGroups(b.ctx, []pricing.Group{{ID: benchGroup, Name: "Bench Independents", Rules: group, Version: 1, UpdatedAt: time.Now()}}); err != nil {
		return err
	}
	if _, _, err := b.st.PriceGroups(b.ctx); err != nil { // warm the cache
		return err
	}
	return b.st.PutCoupons(b.ctx, seed.Coupons(time.Now()))
}

// benchGroup is the id of the bench's price group, which every buyer is in.
const benchGroup = "bench-independents"

// Missing answers the routes of api.Endpoints no row made a request to.
func (b *Bench) Missing(rows []Row) []string {
	done := map[string]bool{}
	for _, r := range rows {
		done[r.Endpoint+" "+r.Route] = true
	}
	var out []string
	for _, r := range b.routes {
		if !done[r] {
			out = append(out, r)
		}
	}
	return out
}

// answer is one HTTP answer of the handlers.
type answer struct {
	code int
	body []byte
}

func (a answer) ok() bool { return a.code >= 200 && a.code < 300 }

// json decodes the answer into v.
func (a answer) json(v any) error { return json.Unmarshal(a.body, v) }

// serve makes a request as the site does: the CSRF token and its cookie, same-origin,
// the ID token as a bearer token when bearer is not "".
func (b *Bench) serve(method, path, bearer string, body []byte, contentType string) answer {
	r := httptest.NewRequest(method, path, bytes.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	if bearer != "" {
		r.Header.Set("Authorization", "Bearer "+bearer)
	}
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r.Header.Set(csrf.HeaderName, b.csrf)
	r.AddCookie(b.cookie)
	rec := httptest.NewRecorder()
	b.h.ServeHTTP(rec, r)
	return answer{code: rec.Code, body: rec.Body.Bytes()}
}

// post posts body (marshalled unless it is a string) as JSON.
func (b *Bench) post(path string, body any) answer {
	raw, ok := body.(string)
	if !ok {
		j, err := json.Marshal(body)
		if err != nil {
			panic(err)
		}
		raw = string(j)
	}
	return b.serve("POST", path, "", []byte(raw), "application/json")
}

func (b *Bench) get(path, token string) answer { return b.serve("GET", path, token, nil, "") }

// stripeEvent delivers a Stripe event of type typ with object, signed with the webhook
// secret as Stripe signs it (no CSRF token, no cookie: Stripe has neither).
func (b *Bench) stripeEvent(id, typ string, object map[string]any) answer {
	body, err := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": stripe.APIVersion, "created": time.Now().Unix(),
		"type": typ, "data": map[string]any{"object": object}})
	if err != nil {
		panic(err)
	}
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: b.webhookSecret})
	r := httptest.NewRequest("POST", "/api/payments/stripe", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Stripe-Signature", sp.Header)
	rec := httptest.NewRecorder()
	b.h.ServeHTTP(rec, r)
	return answer{code: rec.Code, body: rec.Body.Bytes()}
}

// count makes one request with the counter reset and answers its calls; an answer that
// is not 2xx is an error (the bench counts requests that did their work).
func (b *Bench) count(endpoint, route, what string, request func() answer) (Row, answer, error) {
	b.counter.Reset()
	a := request()
	row := Row{Endpoint: endpoint, Route: route, What: what, Count: b.counter.Take()}
	if !a.ok() {
		return row, a, fmt.Errorf("%s (%s): %d %s", route, what, a.code, strings.TrimSpace(string(a.body)))
	}
	return row, a, nil
}

// buyer is a signed-up user with a profile, billing details and the coupon TRADE10.
type buyer struct {
	testenv.User
	tok map[string]any // {"token": the ID token}, the body of the token-only endpoints
}

// newBuyer signs up a buyer and makes the account ready as a returning buyer's is; its
// requests are not counted.
func (b *Bench) newBuyer(name string) (buyer, error) {
	u, err := testenv.SignUp(name)
	if err != nil {
		return buyer{}, err
	}
	by := buyer{User: u, tok: map[string]any{"token": u.IDToken}}
	if a := b.post("/api/getProfile", by.tok); !a.ok() {
		return buyer{}, fmt.Errorf("getProfile: %d %s", a.code, a.body)
	}
	prof, err := b.st.Profile(b.ctx, u.UID)
	if err != nil {
		return buyer{}, err
	}
	if err := b.st.ChangeAccount(b.ctx, store.AccountChange{UID: u.UID, Seen: prof.UpdatedAt, PriceGroup: benchGroup,
		Audit: orders.AuditEntry{At: time.Now(), By: orders.Staff{UID: "bench", Email: "bench@shop.test"}, Action: "price group"}}); err != nil {
		return buyer{}, err
	}
	if err := b.st.SaveBilling(b.ctx, u.UID, store.Billing{Company: name, Contact: "Pat Bench", PaymentMethod: "proforma",
		Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
		return buyer{}, err
	}
	return by, b.st.SetActiveCoupon(b.ctx, u.UID, store.CouponPrefix+"TRADE10", time.Now())
}

// units is the units of product p on a line of an n-line basket: whole packs enough that
// the n lines together are over the minimum order (£100) whatever the prices: £150 at
// list prices, so still over it after the bench group's discount and the breaks (at most
// 4% and 10%).
func units(p catalogue.Product, n int) int {
	packPrice := int64(p.PackSize) * p.UnitPrice
	packs := max(1, int((15_000/int64(n)+packPrice-1)/packPrice))
	return min(packs, 100) * p.PackSize
}

// lines are the first n bench products as lines of an n-line basket.
func (b *Bench) lines(n int) []map[string]any {
	out := make([]map[string]any, n)
	for i, p := range b.products[:n] {
		out[i] = map[string]any{"sku": p.SKU, "quantity": units(p, n)}
	}
	return out
}

// fillBasket puts the first n bench products in u's basket through the store (not
// counted), as the buyer's earlier requests would have.
func (b *Bench) fillBasket(u buyer, n int) error {
	adds := make([]basket.Add, n)
	for i, p := range b.products[:n] {
		adds[i] = basket.Add{SKU: p.SKU, Quantity: units(p, n), Limit: basket.LineLimit(p, time.Now())}
	}
	for chunk := range slices.Chunk(adds, 50) {
		if err := b.st.AddLines(b.ctx, u.UID, chunk, time.Now()); err != nil {
			return err
		}
	}
	return nil
}

// categories is the number of categories of the first n bench products.
func (b *Bench) categories(n int) int {
	seen := map[int]bool{}
	for _, p := range b.products[:n] {
		seen[p.CategoryID] = true
	}
	return len(seen)
}
