package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
)

// maxLookupLines bounds one POST /api/skus: a quick order's most lines.
const maxLookupLines = basket.MaxAddLines

// maxLookupQuantity bounds a quantity asked about: far over any line's most, so a typo of
// a few extra digits is told as over the limit, not refused as a bad request.
const maxLookupQuantity = 1_000_000

// maxSKULength bounds a SKU as typed; one that is not SKU-shaped is told as unknown.
const maxSKULength = 64

// skusRequest is POST /api/skus {token, lines: [{sku, quantity}]}.
type skusRequest struct {
	Token string      `json:"token"`
	Lines []batchLine `json:"lines"`
}

func (s skusRequest) idToken() string { return s.Token }

func (s skusRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if len(s.Lines) == 0 || len(s.Lines) > maxLookupLines {
		problems["lines"] = fmt.Sprintf("Send 1 to %d lines at once.", maxLookupLines)
	}
	seen := map[string]bool{}
	for i, l := range s.Lines {
		switch {
		case l.SKU == "" || len(l.SKU) > maxSKULength:
			problems[fmt.Sprintf("lines[%d].sku", i)] = fmt.Sprintf("Line %d: the SKU must be 1 to %d characters.", i+1, maxSKULength)
		case seen[l.SKU]:
			problems[fmt.Sprintf("lines[%d].sku", i)] = fmt.Sprintf("Line %d: %s is listed twice; put it on one line.", i+1, l.SKU)
		case l.Quantity < 0 || l.Quantity > maxLookupQuantity:
			problems[fmt.Sprintf("lines[%d].quantity", i)] = fmt.Sprintf("Line %d: the quantity must be from 0 to %d units.", i+1, maxLookupQuantity)
		}
		seen[l.SKU] = true
	}
	return problems
}

// productSummary is a product as a quick order's row or a list's line shows it, priced
// for the buyer (pence ex VAT; one pack priced as a basket line of one pack).
type productSummary struct {
	SKU             string             `json:"sku"`
	Name            string             `json:"name"`
	Path            string             `json:"path"`
	SmallImg        string             `json:"small_img"`
	PackSize        int                `json:"pack_size"`
	ListPrice       int64              `json:"list_price"`
	BasePrice       int64              `json:"base_price"` // the group's own unit price, else the list price: what the discount is off
	UnitPrice       int64              `json:"unit_price"`
	DiscountPercent int                `json:"discount_percent"`
	PackPrice       int64              `json:"pack_price"`
	Availability    availabilityAnswer `json:"availability"`
	LineLimit       int                `json:"line_limit"` // the most units one basket line of it holds
	InBasket        int                `json:"in_basket"`  // units of it in the basket now
	// Margin and Breaks are as /api/prices answers them: the buyer's margin at one
	// pack's unit price (null without an RRP) and their own break table ([] for none).
	Margin *pages.MarginAnswer    `json:"margin"`
	Breaks []pages.BreakRowAnswer `json:"breaks"`
	// Forward is the product's pre-order marking (null for an ordinary product).
	Forward *pages.ForwardAnswer `json:"forward"`
}

// lineProblem is why a line cannot go in the basket as asked (docs/quick-order.md).
type lineProblem struct {
	Index     *int                `json:"index,omitempty"`
	SKU       string              `json:"sku,omitempty"`
	Code      shoperr.ProblemCode `json:"code"`
	Message   string              `json:"message"`
	Nearest   []int               `json:"nearest,omitempty"`
	Available *int                `json:"available,omitempty"`
}

func lineProblemOf(p *shoperr.LineProblem) *lineProblem {
	if p == nil {
		return nil
	}
	out := &lineProblem{Code: p.Code, Message: p.Msg, Nearest: p.Nearest}
	if p.Code == shoperr.ProblemShort || p.Code == shoperr.ProblemOverLimit {
		out.Available = &p.Available
	}
	return out
}

// skusAnswer is POST /api/skus's answer: every line asked about, checked, in the order asked.
type skusAnswer struct {
	Lines []checkedLine `json:"lines"`
}

// checkedLine is one line of a lookup: the product (null: no such SKU) and its problem
// (null: it can be added as asked).
type checkedLine struct {
	SKU      string          `json:"sku"`
	Quantity int             `json:"quantity"`
	Product  *productSummary `json:"product"`
	Problem  *lineProblem    `json:"problem"`
	// LineAmount is what the line would add to the basket, quantity × the buyer's unit
	// price (pence ex VAT); null without a product or a quantity.
	LineAmount *int64 `json:"line_amount"`
}

// packPricing prices one pack of p for a buyer with terms, as the basket will.
func packPricing(p catalogue.Product, terms pricing.Terms) pricing.PricedLine {
	return linePricing(p, p.PackSize, terms)
}

// linePricing prices quantity units of p for a buyer with terms: a basket line.
func linePricing(p catalogue.Product, quantity int, terms pricing.Terms) pricing.PricedLine {
	return pricing.Price([]pricing.Line{basket.LineOf(p, quantity)}, terms, nil, time.Time{}).Lines[0]
}

// checkedLinesOf maps checked lines to the answer.
func checkedLinesOf(checks []basket.LineCheck, terms pricing.Terms, now time.Time) []checkedLine {
	out := make([]checkedLine, len(checks))
	for i, c := range checks {
		out[i] = checkedLine{SKU: c.SKU, Quantity: c.Quantity, Problem: lineProblemOf(c.Problem)}
		if p := c.Product; p != nil {
			pack := packPricing(*p, terms)
			out[i].Product = &productSummary{SKU: p.SKU, Name: p.Name, Path: catalogue.ProductPath(*p), SmallImg: p.SmallImg,
				PackSize: p.PackSize, ListPrice: p.UnitPrice, BasePrice: pack.BasePrice, UnitPrice: pack.NetUnitPrice, DiscountPercent: pack.DiscountPercent,
				PackPrice: pack.NetAmount, Availability: availabilityOf(basket.AvailabilityAt(*p, now)),
				LineLimit: basket.LineLimit(*p, now), InBasket: c.InBasket, Margin: pages.MarginOf(pack.Margin), Breaks: breaksOf(*p, terms),
				Forward: pages.ForwardOf(*p)}
			if c.Quantity > 0 {
				amount := linePricing(*p, c.Quantity, terms).NetAmount
				out[i].LineAmount = &amount
			}
		}
	}
	return out
}

// handleSKUs answers POST /api/skus {token, lines}: every line checked as the basket
// will check it (counting what the basket holds), with its product priced for the buyer.
// A SKU that is not SKU-shaped is told as unknown, never looked up.
func handleSKUs(log *slog.Logger, verify auth.Verifier, baskets basket.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req skusRequest) {
		adds := make([]basket.Add, 0, len(req.Lines))
		for _, l := range req.Lines {
			if catalogue.ValidSKU(l.SKU) {
				adds = append(adds, basket.Add{SKU: l.SKU, Quantity: l.Quantity})
			}
		}
		checks, terms, err := baskets.Check(r.Context(), who.UID, adds)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		bySKU := make(map[string]basket.LineCheck, len(checks))
		for _, c := range checks {
			bySKU[c.SKU] = c
		}
		all := make([]basket.LineCheck, len(req.Lines))
		for i, l := range req.Lines {
			c, ok := bySKU[l.SKU]
			if !ok {
				c = basket.LineCheck{SKU: l.SKU, Quantity: l.Quantity, Problem: basket.CheckLine(catalogue.Product{}, false, l.SKU, l.Quantity, 0, time.Now())}
			}
			all[i] = c
		}
		encode(w, http.StatusOK, skusAnswer{Lines: checkedLinesOf(all, terms, time.Now())})
	})
}
