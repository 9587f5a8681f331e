// Package account holds what the basket and order rules need to know of a trade account:
// its discounts, its active coupon, whether it may pay on account, and its saved billing
// details. Plain types: the store and the API map their own shapes to and from these.
package account

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
	PaymentMethod string // PayOnAccount or PayProForma
}

// The payment methods.
const (
	PayOnAccount = "account"
	PayProForma  = "proforma"
)

// Account is a buyer's account as the rules see it.
type Account struct {
	UID string
	// DSC is the account's own discounts as a JSON object string ("" for none).
	DSC string
	// ActiveCouponID is the coupon the buyer holds, without its "coupon-" prefix; "" for none.
	ActiveCouponID    string
	ApprovedForCredit bool
	Billing           *Billing
}
