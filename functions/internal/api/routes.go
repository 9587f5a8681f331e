package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/alerts"
	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/cardpay"
	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/search"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/statements"
	"github.com/tradeshop/functions/internal/store"
)

// Deps is everything the handlers need. Each Lambda and the local edge build one.
type Deps struct {
	Log      *slog.Logger
	Verifier auth.Verifier
	Store    *store.Store
	Search   *search.Provider
	CSRF     *csrf.Protector
	Shop     config.Shop
	Now      func() time.Time
	// Notify makes the emails of orders' events (package mail); nil sends none.
	Notify orders.Notifier
	// Media is where uploaded product pictures are published (the back office's picture
	// upload): the media bucket where MEDIA_BUCKET is set, the local edge's media folder;
	// nil where neither is (the upload then answers 503).
	Media media.Store
	// Publisher publishes the catalogue from the back office: the local edge's command,
	// the stage's CodeBuild project in the cloud (lambdarun, where PUBLISH_PROJECT is
	// set); nil where neither is given (the endpoints then answer 501).
	Publisher Publisher
	// Card takes card payments through Stripe (package cardpay), its keys read from the
	// environment or, where STRIPE_SECRET_ARN names it, the Stripe secret; nil without a
	// key: Pay now answers 503 and the webhook 503.
	Card *cardpay.Service
	// CardOffered says the billing step offers card (cardpay.Offered): a key is set
	// here, or the function is in the cloud, where every stage has its Stripe secret
	// (read only by the functions that call Stripe: endpoints.json's stripeSecret).
	CardOffered bool
	// ErrorReportLimit is how many app error reports one client may send a minute
	// (ERROR_REPORT_LIMIT, default DefaultErrorReportLimit); 0 is no limit.
	ErrorReportLimit int
	// StripeWebhookPause is the local fault suite's pause between recording a webhook
	// event and applying it (cardpay.PauseFromEnv); 0 elsewhere.
	StripeWebhookPause time.Duration
	// SiteURL is the site's address (SITE_URL, no trailing slash; cardpay.ConfigFromEnv):
	// the back-in-stock emails link the product page on it ("" for the path alone).
	SiteURL string
}

// AlertsOf is the back-in-stock alerts over d's store, their emails linking d's site: the
// handlers', and the local edge's sweep.
func AlertsOf(d Deps) alerts.Service {
	return alerts.Service{Store: d.Store, Mail: mail.Notices{Shop: d.Shop, SiteURL: d.SiteURL}, Now: d.Now, Log: d.Log}
}

// DepsFromEnv builds Deps from the environment (see README "Configuration").
func DepsFromEnv(ctx context.Context, getenv func(string) string, log *slog.Logger) (Deps, error) {
	st, err := store.Open(ctx, store.ConfigFromEnv(getenv))
	if err != nil {
		return Deps{}, err
	}
	return DepsFromStore(ctx, getenv, log, st)
}

// DepsFromStore builds Deps from the environment around a store opened already (the
// round-trip bench's, which counts its calls).
func DepsFromStore(ctx context.Context, getenv func(string) string, log *slog.Logger, st *store.Store) (Deps, error) {
	protector, err := csrf.FromEnv(getenv)
	if err != nil {
		return Deps{}, err
	}
	return depsWith(ctx, getenv, log, st, protector)
}

// depsWith builds Deps from the environment around a store and a CSRF protector made
// already: the one of CSRF_SECRET, or csrf.Disabled() for a function deployed without
// the secret (DepsForEndpoint).
func depsWith(ctx context.Context, getenv func(string) string, log *slog.Logger, st *store.Store, protector *csrf.Protector) (Deps, error) {
	v, err := auth.New(ctx, auth.ConfigFromEnv(getenv))
	if err != nil {
		return Deps{}, err
	}
	shop, err := config.Load()
	if err != nil {
		return Deps{}, err
	}
	ms, err := mediaFromEnv(ctx, getenv)
	if err != nil {
		return Deps{}, err
	}
	reportLimit, err := ParseErrorReportLimit(getenv("ERROR_REPORT_LIMIT"))
	if err != nil {
		return Deps{}, err
	}
	cc, err := cardpay.ConfigFromEnv(getenv)
	if err != nil {
		return Deps{}, err
	}
	if err := cardpay.LoadSecret(ctx, &cc, store.ConfigFromEnv(getenv).Region); err != nil {
		return Deps{}, err
	}
	pause, err := cardpay.PauseFromEnv(getenv)
	if err != nil {
		return Deps{}, err
	}
	notify := mail.Notices{Shop: shop, SiteURL: cc.SiteURL}
	return Deps{Log: log, Verifier: v, Store: st, Search: search.NewProvider(catalogueIndex(st), searchMaxAge),
		CSRF: protector, Shop: shop, Now: time.Now, Notify: notify, Media: ms, ErrorReportLimit: reportLimit,
		Card: cardpay.NewService(cc, st, notify, time.Now, log), CardOffered: cc.Offered(), StripeWebhookPause: pause,
		SiteURL: cc.SiteURL}, nil
}

// cardService is card payment through Stripe over d's store, as the webhook applies it:
// d.Card, or without a key one with no secret (the webhook then answers 503).
func cardService(d Deps) cardpay.Service {
	if d.Card != nil {
		return *d.Card
	}
	return cardpay.Service{Store: d.Store, Payments: payments.Service{Store: d.Store, Now: d.Now}, Notify: mail.Notices{Shop: d.Shop},
		Now: d.Now, Log: d.Log}
}

// mediaFromEnv is the media bucket MEDIA_BUCKET names (its media/ prefix, which the site
// serves at /media/), or nil without it: the local edge sets its own folder.
func mediaFromEnv(ctx context.Context, getenv func(string) string) (media.Store, error) {
	bucket := getenv("MEDIA_BUCKET")
	if bucket == "" {
		return nil, nil
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(store.ConfigFromEnv(getenv).Region))
	if err != nil {
		return nil, fmt.Errorf("media bucket %s: %w", bucket, err)
	}
	return media.NewS3Store(s3.NewFromConfig(cfg), bucket, "media/"), nil
}

// searchMaxAge is how stale the search index may get before it is rebuilt in the
// background: a catalogue change shows in search within this time.
const searchMaxAge = 5 * time.Minute

// catalogueIndex builds the search index from the table's catalogue.
func catalogueIndex(st *store.Store) search.Loader {
	return func(ctx context.Context) (*search.Index, error) {
		ranges, cats, products, err := st.Catalogue(ctx)
		if err != nil {
			return nil, err
		}
		return search.Build(products, cats, ranges), nil
	}
}

// Endpoint is one /api route: the Lambda of the same name serves it in the cloud (every
// endpoint's Lambda runs cmd/api, told its Name in API_ENDPOINT).
type Endpoint struct {
	Name    string
	Pattern string
	Handler http.Handler
}

// Endpoints lists the whole /api surface: the one list of the API, from which, with
// endpointFunctions below, the deployment (endpoints.json, generated) and the docs follow
// (docs/api.md "The endpoints, and adding one").
func Endpoints(d Deps) []Endpoint {
	baskets := basket.Service{Store: d.Store, Shop: d.Shop, Now: d.Now}
	placer := orders.Placer{Store: d.Store, Shop: d.Shop, Now: d.Now, StaleAfter: orders.DefaultStaleAfter, Notify: d.Notify, Hold: creditHolds(d)}
	life := orders.Lifecycle{Store: d.Store, Notify: d.Notify, Now: d.Now, Payer: payments.Service{Store: d.Store, Now: d.Now},
		DeliveryVATRate: d.Shop.DefaultVATRate, Restock: AlertsOf(d)}
	if d.Card != nil {
		life.CardRefunds = d.Card
	}
	saved := listHandlers{log: d.Log, verify: d.Verifier, st: d.Store, baskets: baskets}
	sts := statements.Service{Store: d.Store, Shop: d.Shop, Now: d.Now}
	stockAlerts := AlertsOf(d)
	return append([]Endpoint{
		{"shoppingCartSmall", "POST /api/shoppingCartSmall", handleShoppingCartSmall(d.Log, d.Verifier, baskets)},
		{"search", "GET /api/search", handleSearch(d.Log, d.Search, d.Now)},
		{"getProfile", "POST /api/getProfile", handleGetProfile(d.Log, d.Verifier, d.Store, d.Shop, d.Now)},
		{"profile", "POST /api/profile", protect(d.Log, d.CSRF, handleUpdateProfile(d.Log, d.Verifier, d.Store, d.Shop, d.Now))},
		{"csrf", "GET /api/csrf", handleCSRF(d.CSRF)},
		{"session", "POST /api/session", handleSessionStart(d.Log, d.Verifier, d.CSRF)},
		{"session", "DELETE /api/session", handleSessionEnd()},
		{"recommended", "POST /api/recommended", handleRecommended(d.Log, d.Verifier, d.Store)},
		{"basket", "POST /api/basket", handleBasket(d.Log, d.Verifier, baskets)},
		{"basketAdd", "POST /api/basket/add", protect(d.Log, d.CSRF, handleBasketAdd(d.Log, d.Verifier, baskets))},
		{"basketAddMany", "POST /api/basket/addMany", protect(d.Log, d.CSRF, handleBasketAddMany(d.Log, d.Verifier, baskets))},
		{"basketSet", "POST /api/basket/set", protect(d.Log, d.CSRF, handleBasketSet(d.Log, d.Verifier, baskets))},
		{"basketRemove", "POST /api/basket/remove", protect(d.Log, d.CSRF, handleBasketRemove(d.Log, d.Verifier, baskets))},
		{"prices", "POST /api/prices", handlePrices(d.Log, d.Verifier, d.Store, d.Shop)},
		// In stock now (issue 39): the SKUs of a category's or range's listing not in stock.
		{"listingStock", "POST /api/listing-stock", handleListingStock(d.Log, d.Verifier, d.Store, d.Now)},
		{"orders", "POST /api/orders", protect(d.Log, d.CSRF, handlePlaceOrder(d.Log, d.Verifier, placer))},
		{"orders", "GET /api/orders", handleOrders(d.Log, d.Verifier, d.Store)},
		{"order", "GET /api/orders/{id}", handleOrder(d.Log, d.Verifier, d.Store, d.CardOffered)},
		// Pay now (issue 36): a card payment of what the order's invoice still owes.
		{"payOrder", "POST /api/orders/{id}/pay", protect(d.Log, d.CSRF, handlePayOrder(d.Log, d.Verifier, d.Card))},
		{"invoice", "GET /api/orders/{id}/invoice", handleInvoice(d.Log, d.Verifier, d.Store, d.Shop)},
		{"creditNote", "GET /api/orders/{id}/creditNotes/{number}", handleCreditNote(d.Log, d.Verifier, d.Store)},
		{"reorder", "POST /api/orders/{id}/reorder", protect(d.Log, d.CSRF, handleReorder(d.Log, d.Verifier, d.Store, baskets))},
		// The buyers' book (issue 38, item 4): forward orders and their lines' ledger.
		{"forwardOrders", "GET /api/forward-orders", handleForwardOrders(d.Log, d.Verifier, d.Store, d.Now)},
		{"forwardOrderLine", "POST /api/forward-orders/{id}/lines", protect(d.Log, d.CSRF, handleReduceForwardLine(d.Log, d.Verifier, d.Store, d.Now))},
		{"billing", "POST /api/billing", protect(d.Log, d.CSRF, handleSaveBilling(d.Log, d.Verifier, d.Store, d.Now, d.CardOffered))},
		{"checkout", "POST /api/checkout", handleCheckout(d.Log, d.Verifier, baskets, d.CardOffered)},
		{"getCoupon", "POST /api/getCoupon", handleGetCoupon(d.Log, d.Verifier, d.Store, d.Now)},
		{"updateCoupon", "POST /api/updateCoupon", protect(d.Log, d.CSRF, handleUpdateCoupon(d.Log, d.Verifier, d.Store, d.Now))},
		{"skus", "POST /api/skus", handleSKUs(d.Log, d.Verifier, baskets)},
		{"lists", "GET /api/lists", saved.index()},
		{"lists", "POST /api/lists", protect(d.Log, d.CSRF, saved.create())},
		{"list", "GET /api/lists/{id}", saved.get()},
		{"list", "POST /api/lists/{id}", protect(d.Log, d.CSRF, saved.change())},
		{"list", "DELETE /api/lists/{id}", protect(d.Log, d.CSRF, saved.remove())},
		{"listBasket", "POST /api/lists/{id}/basket", protect(d.Log, d.CSRF, saved.toBasket())},
		// Back-in-stock alerts (issue 38, item 5): the buyer's own.
		{"alerts", "GET /api/alerts", handleAlerts(d.Log, d.Verifier, stockAlerts)},
		{"alerts", "POST /api/alerts", protect(d.Log, d.CSRF, handleAskAlert(d.Log, d.Verifier, stockAlerts))},
		{"alertRemove", "POST /api/alerts/remove", protect(d.Log, d.CSRF, handleRemoveAlert(d.Log, d.Verifier, stockAlerts))},
		// Statements (issue 35, item 4): the buyer's own.
		{"statement", "GET /api/account/statement", handleStatement(d.Log, d.Verifier, sts)},
		{"statementPdf", "GET /api/account/statement.pdf", handleStatementPDF(d.Log, d.Verifier, sts)},
		{"errors", "POST /api/errors", handleErrorReports(errorReportDeps{Log: d.Log, Store: d.Store, Limit: d.ErrorReportLimit, Now: d.Now})},
		// Card payments (issue 36): Stripe's events, signed with the endpoint's secret (no
		// token, no CSRF: the signature is the authentication).
		{"stripeWebhook", "POST /api/payments/stripe", cardpay.Webhook(cardService(d), d.StripeWebhookPause)},
	}, adminEndpoints(d, life)...)
}

// endpointFunctions are the deploy facts of every endpoint of Endpoints(), beside it so a
// new endpoint is written in this one file: whether its Lambda gets the CSRF secret
// (CSRFSecret: only the endpoints that check or issue tokens, as a protect()ed write
// does), its table grants (Access: grant(actions, key patterns) or indexQuery(index), each
// one IAM statement; TestEndpointsStayWithinTheirTableRights fails on any access they do
// not allow), and optionally MemoryMB (default 256), TimeoutSeconds (default 10, at most
// 29), MediaBucket and PublishBuild. Their routes come from Endpoints(). endpoints.json, which the CDK
// app deploys, is generated from these by go generate ./internal/api/ (cmd/deployment),
// in this order.
//
//go:generate go run ../../cmd/deployment -o endpoints.json
var endpointFunctions = []DeployedFunction{
	// Every endpoint that prices for a buyer (issue 37) may read the price groups: a Query of
	// PRICEGROUP when the function's cache of them is cold and the buyer is in a group.
	{Name: "shoppingCartSmall", Group: "basket", Access: []Grant{grant("BatchGetItem", "USER#*"), grant("BatchGetItem", "PRODUCT#*", "COUPON#*"), grant("Query", "PRICEGROUP")}},
	{Name: "search", Group: "catalogue", MemoryMB: 1024, Access: []Grant{indexQuery("gsi2")}},
	{Name: "getProfile", Group: "account", Access: []Grant{grant("GetItem PutItem", "USER#*")}},
	{Name: "profile", Group: "account", CSRFSecret: true, Access: []Grant{grant("GetItem UpdateItem", "USER#*")}},
	{Name: "csrf", Group: "account", CSRFSecret: true, Access: []Grant{}},
	{Name: "session", Group: "account", CSRFSecret: true, Access: []Grant{}},
	{Name: "recommended", Group: "catalogue", Access: []Grant{grant("GetItem Query", "USER#*"), grant("BatchGetItem", "PRODUCT#*"), indexQuery("gsi1"), indexQuery("gsi2")}},
	{Name: "basket", Group: "basket", Access: []Grant{grant("BatchGetItem", "USER#*"), grant("BatchGetItem", "PRODUCT#*", "COUPON#*"), grant("Query", "PRICEGROUP")}},
	{Name: "basketAdd", Group: "basket", CSRFSecret: true, Access: []Grant{grant("GetItem UpdateItem", "USER#*"), grant("BatchGetItem", "USER#*", "PRODUCT#*")}},
	{Name: "basketAddMany", Group: "basket", CSRFSecret: true, Access: []Grant{grant("GetItem UpdateItem PutItem", "USER#*"), grant("BatchGetItem", "USER#*", "PRODUCT#*")}},
	{Name: "basketSet", Group: "basket", CSRFSecret: true, Access: []Grant{grant("GetItem UpdateItem", "USER#*"), grant("BatchGetItem", "USER#*", "PRODUCT#*", "COUPON#*"), grant("Query", "PRICEGROUP")}},
	{Name: "basketRemove", Group: "basket", CSRFSecret: true, Access: []Grant{grant("GetItem BatchGetItem UpdateItem", "USER#*"), grant("BatchGetItem", "PRODUCT#*", "COUPON#*"), grant("Query", "PRICEGROUP")}},
	{Name: "prices", Group: "catalogue", Access: []Grant{grant("BatchGetItem", "USER#*", "PRODUCT#*"), grant("Query", "PRICEGROUP")}},
	// In stock now (issue 39): a category's products, or a range's categories and theirs,
	// are Queries of the catalogue index; an empty one reads the category or range item to
	// tell it from none.
	{Name: "listingStock", Group: "catalogue", Access: []Grant{indexQuery("gsi1"), grant("GetItem", "CATEGORY#*", "RANGE#*")}},
	{Name: "orders", Group: "orders", CSRFSecret: true, Access: []Grant{
		grant("GetItem BatchGetItem Query PutItem UpdateItem DeleteItem", "USER#*"),
		grant("BatchGetItem UpdateItem", "PRODUCT#*", "COUPON#*"),
		grant("UpdateItem", "COUNTER#ORDER"),
		grant("GetItem PutItem UpdateItem DeleteItem", "PENDING"),
		grant("GetItem UpdateItem", "COUNTER#INVOICE"),
		grant("PutItem", "INVOICE"),
		grant("PutItem DeleteItem", "INVOICING"),
		grant("PutItem", "OUTBOX"),
		grant("ConditionCheckItem", "SENT"),
		grant("Query", "PRICEGROUP"),
	}},
	// An order that went to Stripe lists its refunds to the card: a Query of its account's partition.
	{Name: "order", Group: "orders", Access: []Grant{grant("GetItem Query", "USER#*")}},
	// Pay now (issue 36): reads the order, records the attempt on it (UpdateItem).
	{Name: "payOrder", Group: "orders", CSRFSecret: true, StripeSecret: true, Access: []Grant{grant("GetItem UpdateItem", "USER#*")}},
	{Name: "invoice", Group: "orders", Access: []Grant{grant("GetItem", "USER#*")}},
	{Name: "creditNote", Group: "orders", Access: []Grant{grant("GetItem", "USER#*")}},
	{Name: "reorder", Group: "orders", CSRFSecret: true, Access: []Grant{grant("GetItem UpdateItem PutItem", "USER#*"), grant("BatchGetItem", "USER#*", "PRODUCT#*")}},
	// The buyers' book: the buyer's orders (one Query) and the ledger items of the forward
	// orders' lines (FWD#{sku}); a reduce is one UpdateItem of a ledger item.
	{Name: "forwardOrders", Group: "orders", Access: []Grant{grant("Query", "USER#*"), grant("BatchGetItem", "FWD#*")}},
	{Name: "forwardOrderLine", Group: "orders", CSRFSecret: true, Access: []Grant{grant("Query", "USER#*"), grant("BatchGetItem UpdateItem", "FWD#*")}},
	{Name: "billing", Group: "orders", CSRFSecret: true, Access: []Grant{grant("GetItem UpdateItem", "USER#*")}},
	{Name: "checkout", Group: "basket", Access: []Grant{grant("BatchGetItem", "USER#*"), grant("BatchGetItem", "PRODUCT#*", "COUPON#*"), grant("Query", "PRICEGROUP")}},
	{Name: "getCoupon", Group: "basket", Access: []Grant{grant("BatchGetItem", "COUPON#*")}},
	{Name: "updateCoupon", Group: "basket", CSRFSecret: true, Access: []Grant{grant("UpdateItem", "USER#*"), grant("BatchGetItem", "COUPON#*")}},
	{Name: "skus", Group: "catalogue", Access: []Grant{grant("BatchGetItem", "USER#*", "PRODUCT#*"), grant("Query", "PRICEGROUP")}},
	{Name: "lists", Group: "account", CSRFSecret: true, Access: []Grant{grant("Query PutItem UpdateItem", "USER#*"), grant("BatchGetItem", "USER#*", "PRODUCT#*", "COUPON#*"), grant("Query", "PRICEGROUP")}},
	{Name: "list", Group: "account", CSRFSecret: true, Access: []Grant{grant("GetItem PutItem UpdateItem DeleteItem", "USER#*"), grant("BatchGetItem", "USER#*", "PRODUCT#*"), grant("Query", "PRICEGROUP")}},
	{Name: "listBasket", Group: "account", CSRFSecret: true, Access: []Grant{grant("GetItem UpdateItem PutItem", "USER#*"), grant("BatchGetItem", "USER#*", "PRODUCT#*")}},
	// Back-in-stock alerts (issue 38): the buyer's alert items (read, counted, listed) and
	// the pair's put (ALERT and USER#), their products read; a remove deletes the pair.
	{Name: "alerts", Group: "account", CSRFSecret: true, Access: []Grant{grant("GetItem Query PutItem", "USER#*"), grant("PutItem", "ALERT"), grant("BatchGetItem", "PRODUCT#*")}},
	{Name: "alertRemove", Group: "account", CSRFSecret: true, Access: []Grant{grant("Query DeleteItem", "USER#*"), grant("DeleteItem", "ALERT"), grant("BatchGetItem", "PRODUCT#*")}},
	// Statements (issue 35, item 4): a GetItem and two Queries of the buyer's own partition.
	{Name: "statement", Group: "account", Access: []Grant{grant("GetItem Query", "USER#*")}},
	{Name: "statementPdf", Group: "account", MemoryMB: 512, Access: []Grant{grant("GetItem Query", "USER#*")}},
	{Name: "errors", Group: "errors", Access: []Grant{grant("UpdateItem", "APPERR", "ERRRATE#*")}},
	// The Stripe webhook (issue 36): each event's record; the card payment (its account's
	// orders and payments read, the payment put, its invoice's order updated), the card
	// attempt's outcome and a cancelled order's card refund, with their audit entries and
	// the staff notice.
	{Name: "stripeWebhook", Group: "payments", StripeSecret: true, Access: []Grant{
		grant("PutItem UpdateItem", "STRIPEEVENT#*"),
		grant("GetItem Query PutItem UpdateItem", "USER#*"),
		// A refund to the card (a cancelled order's payment), marked until Stripe answers.
		grant("PutItem DeleteItem", "CARDREFUNDING"),
		grant("PutItem", "AUDIT#ACCOUNT#*", "AUDIT#ORDER#*"),
		grant("PutItem", "OUTBOX"),
		grant("ConditionCheckItem", "SENT"),
	}},
	{Name: "adminMe", Group: "admin", CSRFSecret: true, Access: []Grant{}},
	// Publishing from the back office (issue 40): in the cloud it starts and reads builds
	// of the stage's publish project (PublishBuild), which reads the table itself.
	{Name: "adminPublish", Group: "admin", CSRFSecret: true, PublishBuild: true, Access: []Grant{}},
	{Name: "adminOrders", Group: "admin", CSRFSecret: true, Access: []Grant{indexQuery("gsi3"), grant("GetItem", "USER#*")}},
	// The order's refunds to the card (issue 36): a Query of its account's partition.
	{Name: "adminOrder", Group: "admin", CSRFSecret: true, Access: []Grant{indexQuery("gsi3"), grant("GetItem Query", "USER#*"), grant("Query", "AUDIT#ORDER#*")}},
	// A cancellation of an order paid by card refunds its credit to the card (issue 36):
	// the account's payments and refunds read, the refund written with its CARDREFUNDING
	// marker until Stripe answers.
	// The stock a cancellation gives back emails the buyers waiting for it (issue 38): its
	// products and their alerts read, each alert deleted with its email put.
	{Name: "adminOrderAction", Group: "admin", CSRFSecret: true, StripeSecret: true, Access: []Grant{
		indexQuery("gsi3"),
		grant("GetItem Query UpdateItem PutItem DeleteItem", "USER#*"),
		grant("PutItem DeleteItem", "CARDREFUNDING"),
		grant("Query PutItem", "AUDIT#ORDER#*"),
		grant("PutItem", "AUDIT#ACCOUNT#*"),
		grant("UpdateItem", "PRODUCT#*", "COUPON#*"),
		grant("BatchGetItem", "PRODUCT#*"),
		grant("Query DeleteItem", "ALERT"),
		grant("PutItem DeleteItem", "CANCELLING"),
		grant("GetItem UpdateItem", "COUNTER#CREDITNOTE"),
		grant("PutItem", "CREDITNOTE"),
		grant("PutItem", "OUTBOX"),
		grant("ConditionCheckItem", "SENT"),
	}},
	// A part credit of an order paid by card refunds its credit to the card, as a cancellation does.
	{Name: "adminOrderCredit", Group: "admin", CSRFSecret: true, StripeSecret: true, Access: []Grant{
		indexQuery("gsi3"),
		grant("GetItem Query UpdateItem PutItem", "USER#*"),
		grant("Query PutItem", "AUDIT#ORDER#*"),
		grant("PutItem", "AUDIT#ACCOUNT#*"),
		grant("PutItem DeleteItem", "CARDREFUNDING"),
		grant("UpdateItem", "PRODUCT#*"),
		grant("GetItem UpdateItem", "COUNTER#CREDITNOTE"),
		grant("PutItem", "CREDITNOTE"),
		grant("PutItem", "OUTBOX"),
		grant("ConditionCheckItem", "SENT"),
	}},
	// The payments and refunds exports query each account's partition (issue 35, item 6).
	{Name: "adminExport", Group: "admin", CSRFSecret: true, Access: []Grant{indexQuery("gsi3"), grant("Query", "USER#*")}},
	{Name: "adminAccounts", Group: "admin", CSRFSecret: true, Access: []Grant{indexQuery("gsi3")}},
	{Name: "adminAccount", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem", "USER#*"), grant("Query", "AUDIT#ACCOUNT#*")}},
	{Name: "adminLedger", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem Query", "USER#*")}},
	{Name: "adminPaymentRecord", Group: "admin", CSRFSecret: true, Access: []Grant{
		grant("GetItem Query PutItem UpdateItem", "USER#*"),
		grant("PutItem", "AUDIT#ACCOUNT#*", "AUDIT#ORDER#*"),
	}},
	{Name: "adminPaymentAllocate", Group: "admin", CSRFSecret: true, Access: []Grant{
		grant("GetItem Query UpdateItem", "USER#*"),
		grant("PutItem", "AUDIT#ACCOUNT#*", "AUDIT#ORDER#*"),
	}},
	{Name: "adminRefund", Group: "admin", CSRFSecret: true, Access: []Grant{
		grant("GetItem Query PutItem UpdateItem", "USER#*"),
		grant("PutItem", "AUDIT#ACCOUNT#*"),
	}},
	// Credit hold (issue 35, item 5).
	{Name: "adminCreditHold", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem Query", "USER#*")}},
	{Name: "adminCreditHoldLift", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem Query UpdateItem", "USER#*"), grant("PutItem", "AUDIT#ACCOUNT#*")}},
	// A change of the account's price group reads the group, which must exist (issue 37).
	{Name: "adminAccountUpdate", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem UpdateItem", "USER#*"), grant("Query PutItem", "AUDIT#ACCOUNT#*"), grant("GetItem", "PRICEGROUP")}},
	{Name: "adminCoupons", Group: "admin", CSRFSecret: true, Access: []Grant{indexQuery("gsi3")}},
	{Name: "adminCouponSave", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem PutItem UpdateItem", "COUPON#*"), grant("Query PutItem", "AUDIT#COUPON#*")}},
	{Name: "adminProduct", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem", "PRODUCT#*"), grant("Query", "AUDIT#PRODUCT#*")}},
	// A change that leaves stock emails the buyers waiting for it (issue 38): the product's
	// alerts read, each deleted (ALERT and its USER# mirror) with its email put.
	{Name: "adminStock", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem UpdateItem BatchGetItem", "PRODUCT#*"), grant("Query PutItem", "AUDIT#PRODUCT#*"),
		grant("Query DeleteItem", "ALERT"), grant("DeleteItem", "USER#*"), grant("PutItem", "OUTBOX"), grant("ConditionCheckItem", "SENT")}},
	// Forward products and their demand (issue 38, items 1 and 6).
	{Name: "adminForward", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem UpdateItem", "PRODUCT#*"), grant("Query PutItem", "AUDIT#PRODUCT#*")}},
	{Name: "adminForwardList", Group: "admin", MemoryMB: 512, CSRFSecret: true, Access: []Grant{indexQuery("gsi2")}},
	{Name: "adminForwardDemand", Group: "admin", MemoryMB: 512, TimeoutSeconds: 29, CSRFSecret: true, Access: []Grant{indexQuery("gsi2"), grant("Query", "FWD#*", "RECEIPT"), grant("BatchGetItem", "USER#*", "PRODUCT#*")}},
	{Name: "adminCatalogueCheck", Group: "admin", MemoryMB: 1024, TimeoutSeconds: 29, CSRFSecret: true, Access: []Grant{indexQuery("gsi2")}},
	// The products an import wrote email the buyers waiting for them (issue 38): the
	// alerts read, each alert of a product now in stock deleted with its email put.
	{Name: "adminCatalogueApply", Group: "admin", MemoryMB: 1024, TimeoutSeconds: 29, CSRFSecret: true, Access: []Grant{
		indexQuery("gsi2"),
		grant("GetItem UpdateItem BatchGetItem", "PRODUCT#*"),
		grant("BatchWriteItem", "PRODUCT#*", "CATEGORY#*", "RANGE#*"),
		grant("PutItem", "AUDIT#PRODUCT#*", "AUDIT#IMPORT#CATALOGUE"),
		grant("PutItem DeleteItem", "IMPORT#LOCK"),
		grant("Query DeleteItem", "ALERT"),
		grant("DeleteItem", "USER#*"),
		grant("PutItem", "OUTBOX"),
		grant("ConditionCheckItem", "SENT"),
	}},
	{Name: "adminCatalogueImages", Group: "admin", MemoryMB: 1024, TimeoutSeconds: 29, CSRFSecret: true, MediaBucket: true, Access: []Grant{}},
	{Name: "adminCatalogueExport", Group: "admin", MemoryMB: 512, CSRFSecret: true, Access: []Grant{indexQuery("gsi2")}},
	// Balances and aged debt (issue 35, item 4): every account's ledger, a few at once.
	{Name: "adminBalances", Group: "admin", MemoryMB: 512, TimeoutSeconds: 29, CSRFSecret: true, Access: []Grant{indexQuery("gsi3"), grant("GetItem Query", "USER#*")}},
	{Name: "adminAgedDebt", Group: "admin", MemoryMB: 512, TimeoutSeconds: 29, CSRFSecret: true, Access: []Grant{indexQuery("gsi3"), grant("GetItem Query", "USER#*")}},
	{Name: "adminHealth", Group: "admin", CSRFSecret: true, Access: []Grant{grant("Query", "APPERR", "OUTBOX", "PENDING", "INVOICING", "AUDIT#IMPORT#CATALOGUE")}},
	// Price groups (issue 37): the list is one Query of the PRICEGROUP partition; a save
	// creates (a conditional put) or renames (read, then a conditional update) with its
	// audit entry; an import reads the group and the catalogue it is checked against (the
	// type index, as the catalogue import) and replaces the rules with its audit entry.
	{Name: "adminPriceGroups", Group: "admin", CSRFSecret: true, Access: []Grant{grant("Query", "PRICEGROUP")}},
	{Name: "adminPriceGroupSave", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem PutItem UpdateItem", "PRICEGROUP"), grant("PutItem", "AUDIT#PRICEGROUP#*")}},
	{Name: "adminPriceGroupImport", Group: "admin", MemoryMB: 1024, TimeoutSeconds: 29, CSRFSecret: true, Access: []Grant{
		indexQuery("gsi2"),
		grant("GetItem UpdateItem", "PRICEGROUP"),
		grant("PutItem", "AUDIT#PRICEGROUP#*"),
	}},
	{Name: "adminPriceGroupExport", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem", "PRICEGROUP")}},
	// Receiving forward deliveries (issue 38, docs/forward-orders.md "Receiving and
	// allocation"): a receipt's page proposes from the SKU's forward lines (FWD#) and the
	// forward orders' companies; applying writes the release orders with their invoices
	// and emails, the lines, the accounts' owed and, last, the leftover stock, which emails
	// the buyers waiting for it (the alerts read, each deleted with its email put).
	{Name: "adminReceipts", Group: "admin", CSRFSecret: true, Access: []Grant{grant("Query", "RECEIPT")}},
	{Name: "adminReceipt", Group: "admin", CSRFSecret: true, Access: []Grant{grant("GetItem", "RECEIPT", "USER#*"), grant("Query", "FWD#*")}},
	{Name: "adminReceiptRecord", Group: "admin", CSRFSecret: true, Access: []Grant{
		grant("BatchGetItem", "PRODUCT#*"),
		grant("UpdateItem", "COUNTER#RECEIPT"),
		grant("PutItem", "RECEIPT"),
		grant("Query", "FWD#*"),
		grant("GetItem", "USER#*"),
	}},
	{Name: "adminReceiptApply", Group: "admin", MemoryMB: 512, TimeoutSeconds: 29, CSRFSecret: true, Access: []Grant{
		grant("GetItem UpdateItem", "RECEIPT"),
		grant("Query GetItem UpdateItem", "FWD#*"),
		grant("GetItem PutItem UpdateItem DeleteItem", "USER#*"),
		grant("UpdateItem", "COUNTER#ORDER"),
		grant("UpdateItem BatchGetItem", "PRODUCT#*"),
		grant("Query DeleteItem", "ALERT"),
		grant("GetItem UpdateItem", "COUNTER#INVOICE"),
		grant("PutItem", "INVOICE"),
		grant("PutItem DeleteItem", "INVOICING"),
		grant("PutItem", "OUTBOX"),
		grant("ConditionCheckItem", "SENT"),
	}},
}

// jobFunctions are the deploy facts of the functions no route serves (the order sweeper,
// the email sender; each a functions/cmd/{name}), written to endpoints.json's jobs.
var jobFunctions = []DeployedFunction{
	// The sweep of refunds to a card (issue 36): the CARDREFUNDING markers, the refunds
	// and their sources, and the orders of the last day's credit notes (CREDITNOTE).
	// The sweep of back-in-stock alerts (issue 38): every waiting alert and its product
	// read, each of a product in stock deleted with its email put.
	{Name: "sweepOrders", Group: "jobs", StripeSecret: true, Access: []Grant{
		grant("Query GetItem UpdateItem DeleteItem", "PENDING"),
		grant("UpdateItem", "PRODUCT#*", "COUPON#*"),
		grant("BatchGetItem", "PRODUCT#*"),
		grant("Query DeleteItem", "ALERT"),
		grant("GetItem Query UpdateItem PutItem DeleteItem", "USER#*"),
		grant("Query PutItem DeleteItem", "CARDREFUNDING"),
		grant("PutItem", "AUDIT#ACCOUNT#*"),
		grant("GetItem UpdateItem", "COUNTER#INVOICE"),
		grant("PutItem", "INVOICE"),
		grant("Query PutItem DeleteItem", "INVOICING"),
		grant("Query DeleteItem", "CANCELLING"),
		// Deliveries whose allocation a crash left part-way (issue 38).
		grant("Query GetItem UpdateItem", "RECEIPT"),
		grant("GetItem UpdateItem", "FWD#*"),
		grant("GetItem UpdateItem", "COUNTER#CREDITNOTE"),
		grant("Query PutItem", "CREDITNOTE"),
		grant("PutItem", "OUTBOX"),
		grant("ConditionCheckItem", "SENT"),
	}},
	// The statements Lambda runs daily: the statements on the 1st, the pre-order reminders
	// (package reminders) every day, which read the forward products (the catalogue
	// index) and the accounts' baskets (BatchGetItem).
	{Name: "statements", Group: "jobs", Access: []Grant{
		indexQuery("gsi2"),
		indexQuery("gsi3"),
		grant("GetItem Query BatchGetItem", "USER#*"),
		grant("PutItem", "OUTBOX"),
		grant("ConditionCheckItem", "SENT"),
	}},
	{Name: "sendEmails", Group: "jobs", Access: []Grant{grant("Query UpdateItem DeleteItem", "OUTBOX"), grant("GetItem PutItem", "SENT")}},
}

// NewHandler serves every endpoint, for the local edge. Unknown /api paths answer a
// JSON 404.
func NewHandler(d Deps) http.Handler {
	mux := http.NewServeMux()
	for _, e := range Endpoints(d) {
		mux.Handle(e.Pattern, serving(e.Name, e.Handler))
	}
	mux.Handle("/api/", UnknownEndpoint())
	return mux
}

// UnknownEndpoint answers a JSON 404 naming the path, for /api paths no endpoint serves.
func UnknownEndpoint() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, slog.Default(), &shoperr.NotFoundError{Msg: "There is no API endpoint " + r.URL.Path + "."})
	})
}

// EndpointHandler serves the named endpoint (every method it has), for its Lambda.
func EndpointHandler(d Deps, name string) (http.Handler, error) {
	mux := http.NewServeMux()
	found := false
	for _, e := range Endpoints(d) {
		if e.Name == name {
			mux.Handle(e.Pattern, serving(e.Name, e.Handler))
			found = true
		}
	}
	if !found {
		return nil, fmt.Errorf("no endpoint named %q", name)
	}
	return mux, nil
}
