package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

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
	if !catalogue.ValidSKU(l.SKU) {
		problems["sku"] = "The SKU must be a product SKU such as GC101-00001."
	}
	if l.Quantity == nil {
		problems["quantity"] = "The quantity is required: a number of units, a whole number of packs."
	} else if *l.Quantity < 0 || *l.Quantity > pricing.MaxLineUnits {
		problems["quantity"] = fmt.Sprintf("The quantity must be from 0 to %d units.", pricing.MaxLineUnits)
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
	if !catalogue.ValidSKU(r.SKU) {
		return map[string]string{"sku": "must be a product SKU such as GC101-00001"}
	}
	return nil
}

// answerPriced encodes a priced basket, or the error that stopped it.
func answerPriced(w http.ResponseWriter, r *http.Request, log *slog.Logger, p basket.Priced, err error) {
	if err != nil {
		writeError(w, r, log, err)
		return
	}
	encode(w, http.StatusOK, basketAnswerOf(p))
}

// changeAnswer is what an add answers (POST /api/basket/add, /api/basket/addMany): the
// lines it added to, each as the basket now holds it, and how many lines the basket
// holds; not the priced basket, which no page adding to it shows (the basket page and
// the header's basket read it themselves).
type changeAnswer struct {
	Lines   int           `json:"lines"`
	Changed []changedLine `json:"changed"`
}

type changedLine struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"` // the units the line holds now
}

// answerChange encodes what an add did, or the error that stopped it.
func answerChange(w http.ResponseWriter, r *http.Request, log *slog.Logger, c basket.Change, err error) {
	if err != nil {
		writeError(w, r, log, err)
		return
	}
	a := changeAnswer{Lines: len(c.Basket.Lines), Changed: make([]changedLine, len(c.Lines))}
	for i, l := range c.Lines {
		a.Changed[i] = changedLine{SKU: l.SKU, Quantity: l.Quantity}
	}
	encode(w, http.StatusOK, a)
}

// handleBasket answers POST /api/basket {token}: the full priced basket.
func handleBasket(log *slog.Logger, verify auth.Verifier, baskets basket.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		p, _, err := baskets.Priced(r.Context(), who.UID)
		answerPriced(w, r, log, p, err)
	})
}

// handleBasketAdd answers POST /api/basket/add {token, sku, quantity}: adds whole packs
// in one atomic update (two tabs adding at once both count), and answers the line as it
// is now and the basket's line count.
func handleBasketAdd(log *slog.Logger, verify auth.Verifier, baskets basket.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req lineRequest) {
		c, err := baskets.Add(r.Context(), who.UID, req.SKU, *req.Quantity)
		answerChange(w, r, log, c, err)
	})
}

// handleBasketSet answers POST /api/basket/set {token, sku, quantity}: sets a line to
// exactly quantity units; 0 removes it.
func handleBasketSet(log *slog.Logger, verify auth.Verifier, baskets basket.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req lineRequest) {
		p, err := baskets.Set(r.Context(), who.UID, req.SKU, *req.Quantity)
		answerPriced(w, r, log, p, err)
	})
}

// handleBasketRemove answers POST /api/basket/remove {token, sku}.
func handleBasketRemove(log *slog.Logger, verify auth.Verifier, baskets basket.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req removeRequest) {
		p, err := baskets.Remove(r.Context(), who.UID, req.SKU)
		answerPriced(w, r, log, p, err)
	})
}

// maxBatchLines bounds one add of many lines (a grid's "Add all to basket", a quick
// order of up to a whole basket): one atomic write of the basket.
const maxBatchLines = basket.MaxAddLines

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
		problems["lines"] = fmt.Sprintf("Send 1 to %d lines at once.", maxBatchLines)
	}
	seen := map[string]bool{}
	for i, l := range b.Lines {
		switch {
		case !catalogue.ValidSKU(l.SKU):
			problems[fmt.Sprintf("lines[%d].sku", i)] = fmt.Sprintf("Line %d: the SKU must be a product SKU such as GC101-00001.", i+1)
		case seen[l.SKU]:
			problems[fmt.Sprintf("lines[%d].sku", i)] = fmt.Sprintf("Line %d: %s is listed twice; put it on one line.", i+1, l.SKU)
		case l.Quantity <= 0 || l.Quantity > pricing.MaxLineUnits:
			problems[fmt.Sprintf("lines[%d].quantity", i)] = fmt.Sprintf("Line %d: the quantity must be from 1 to %d units.", i+1, pricing.MaxLineUnits)
		}
		seen[l.SKU] = true
	}
	return problems
}

// handleBasketAddMany answers POST /api/basket/addMany {token, lines}: the grid's "Add
// all to basket" and the quick order's add. Every line is checked, then all are added in
// one atomic write: a bad line adds nothing, and the 409 lists every bad line. 200
// answers the lines as they are now and the basket's line count.
func handleBasketAddMany(log *slog.Logger, verify auth.Verifier, baskets basket.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req batchRequest) {
		adds := make([]basket.Add, len(req.Lines))
		for i, l := range req.Lines {
			adds[i] = basket.Add{SKU: l.SKU, Quantity: l.Quantity}
		}
		c, err := baskets.AddMany(r.Context(), who.UID, adds)
		answerChange(w, r, log, c, err)
	})
}
