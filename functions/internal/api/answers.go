package api

import (
	"reflect"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/apitypes"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pages"
	"github.com/tradeshop/functions/internal/search"
	"github.com/tradeshop/functions/internal/store"
)

//go:generate go run ../../cmd/apitypes -o ../../../site/lib/api-types.ts

// answerTypes are the types every /api answer is made of, the one list the wire rules'
// test (answers_test.go) walks and cmd/apitypes turns into the site's TypeScript
// (site/lib/api-types.ts). An answer type added to an endpoint is added here; the types
// it holds are found by walking it. The rules are in docs/api.md "The wire contract".
var answerTypes = []any{
	errorBody{},
	// Basket and checkout.
	cartLine{}, emptyCartRow{}, basketAnswer{}, changeAnswer{}, checkoutAnswer{}, billingAnswer{},
	// Catalogue, prices and coupons.
	searchAnswer{}, recommendedAnswer{}, pricesAnswer{}, skusAnswer{}, couponAnswer{}, listingStockAnswer{},
	// Orders.
	orderAnswer{}, ordersPage{}, reorderAnswer{}, payAnswer{},
	// The buyers' book (forward_orders.go).
	forwardOrdersAnswer{}, forwardOrderAnswer{},
	// Saved lists.
	listsAnswer{}, listEnvelope{}, listDeletedAnswer{}, listBasketAnswer{},
	// Back-in-stock alerts (alerts.go).
	alertsAnswer{},
	// Profile and session.
	profileAnswer{}, csrfAnswer{},
	// The back office (admin_answers.go).
	staffAnswer{}, adminOrdersPage{}, adminOrderPage{}, adminAccountsPage{}, adminAccountPage{},
	adminCouponsPage{}, adminCouponPage{}, adminProductPage{}, publishAnswer{}, publishRunningAnswer{}, planAnswer{},
	catalogueImageAnswer{}, adminHealthAnswer{}, adminLedgerAnswer{}, adminPaymentAnswer{}, adminRefundAnswer{},
	// Statements, balances and aged debt (statements.go).
	statementAnswer{}, adminBalancesAnswer{},
	creditHoldAnswer{},
	// Price groups (issue 37, admin_pricegroups.go).
	adminPriceGroupsPage{}, adminPriceGroupPage{}, priceGroupImportAnswer{},
	// Forward products and their demand (issue 38, admin_forward.go).
	forwardListAnswer{}, demandAnswer{},
	// Receiving forward deliveries (issue 38, admin_receipts.go).
	adminReceiptsPage{}, adminReceiptPage{},
	// App error reports (apperrors.go).
	errorReportsAnswer{},
}

// AnswerTypes answers the registered answer types (answerTypes), for cmd/apitypes.
func AnswerTypes() []reflect.Type {
	out := make([]reflect.Type, len(answerTypes))
	for i, v := range answerTypes {
		out[i] = reflect.TypeOf(v)
	}
	return out
}

// unixMillis is a moment in Unix ms, the one time encoding of answers
// (apitypes.UnixMillis).
type unixMillis = apitypes.UnixMillis

// unixMillisOf is t in Unix ms.
func unixMillisOf(t time.Time) unixMillis { return apitypes.UnixMillisOf(t) }

// addressAnswer is a postal address as an answer carries it.
type addressAnswer struct {
	Line1    string `json:"line1"`
	Line2    string `json:"line2"`
	Town     string `json:"town"`
	Postcode string `json:"postcode"`
}

func addressAnswerOf(a account.Address) addressAnswer {
	return addressAnswer{Line1: a.Line1, Line2: a.Line2, Town: a.Town, Postcode: a.Postcode}
}

// billingAnswer is the billing step's details: who is invoiced, where, and how they pay
// ("account", "proforma" or "card").
type billingAnswer struct {
	Company       string        `json:"company"`
	Contact       string        `json:"contact"`
	Address       addressAnswer `json:"address"`
	VATNumber     string        `json:"vat_number"`
	PORef         string        `json:"po_ref"`
	PaymentMethod string        `json:"payment_method" ts:"'account' | 'proforma' | 'card'"`
}

func billingAnswerOf(b account.Billing) billingAnswer {
	return billingAnswer{Company: b.Company, Contact: b.Contact, Address: addressAnswerOf(b.Address), VATNumber: b.VATNumber,
		PORef: b.PORef, PaymentMethod: b.PaymentMethod}
}

// billingAnswerOfStored is billingAnswerOf for the billing step's request as saved.
func billingAnswerOfStored(b store.Billing) billingAnswer {
	return billingAnswer{Company: b.Company, Contact: b.Contact,
		Address:   addressAnswer{Line1: b.Address.Line1, Line2: b.Address.Line2, Town: b.Address.Town, Postcode: b.Address.Postcode},
		VATNumber: b.VATNumber, PORef: b.PORef, PaymentMethod: b.PaymentMethod}
}

// productCardAnswer is a product as a grid shows it (search and recommended), list prices in
// pence ex VAT.
type productCardAnswer struct {
	SKU       string `json:"sku"`
	Path      string `json:"path"` // the product page: /{slug}/
	Slug      string `json:"slug"`
	Name      string `json:"name"`
	PackSize  int    `json:"pack_size"`
	UnitPrice int64  `json:"unit_price"`
	VATRate   int    `json:"vat_rate"`
	InStock   bool   `json:"in_stock"`
	SmallImg  string `json:"small_img"`
	// RRP (pence inc VAT a unit) and the margin it leaves at the list price, as the
	// static pages' cards carry them; nil without an RRP.
	RRP    *int64              `json:"rrp"`
	Margin *pages.MarginAnswer `json:"margin"`
	// Forward is the product's pre-order marking (null for an ordinary product).
	Forward *pages.ForwardAnswer `json:"forward"`
}

func productCardOf(c pages.ProductCard) productCardAnswer {
	return productCardAnswer{SKU: c.SKU, Path: c.Path, Slug: c.Slug, Name: c.Name, PackSize: c.PackSize, UnitPrice: c.UnitPrice,
		VATRate: c.VATRate, InStock: c.InStock, SmallImg: c.SmallImg, RRP: c.RRP, Margin: c.Margin, Forward: c.Forward}
}

// productCardOfProduct is productCardOf for a catalogue product.
func productCardOfProduct(p catalogue.Product) productCardAnswer { return productCardOf(pages.Card(p)) }

// searchHit is one search result: the product as a grid shows it, with where it sits.
type searchHit struct {
	productCardAnswer
	RangeURLText string `json:"range_url_text"`
	CategoryID   int    `json:"category_id"`
}

// searchAnswer is one page of search results: Total the hits that pass the filters;
// Facets every facet of the query's hits within the range or category, with disjunctive
// counts (docs/catalogue.md "Sort and filter"), and Prices their distinct unit prices,
// what min and max take; Sort the order the hits are in ("relevance" unless asked).
type searchAnswer struct {
	Query  string              `json:"query"`
	Total  int                 `json:"total"`
	Page   int                 `json:"page"`
	Pages  int                 `json:"pages"`
	Hits   []searchHit         `json:"hits"`
	Facets []pages.FacetCounts `json:"facets"`
	Prices []pages.PriceOption `json:"prices"`
	Sort   string              `json:"sort" ts:"'relevance' | 'newest' | 'price' | 'price-desc' | 'name'"`
}

func searchAnswerOf(r search.Result) searchAnswer {
	a := searchAnswer{Query: r.Query, Total: r.Total, Page: r.Page, Pages: r.Pages, Hits: make([]searchHit, len(r.Hits)),
		Facets: r.Facets, Prices: r.Prices, Sort: r.Sort}
	for i, h := range r.Hits {
		a.Hits[i] = searchHit{productCardAnswer: productCardOf(h.ProductCard), RangeURLText: h.RangeURLText, CategoryID: h.CategoryID}
	}
	return a
}
