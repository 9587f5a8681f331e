package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
)

// recommendedCount is how many products the Recommended Products page shows.
const recommendedCount = 12

// bestSellerCategories stand in for sales figures until orders exist: the categories
// trade buyers restock most (birthdays, value cards, foil balloons, gift bags).
var bestSellerCategories = []int{101, 102, 120, 601, 403, 106}

// Recommendations draw on the basket's newest lines, so that what they cost does not grow
// with the basket: the products of at most recentLines lines (one BatchGetItem), and the
// categories of at most basketCategories of them, newest first (one Query each, side by
// side). A recommendation costs at most 2 + basketCategories calls whatever the basket
// holds, or 1 + len(bestSellerCategories) for an empty one.
const (
	recentLines      = 100
	basketCategories = 4
)

// CategoryReader reads a category's products.
type CategoryReader interface {
	CategoryProducts(ctx context.Context, categoryID, limit int) ([]catalogue.Product, error)
}

type recommendedAnswer struct {
	Reason   string              `json:"reason"` // "basket" or "best-sellers"
	Products []productCardAnswer `json:"products"`
}

// BasketReader reads a buyer's basket.
type BasketReader interface {
	Basket(ctx context.Context, uid string) (basket.Basket, error)
}

// handleRecommended answers POST /api/recommended {token}: in-stock products (never a
// discontinued one) from the categories of the buyer's newest basket lines that are not
// in it yet, or best sellers when the basket gives nothing to go on. (Order history joins
// in when orders exist.)
func handleRecommended(log *slog.Logger, verify auth.Verifier, baskets BasketReader, products ProductReader, cats CategoryReader) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		b, err := baskets.Basket(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		inBasket := map[string]bool{}
		for _, l := range b.Lines {
			inBasket[l.SKU] = true
		}
		recent := b.Lines[:min(len(b.Lines), recentLines)] // newest first
		bySKU, err := products.ProductsBySKU(r.Context(), basket.Basket{Lines: recent}.SKUs())
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		var categories []int
		seen := map[int]bool{}
		for _, l := range recent {
			// A discontinued product's line is not shown in the basket: it says nothing.
			if p, ok := bySKU[l.SKU]; ok && !p.Discontinued() && !seen[p.CategoryID] && len(categories) < basketCategories {
				seen[p.CategoryID] = true
				categories = append(categories, p.CategoryID)
			}
		}
		reason := "basket"
		if len(categories) == 0 {
			reason, categories = "best-sellers", bestSellerCategories
		}
		picked, err := pick(r.Context(), cats, categories, inBasket)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		if len(picked) == 0 && reason == "basket" {
			reason = "best-sellers"
			if picked, err = pick(r.Context(), cats, bestSellerCategories, inBasket); err != nil {
				writeError(w, r, log, err)
				return
			}
		}
		encode(w, http.StatusOK, recommendedAnswer{Reason: reason, Products: picked})
	})
}

// pick takes in-stock products not in the basket and not discontinued from the
// categories in turn, round robin, so every category is represented. The categories are
// read side by side: one round trip's time.
func pick(ctx context.Context, cats CategoryReader, categories []int, skip map[string]bool) ([]productCardAnswer, error) {
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
