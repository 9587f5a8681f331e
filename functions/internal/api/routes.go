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
	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/search"
	"github.com/tradeshop/functions/internal/shoperr"
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
	// Publisher publishes the catalogue from the back office; nil where the stack
	// cannot (the cloud: a release engineer runs scripts/release).
	Publisher Publisher
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
	return Deps{Log: log, Verifier: v, Store: st, Search: search.NewProvider(catalogueIndex(st), searchMaxAge),
		CSRF: protector, Shop: shop, Now: time.Now, Notify: mail.Notices{Shop: shop}, Media: ms}, nil
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

// Endpoints lists the whole /api surface: the one list of the API, from which the
// deployment (endpoints.json) and the docs follow, checked by endpoints_test.go
// (docs/api.md "The endpoints, and adding one").
func Endpoints(d Deps) []Endpoint {
	baskets := basket.Service{Store: d.Store, Shop: d.Shop, Now: d.Now}
	placer := orders.Placer{Store: d.Store, Shop: d.Shop, Now: d.Now, StaleAfter: orders.DefaultStaleAfter, Notify: d.Notify}
	life := orders.Lifecycle{Store: d.Store, Notify: d.Notify, Now: d.Now}
	saved := listHandlers{log: d.Log, verify: d.Verifier, st: d.Store, baskets: baskets}
	return append([]Endpoint{
		{"shoppingCartSmall", "POST /api/shoppingCartSmall", handleShoppingCartSmall(d.Log, d.Verifier, baskets)},
		{"search", "GET /api/search", handleSearch(d.Log, d.Search)},
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
		{"orders", "POST /api/orders", protect(d.Log, d.CSRF, handlePlaceOrder(d.Log, d.Verifier, placer))},
		{"orders", "GET /api/orders", handleOrders(d.Log, d.Verifier, d.Store)},
		{"order", "GET /api/orders/{id}", handleOrder(d.Log, d.Verifier, d.Store)},
		{"invoice", "GET /api/orders/{id}/invoice", handleInvoice(d.Log, d.Verifier, d.Store, d.Shop)},
		{"reorder", "POST /api/orders/{id}/reorder", protect(d.Log, d.CSRF, handleReorder(d.Log, d.Verifier, d.Store, baskets))},
		{"billing", "POST /api/billing", protect(d.Log, d.CSRF, handleSaveBilling(d.Log, d.Verifier, d.Store, d.Now))},
		{"checkout", "POST /api/checkout", handleCheckout(d.Log, d.Verifier, baskets)},
		{"getCoupon", "POST /api/getCoupon", handleGetCoupon(d.Log, d.Verifier, d.Store, d.Now)},
		{"updateCoupon", "POST /api/updateCoupon", protect(d.Log, d.CSRF, handleUpdateCoupon(d.Log, d.Verifier, d.Store, d.Now))},
		{"skus", "POST /api/skus", handleSKUs(d.Log, d.Verifier, baskets)},
		{"lists", "GET /api/lists", saved.index()},
		{"lists", "POST /api/lists", protect(d.Log, d.CSRF, saved.create())},
		{"list", "GET /api/lists/{id}", saved.get()},
		{"list", "POST /api/lists/{id}", protect(d.Log, d.CSRF, saved.change())},
		{"list", "DELETE /api/lists/{id}", protect(d.Log, d.CSRF, saved.remove())},
		{"listBasket", "POST /api/lists/{id}/basket", protect(d.Log, d.CSRF, saved.toBasket())},
	}, adminEndpoints(d, life)...)
}

// NewHandler serves every endpoint, for the local edge. Unknown /api paths answer a
// JSON 404.
func NewHandler(d Deps) http.Handler {
	mux := http.NewServeMux()
	for _, e := range Endpoints(d) {
		mux.Handle(e.Pattern, e.Handler)
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
			mux.Handle(e.Pattern, e.Handler)
			found = true
		}
	}
	if !found {
		return nil, fmt.Errorf("no endpoint named %q", name)
	}
	return mux, nil
}
