package api

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
)

// recommendedCount is how many products the Recommended Products page shows.
const recommendedCount = 12

// bestSellerCategories stand in for sales figures until orders exist: the categories
// trade buyers restock most (birthdays, value cards, foil balloons, gift bags).
var bestSellerCategories = []int{101, 102, 120, 601, 403, 106}

// CategoryReader reads a category's products.
type CategoryReader interface {
	CategoryProducts(ctx context.Context, categoryID, limit int) ([]catalogue.Product, error)
}

type recommendedAnswer struct {
	Reason   string              `json:"reason"` // "basket" or "best-sellers"
	Products []pages.ProductCard `json:"products"`
}

// BasketReader reads a buyer's basket.
type BasketReader interface {
	Basket(ctx context.Context, uid string) (basket.Basket, error)
}

// handleRecommended answers POST /api/recommended {token}: in-stock products (never a
// discontinued one) from the categories of the buyer's basket that are not in it yet,
// or best sellers when the basket gives nothing to go on. (Order history joins in when
// orders exist.)
func handleRecommended(log *slog.Logger, verify auth.Verifier, baskets BasketReader, products ProductReader, cats CategoryReader) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		b, err := baskets.Basket(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		lines := b.Lines
		inBasket := map[string]bool{}
		skus := make([]string, 0, len(lines))
		for _, l := range lines {
			inBasket[l.SKU] = true
			skus = append(skus, l.SKU)
		}
		bySKU, err := products.ProductsBySKU(r.Context(), skus)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		var categories []int
		seen := map[int]bool{}
		for _, l := range lines {
			// A discontinued product's line is not shown in the basket: it says nothing.
			if p, ok := bySKU[l.SKU]; ok && !p.Discontinued() && !seen[p.CategoryID] {
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
// categories in turn, round robin, so every category is represented.
func pick(ctx context.Context, cats CategoryReader, categories []int, skip map[string]bool) ([]pages.ProductCard, error) {
	lists := make([][]catalogue.Product, 0, len(categories))
	for _, id := range categories {
		ps, err := cats.CategoryProducts(ctx, id, 3*recommendedCount)
		if err != nil {
			return nil, err
		}
		lists = append(lists, ps)
	}
	out := []pages.ProductCard{}
	for i := 0; len(out) < recommendedCount; i++ {
		added := false
		for _, ps := range lists {
			if i < len(ps) {
				added = true
				if p := ps[i]; p.Stock > 0 && !p.Discontinued() && !skip[p.SKU] && len(out) < recommendedCount {
					out = append(out, pages.Card(p))
				}
			}
		}
		if !added {
			break
		}
	}
	return out, nil
}
