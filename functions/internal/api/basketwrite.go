package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
)

var skuPattern = regexp.MustCompile(`^[A-Z]{2}\d{3}-\d{5}$`)

// lineRequest is the body of the basket writes: {token, sku, quantity}.
type lineRequest struct {
	Token    string `json:"token"`
	SKU      string `json:"sku"`
	Quantity *int   `json:"quantity"`
}

func (l lineRequest) idToken() string { return l.Token }

// Valid checks the shape; pack sizes and stock are checked against the product.
func (l lineRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if !skuPattern.MatchString(l.SKU) {
		problems["sku"] = "must be a product SKU such as GC101-00001"
	}
	if l.Quantity == nil {
		problems["quantity"] = "is required: a number of units, a whole number of packs"
	} else if *l.Quantity < 0 || *l.Quantity > pricing.MaxLineUnits {
		problems["quantity"] = fmt.Sprintf("must be from 0 to %d units", pricing.MaxLineUnits)
	}
	return problems
}

// removeRequest is {token, sku}.
type removeRequest struct {
	Token string `json:"token"`
	SKU   string `json:"sku"`
}

func (r removeRequest) idToken() string { return r.Token }

func (r removeRequest) Valid(context.Context) map[string]string {
	if !skuPattern.MatchString(r.SKU) {
		return map[string]string{"sku": "must be a product SKU such as GC101-00001"}
	}
	return nil
}

// errConflict is a request the catalogue refuses (out of stock, more than in stock):
// answered 409 with its message.
type errConflict struct{ msg string }

func (e *errConflict) Error() string { return e.msg }

// lineLimit is the most units one basket line of p may hold: the line maximum, or the
// stock when there is less.
func lineLimit(p catalogue.Product) int { return min(pricing.MaxLineUnits, p.Stock) }

// buyable checks that sku exists, is in stock and that quantity is whole packs within
// the line maximum and the stock.
func buyable(ctx context.Context, st BasketStore, sku string, quantity int) (catalogue.Product, error) {
	products, err := st.ProductsBySKU(ctx, []string{sku})
	if err != nil {
		return catalogue.Product{}, err
	}
	return checkBuyable(products, sku, quantity)
}

// checkBuyable is buyable's check against products already read (one batch read serves
// every line of a request).
func checkBuyable(products map[string]catalogue.Product, sku string, quantity int) (catalogue.Product, error) {
	p, ok := products[sku]
	if !ok {
		return catalogue.Product{}, &errMissing{msg: "no product with SKU " + sku}
	}
	if p.Stock <= 0 {
		return p, &errConflict{msg: fmt.Sprintf("%s is out of stock", p.Name)}
	}
	if err := pricing.CheckQuantity(quantity, p.PackSize); err != nil {
		return p, invalidField("quantity", err.Error())
	}
	if quantity > p.Stock {
		return p, &errConflict{msg: fmt.Sprintf("only %d units of %s are in stock", p.Stock, p.Name)}
	}
	return p, nil
}

func answerBasket(w http.ResponseWriter, r *http.Request, log *slog.Logger, st BasketStore, shop config.Shop, uid string, now time.Time) {
	a, err := priceBasket(r.Context(), st, shop, uid, now)
	if err != nil {
		writeError(w, r, log, err)
		return
	}
	encode(w, http.StatusOK, a)
}

// handleBasket answers POST /api/basket {token}: the full priced basket.
func handleBasket(log *slog.Logger, verify auth.Verifier, st BasketStore, shop config.Shop, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		answerBasket(w, r, log, st, shop, who.UID, now())
	})
}

// handleBasketAdd answers POST /api/basket/add {token, sku, quantity}: adds whole packs
// in one atomic update (two tabs adding at once both count).
func handleBasketAdd(log *slog.Logger, verify auth.Verifier, st BasketStore, shop config.Shop, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req lineRequest) {
		p, err := buyable(r.Context(), st, req.SKU, *req.Quantity)
		if err == nil {
			err = st.AddToBasketUpTo(r.Context(), who.UID, p.SKU, *req.Quantity, lineLimit(p), now())
		}
		if errors.Is(err, store.ErrLineFull) {
			err = &errConflict{msg: fmt.Sprintf("that would take %s past the most you can order (%d units)", p.Name, lineLimit(p))}
		}
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		answerBasket(w, r, log, st, shop, who.UID, now())
	})
}

// handleBasketSet answers POST /api/basket/set {token, sku, quantity}: sets a line to
// exactly quantity units; 0 removes it.
func handleBasketSet(log *slog.Logger, verify auth.Verifier, st BasketStore, shop config.Shop, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req lineRequest) {
		var err error
		if *req.Quantity == 0 {
			err = st.RemoveFromBasket(r.Context(), who.UID, req.SKU)
		} else if _, err = buyable(r.Context(), st, req.SKU, *req.Quantity); err == nil {
			err = st.SetBasketQuantity(r.Context(), who.UID, req.SKU, *req.Quantity, now())
		}
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		answerBasket(w, r, log, st, shop, who.UID, now())
	})
}

// handleBasketRemove answers POST /api/basket/remove {token, sku}.
func handleBasketRemove(log *slog.Logger, verify auth.Verifier, st BasketStore, shop config.Shop, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req removeRequest) {
		if err := st.RemoveFromBasket(r.Context(), who.UID, req.SKU); err != nil {
			writeError(w, r, log, err)
			return
		}
		answerBasket(w, r, log, st, shop, who.UID, now())
	})
}

// maxBatchLines bounds one "Add all to basket": a grid page holds 48 products.
const maxBatchLines = 100

// batchRequest is {token, lines: [{sku, quantity}]}.
type batchRequest struct {
	Token string      `json:"token"`
	Lines []batchLine `json:"lines"`
}

type batchLine struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

func (b batchRequest) idToken() string { return b.Token }

func (b batchRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if len(b.Lines) == 0 || len(b.Lines) > maxBatchLines {
		problems["lines"] = fmt.Sprintf("must hold 1 to %d lines", maxBatchLines)
	}
	seen := map[string]bool{}
	for i, l := range b.Lines {
		switch {
		case !skuPattern.MatchString(l.SKU):
			problems[fmt.Sprintf("lines[%d].sku", i)] = "must be a product SKU such as GC101-00001"
		case seen[l.SKU]:
			problems[fmt.Sprintf("lines[%d].sku", i)] = "is listed twice"
		case l.Quantity <= 0 || l.Quantity > pricing.MaxLineUnits:
			problems[fmt.Sprintf("lines[%d].quantity", i)] = fmt.Sprintf("must be from 1 to %d units", pricing.MaxLineUnits)
		}
		seen[l.SKU] = true
	}
	return problems
}

// handleBasketAddMany answers POST /api/basket/addMany {token, lines}: the grid's "Add
// all to basket". Every line is checked before any is written, so a bad line adds
// nothing; each write is then the same atomic add as a single Add.
func handleBasketAddMany(log *slog.Logger, verify auth.Verifier, st BasketStore, shop config.Shop, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req batchRequest) {
		skus := make([]string, len(req.Lines))
		for i, l := range req.Lines {
			skus[i] = l.SKU
		}
		products, err := st.ProductsBySKU(r.Context(), skus)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		limits := make([]int, len(req.Lines))
		for i, l := range req.Lines {
			p, err := checkBuyable(products, l.SKU, l.Quantity)
			if err != nil {
				writeError(w, r, log, fmt.Errorf("line %d (%s): %w", i+1, l.SKU, err))
				return
			}
			limits[i] = lineLimit(p)
		}
		for i, l := range req.Lines {
			if err := st.AddToBasketUpTo(r.Context(), who.UID, l.SKU, l.Quantity, limits[i], now()); err != nil {
				if errors.Is(err, store.ErrLineFull) {
					err = &errConflict{msg: fmt.Sprintf("%s would pass the most you can order; the lines before it were added", l.SKU)}
				}
				writeError(w, r, log, err)
				return
			}
		}
		answerBasket(w, r, log, st, shop, who.UID, now())
	})
}
