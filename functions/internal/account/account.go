// Package account holds what the basket and order rules need to know of a trade account:
// its discounts, its active coupon, whether it may pay on account, and its saved billing
// details. Plain types: the store and the API map their own shapes to and from these.
package account

import "github.com/tradeshop/functions/internal/text"

// Address is a postal address.
type Address struct {
	Line1    string
	Line2    string
	Town     string
	Postcode string
}

// Billing is what the billing step saved: who is invoiced, where, and how they pay.
type Billing struct {
	Company       string
	Contact       string
	Address       Address
	VATNumber     string
	PORef         string
	PaymentMethod string // PayOnAccount, PayProForma or PayByCard
}

// The payment methods. A card order is pro-forma in every other respect: invoiced when
// placed, its goods wait for the payment, which the buyer makes through Stripe.
const (
	PayOnAccount = "account"
	PayProForma  = "proforma"
	PayByCard    = "card"
)

// Account is a buyer's account as the rules see it.
type Account struct {
	UID string
	// DSC is the account's own discounts as a JSON object string ("" for none).
	DSC string
	// PriceGroup is the id of the price group staff put the account in ("" for none);
	// its rules price the account's lines under its own DSC (docs/pricing.md).
	PriceGroup string
	// ActiveCouponID is the coupon the buyer holds, without its "coupon-" prefix; "" for none.
	ActiveCouponID    string
	ApprovedForCredit bool
	// CreditLimit is the most the account may owe on account (pence); nil: no limit set
	// (accounts approved before limits were kept). Owed is what it owes now.
	CreditLimit *int64
	Owed        int64
	Billing     *Billing
}

// The free-text fields of an account, each under the one text rule (internal/text:
// trimmed, NFC, no control, zero-width or bidi-control characters) with its length in
// characters. Address fields are named inside their object with Under ("address.",
// "deliver_to."). docs/api.md "Text fields" lists them.
var (
	BusinessName = text.Field{Name: "business", Label: "Business name", Min: 2, Max: 100}
	Company      = text.Field{Name: "company", Label: "Company name", Min: 2, Max: 100}
	Contact      = text.Field{Name: "contact", Label: "Contact name", Min: 2, Max: 100}
	VATNumber    = text.Field{Name: "vat_number", Label: "VAT number", Max: 20}
	PORef        = text.Field{Name: "po_ref", Label: "PO reference", Max: 40}
	Line1        = text.Field{Name: "line1", Label: "Address line 1", Min: 1, Max: 100}
	Line2        = text.Field{Name: "line2", Label: "Address line 2", Max: 100}
	Town         = text.Field{Name: "town", Label: "Town or city", Min: 1, Max: 60}
	Postcode     = text.Field{Name: "postcode", Label: "Postcode", Min: 1, Max: 10}
)
