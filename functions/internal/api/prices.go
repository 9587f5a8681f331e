package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
)

// maxPriceSKUs bounds one prices request: a page shows at most 48 products plus related.
const maxPriceSKUs = 100

type pricesRequest struct {
	Token string   `json:"token"`
	SKUs  []string `json:"skus"`
}

func (p pricesRequest) idToken() string { return p.Token }

func (p pricesRequest) Valid(context.Context) map[string]string {
	if len(p.SKUs) == 0 || len(p.SKUs) > maxPriceSKUs {
		return map[string]string{"skus": "must list 1 to 100 SKUs"}
	}
	for _, s := range p.SKUs {
		if !catalogue.ValidSKU(s) {
			return map[string]string{"skus": "must all be product SKUs such as GC101-00001"}
		}
	}
	return nil
}

// pricesAnswer is POST /api/prices's answer: the buyer's prices by SKU, and the price
// group they are in (null for none).
type pricesAnswer struct {
	Prices     map[string]ownPrice `json:"prices"`
	PriceGroup *priceGroupRef      `json:"price_group"`
}

// ownPrice is one product's prices for the buyer, pence ex VAT unless named inc VAT.
type ownPrice struct {
	ListPrice int64 `json:"list_price"`
	// BasePrice is the buyer's price group's own unit price for the product, else the
	// list price: what DiscountPercent is taken off (docs/pricing.md "The rule").
	BasePrice       int64 `json:"base_price"`
	UnitPrice       int64 `json:"unit_price"`
	DiscountPercent int   `json:"discount_percent"`
	PackSize        int   `json:"pack_size"`
	PackPrice       int64 `json:"pack_price"`         // pack_size × unit_price: what one pack adds to a basket line
	PackPriceIncVAT int64 `json:"pack_price_inc_vat"` // pack_price with the product's VAT, rounded half up
	// Availability is in stock, only N packs left, or out of stock, from the stock now
	// (the static pages cannot know it).
	Availability availabilityAnswer `json:"availability"`
	// Margin is the buyer's margin at the product's RRP at one pack's unit price (null
	// without an RRP); Breaks the buyer's own break table at their final prices ([] when
	// the product has none).
	Margin *pages.MarginAnswer    `json:"margin"`
	Breaks []pages.BreakRowAnswer `json:"breaks"`
	// Forward is the product's pre-order marking (null for an ordinary product).
	Forward *pages.ForwardAnswer `json:"forward"`
}

// handlePrices answers POST /api/prices {token, skus}: the buyer's own unit and pack
// prices (ex VAT, pence) after their discounts, for the products a page shows. The
// static pages carry only list prices. Unknown and discontinued SKUs are left out.
func handlePrices(log *slog.Logger, verify auth.Verifier, st BasketStore, shop config.Shop) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req pricesRequest) {
		// The account (its discounts and group) and the products in one call; the groups
		// from the function's cache (a call only when it is cold).
		acct, products, err := st.AccountAndProducts(r.Context(), who.UID, req.SKUs)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		terms, err := basket.LoadTerms(r.Context(), st, shop, acct)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		out := make(map[string]ownPrice, len(products))
		for sku, p := range products {
			if p.Discontinued() {
				continue // answered as an unknown SKU: it can no longer be bought
			}
			// A pack is priced as a basket line of one pack: the numbers the basket will show.
			pack := packPricing(p, terms)
			out[sku] = ownPrice{ListPrice: p.UnitPrice, BasePrice: pack.BasePrice, UnitPrice: pack.NetUnitPrice, DiscountPercent: pack.DiscountPercent,
				PackSize: p.PackSize, PackPrice: pack.NetAmount, PackPriceIncVAT: pack.NetAmount + pack.VAT,
				Availability: availabilityOf(basket.AvailabilityAt(p, time.Now())),
				Margin:       pages.MarginOf(pack.Margin), Breaks: breaksOf(p, terms), Forward: pages.ForwardOf(p)}
		}
		encode(w, http.StatusOK, pricesAnswer{Prices: out, PriceGroup: priceGroupRefOf(terms)})
	})
}
