package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// ListingStockReader reads the products of a category page's or a range page's listing
// with what their live availability is told from (store.CategoryStock, store.RangeStock):
// store.ErrNotFound for a category or range there is not.
type ListingStockReader interface {
	CategoryStock(ctx context.Context, id int) ([]catalogue.Product, error)
	RangeStock(ctx context.Context, urlText string) ([]catalogue.Product, error)
}

// listingStockRequest names one listing: a category by id or a range by its urlText,
// exactly one of the two.
type listingStockRequest struct {
	Token    string `json:"token"`
	Category *int   `json:"category"`
	Range    string `json:"range"`
}

func (l listingStockRequest) idToken() string { return l.Token }

func (l listingStockRequest) Valid(context.Context) map[string]string {
	switch {
	case l.Category == nil && l.Range == "":
		return map[string]string{"category": "Name a category or a range.", "range": "Name a category or a range."}
	case l.Category != nil && l.Range != "":
		return map[string]string{"category": "Name a category or a range, not both.", "range": "Name a category or a range, not both."}
	case l.Category != nil && !catalogue.ValidCategoryID(*l.Category):
		return map[string]string{"category": "The category must be a category id (a positive whole number)."}
	case l.Category == nil && !catalogue.ValidRangeURLText(l.Range):
		return map[string]string{"range": "The range must be an outlet range such as wholesale_balloons."}
	}
	return nil
}

// listingStockAnswer is POST /api/listing-stock's answer: the SKUs of the listing that
// are not in stock now (out of stock, or on pre-order), in SKU order ([] for none).
type listingStockAnswer struct {
	NotInStock []string `json:"not_in_stock"`
}

// handleListingStock answers POST /api/listing-stock {token, category | range}: the SKUs
// of the category's or range's active products not in stock now (basket.InStockNow:
// availability neither in stock nor low), which a signed-in buyer's "In
// stock now" filter hides from the static page's listing (docs/catalogue.md). The static
// pages cannot know the stock; the answer is the same for every buyer, but asking it
// needs a sign-in, as the prices do.
func handleListingStock(log *slog.Logger, verify auth.Verifier, from ListingStockReader, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, _ auth.Claims, req listingStockRequest) {
		var products []catalogue.Product
		var err error
		if req.Category != nil {
			products, err = from.CategoryStock(r.Context(), *req.Category)
			if errors.Is(err, store.ErrNotFound) {
				err = &shoperr.NotFoundError{Msg: "There is no category " + strconv.Itoa(*req.Category) + "."}
			}
		} else {
			products, err = from.RangeStock(r.Context(), req.Range)
			if errors.Is(err, store.ErrNotFound) {
				err = &shoperr.NotFoundError{Msg: "There is no range " + req.Range + "."}
			}
		}
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		encode(w, http.StatusOK, listingStockAnswer{NotInStock: notInStock(products, now())})
	})
}

// notInStock answers the SKUs of the active products not in stock at now, sorted.
func notInStock(products []catalogue.Product, now time.Time) []string {
	out := []string{}
	for _, p := range catalogue.Active(products) {
		if !basket.InStockNow(p, now) {
			out = append(out, p.SKU)
		}
	}
	slices.Sort(out)
	return out
}
