package api

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"sync"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
)

// recommendedCount is how many products the Recommended Products page shows.
const recommendedCount = 12

// Recommendations draw on what the buyer has shown interest in, newest first, so that what
// they cost does not grow with the basket or the order history: the products of at most
// recentLines lines (one BatchGetItem), and the categories of at most basketCategories of
// them (one Query each, side by side). The lines are the basket's; with nothing in the
// basket to go on, those of the buyer's recentOrders newest orders (one Query); with no
// orders either, the catalogue's first leadingCategories categories in the order the
// shop's menu shows them (one Query of the catalogue index). A recommendation from the
// basket costs at most 2 + basketCategories calls; with an empty basket, one from the
// orders at most 3 + basketCategories, and a new buyer's 3 + leadingCategories.
const (
	recentLines       = 100
	basketCategories  = 4
	recentOrders      = 3
	leadingCategories = 6
)

// Why the products were picked, for the page's lead line.
const (
	fromBasket    = "basket"    // the categories of the basket's newest lines
	fromOrders    = "orders"    // the categories of the buyer's newest orders
	fromCatalogue = "catalogue" // the first categories of the catalogue
)

// RecommendationReader reads what recommendations draw on: the buyer's basket and newest
// orders, the products of their lines, and the catalogue's categories and their products.
type RecommendationReader interface {
	Basket(ctx context.Context, uid string) (basket.Basket, error)
	OrdersPage(ctx context.Context, uid, after string, n int) ([]orders.Order, string, error)
	ProductsBySKU(ctx context.Context, skus []string) (map[string]catalogue.Product, error)
	Categories(ctx context.Context) ([]catalogue.Category, error)
	CategoryProducts(ctx context.Context, categoryID, limit int) ([]catalogue.Product, error)
}

type recommendedAnswer struct {
	Reason   string              `json:"reason" ts:"'basket' | 'orders' | 'catalogue'"`
	Products []productCardAnswer `json:"products"`
}

// handleRecommended answers POST /api/recommended {token}: in-stock products (never a
// discontinued one, nor one in the basket) from the categories of the buyer's newest
// basket lines; failing those, of the lines of their newest orders; failing those, from
// the catalogue's first categories.
func handleRecommended(log *slog.Logger, verify auth.Verifier, from RecommendationReader) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		reason, picked, err := recommend(r.Context(), from, who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		encode(w, http.StatusOK, recommendedAnswer{Reason: reason, Products: picked})
	})
}

// recommend picks uid's recommendations and says what from: the first source, of basket,
// orders and catalogue, that yields any product.
func recommend(ctx context.Context, from RecommendationReader, uid string) (string, []productCardAnswer, error) {
	b, err := from.Basket(ctx, uid)
	if err != nil {
		return "", nil, err
	}
	inBasket := map[string]bool{}
	for _, l := range b.Lines {
		inBasket[l.SKU] = true
	}
	skus := basket.Basket{Lines: b.Lines[:min(len(b.Lines), recentLines)]}.SKUs() // newest first
	if picked, err := fromLines(ctx, from, skus, inBasket); err != nil || len(picked) > 0 {
		return fromBasket, picked, err
	}
	placed, _, err := from.OrdersPage(ctx, uid, "", recentOrders)
	if err != nil {
		return "", nil, err
	}
	skus = orderedSKUs(placed)
	if picked, err := fromLines(ctx, from, skus, inBasket); err != nil || len(picked) > 0 {
		return fromOrders, picked, err
	}
	cats, err := from.Categories(ctx)
	if err != nil {
		return "", nil, err
	}
	slices.SortFunc(cats, func(a, b catalogue.Category) int { return cmp.Compare(a.Order, b.Order) })
	ids := make([]int, 0, leadingCategories)
	for _, c := range cats[:min(len(cats), leadingCategories)] {
		ids = append(ids, c.ID)
	}
	picked, err := pick(ctx, from, ids, inBasket)
	return fromCatalogue, picked, err
}

// orderedSKUs are the SKUs of orders' lines, newest order first, each once, at most
// recentLines of them.
func orderedSKUs(placed []orders.Order) []string {
	var skus []string
	seen := map[string]bool{}
	for _, o := range placed {
		for _, l := range o.Lines {
			if !seen[l.SKU] && len(skus) < recentLines {
				seen[l.SKU] = true
				skus = append(skus, l.SKU)
			}
		}
	}
	return skus
}

// fromLines picks from the categories of the products of skus (newest first), at most
// basketCategories of them. A discontinued product says nothing of the buyer (the basket
// does not show its line), so its category does not count.
func fromLines(ctx context.Context, from RecommendationReader, skus []string, skip map[string]bool) ([]productCardAnswer, error) {
	if len(skus) == 0 {
		return nil, nil
	}
	bySKU, err := from.ProductsBySKU(ctx, skus)
	if err != nil {
		return nil, err
	}
	var categories []int
	for _, sku := range skus {
		if p, ok := bySKU[sku]; ok && !p.Discontinued() && !slices.Contains(categories, p.CategoryID) && len(categories) < basketCategories {
			categories = append(categories, p.CategoryID)
		}
	}
	if len(categories) == 0 {
		return nil, nil
	}
	return pick(ctx, from, categories, skip)
}

// pick takes in-stock products not in the basket and not discontinued from the
// categories in turn, round robin, so every category is represented. The categories are
// read side by side: one round trip's time.
func pick(ctx context.Context, cats RecommendationReader, categories []int, skip map[string]bool) ([]productCardAnswer, error) {
	lists := make([][]catalogue.Product, len(categories))
	errs := make([]error, len(categories))
	var wg sync.WaitGroup
	for i, id := range categories {
		wg.Go(func() { lists[i], errs[i] = cats.CategoryProducts(ctx, id, 3*recommendedCount) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	out := []productCardAnswer{}
	for i := 0; len(out) < recommendedCount; i++ {
		added := false
		for _, ps := range lists {
			if i < len(ps) {
				added = true
				if p := ps[i]; p.Stock > 0 && !p.Discontinued() && !skip[p.SKU] && len(out) < recommendedCount {
					out = append(out, productCardOfProduct(p))
				}
			}
		}
		if !added {
			break
		}
	}
	return out, nil
}
