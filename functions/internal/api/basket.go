package api

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
)

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
// caller's basket lines, most recent first, each line_amount the buyer's own price (in
// pence, ex VAT): the same pricing as the full basket.
func handleShoppingCartSmall(log *slog.Logger, verify auth.Verifier, baskets basket.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		b, _, err := baskets.Priced(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		if len(b.Lines) == 0 {
			encode(w, http.StatusOK, []emptyCartRow{{ID: 1}})
			return
		}
		rows := make([]cartLine, len(b.Lines))
		for i, l := range b.Lines {
			rows[i] = cartLine{ID: l.SKU, SKU: l.SKU, Quantity: l.Quantity, LineAmount: l.NetAmount,
				Product: cartProduct{Name: l.Product.Name, SmallImg: l.Product.SmallImg, PackSize: l.Product.PackSize}}
		}
		encode(w, http.StatusOK, rows)
	})
}
