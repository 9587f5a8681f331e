package api

import (
	"context"
	"log/slog"
	"net/http"
	"sort"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/store"
)

// BasketReader reads a customer's basket lines.
type BasketReader interface {
	BasketLines(ctx context.Context, uid string) ([]store.BasketLine, error)
}

// ProductReader reads products by SKU; unknown SKUs are absent from the answer.
type ProductReader interface {
	ProductsBySKU(ctx context.Context, skus []string) (map[string]catalogue.Product, error)
}

// tokenRequest is the body of endpoints that take only the caller's ID token. A
// missing token is not a 400: it is an unauthenticated call, answered 401.
type tokenRequest struct {
	Token string `json:"token"`
}

func (tokenRequest) Valid(context.Context) map[string]string { return nil }

// cartLine is one row of POST /api/shoppingCartSmall. Amounts are integer pence.
type cartLine struct {
	ID         string      `json:"id"`
	SKU        string      `json:"sku"`
	Quantity   int         `json:"quantity"`
	LineAmount int64       `json:"line_amount"`
	Product    cartProduct `json:"product"`
}

type cartProduct struct {
	Name     string `json:"name"`
	SmallImg string `json:"small_img"`
	PackSize int    `json:"pack_size"`
}

// emptyCartRow is the single row an empty basket answers: the client treats a first
// row with id 1 as "empty" (SPEC.md section 4).
type emptyCartRow struct {
	ID int `json:"id"`
}

// handleShoppingCartSmall answers POST /api/shoppingCartSmall {token} with the
// caller's basket lines, most recent first, priced at list price.
func handleShoppingCartSmall(log *slog.Logger, verify auth.Verifier, baskets BasketReader, products ProductReader) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		lines, err := baskets.BasketLines(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		if len(lines) == 0 {
			encode(w, http.StatusOK, []emptyCartRow{{ID: 1}})
			return
		}
		skus := make([]string, len(lines))
		for i, l := range lines {
			skus[i] = l.SKU
		}
		bySKU, err := products.ProductsBySKU(r.Context(), skus)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		sort.SliceStable(lines, func(i, j int) bool { return lines[i].UpdatedAt.After(lines[j].UpdatedAt) })
		rows := make([]cartLine, 0, len(lines))
		for _, l := range lines {
			p, ok := bySKU[l.SKU]
			if !ok {
				// A line whose product left the catalogue is not shown as buyable.
				log.WarnContext(r.Context(), "basket line for unknown product", "request_id", RequestID(r.Context()), "sku", l.SKU)
				continue
			}
			rows = append(rows, cartLine{
				ID: l.SKU, SKU: l.SKU, Quantity: l.Quantity,
				LineAmount: int64(l.Quantity) * p.UnitPrice,
				Product:    cartProduct{Name: p.Name, SmallImg: p.SmallImg, PackSize: p.PackSize},
			})
		}
		if len(rows) == 0 {
			encode(w, http.StatusOK, []emptyCartRow{{ID: 1}})
			return
		}
		encode(w, http.StatusOK, rows)
	})
}
