// Package orders holds the rules of placing a trade order: the quote for each delivery
// option, what an order must satisfy (not empty, at the minimum, nothing short, billing
// done, credit approved for pay on account), and the placement itself, which claims
// the basket, the stock and the coupon's use all or nothing (see docs/orders.md). It
// declares the store it needs (Store) and imports no HTTP or AWS code.
package orders

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
)

// Line is one line of a placed order, priced when it was placed (pence): LineAmount is
// Quantity × UnitPrice, the unit price charged. BasePrice, BreakFrom, BreakPrice and the
// group say how the rule of docs/pricing.md priced it, so the order, its invoice and its
// emails show the break and the price group that set the price after either changes.
type Line struct {
	SKU             string
	Name            string
	PackSize        int
	Quantity        int
	ListPrice       int64 // the catalogue's unit price
	DiscountPercent int   // the buyer's discount on the line
	UnitPrice       int64 // BreakPrice less the discount: the price charged
	LineAmount      int64
	VATRate         int
	VAT             int64
	BasePrice       int64  // the price group's price for the product, else ListPrice
	BreakFrom       int    // the quantity break the line reached, in packs; 0 for none
	BreakPrice      int64  // BasePrice at the break reached (BasePrice without one)
	Group           string // the id of the price group whose rules priced the line, "" for none
	GroupName       string // that group's name when the order was placed
}

// Order is a placed order. Money is pence.
type Order struct {
	ID             string // the human-friendly order number, TS-100001
	UID            string
	PlacedAt       time.Time
	Lines          []Line
	GoodsExVAT     int64
	CouponID       string
	CouponDiscount int64
	DeliveryOption string
	DeliveryCharge int64 // ex VAT
	DeliveryVAT    int64
	NetExVAT       int64
	VAT            int64
	TotalIncVAT    int64
	Status         string
	Billing        *account.Billing
	DeliverTo      *account.Address
	DeliveryNote   string
	// Invoice is the order's VAT invoice; nil until it is issued (right after the order
	// is placed, or by the sweep after a crash in between).
	Invoice *Invoice
	// CreditNotes are the VAT credit notes issued against the invoice, oldest first (a
	// cancellation issues one for the whole order). Never changed once issued.
	CreditNotes []CreditNote
	// Email is the buyer's email address when the order was placed (from the sign-in):
	// where its emails go.
	Email string
	// Lifecycle (docs/back-office.md): Version moves on with every staff action.
	Version      int64
	PaidAt       time.Time // zero: not paid
	ConfirmedAt  time.Time
	DispatchedAt time.Time
	CompletedAt  time.Time
	CancelledAt  time.Time
	Dispatch     *Dispatch // set when dispatched
	CancelReason string
	// InvoicePaid is what payments allocated to the order's invoice add up to (pence,
	// package payments); once they cover the invoice the order is paid (PaidAt).
	InvoicePaid int64
	// Card is the order's latest attempt to be paid by card through Stripe; nil when it
	// was never sent to pay (docs/payments.md). Paid is still PaidAt.
	Card *CardState
}

// CardState is an order's latest card payment attempt: Attempt counts them (each a new
// Checkout Session), State is what Stripe last said of it (Card*), Failure the decline's
// message when it failed, At when the state was set.
type CardState struct {
	Attempt int
	Session string // cs_…
	State   string
	Failure string
	At      time.Time
}

// The states of a card attempt. Paid is not one: a paid order has its PaidAt.
const (
	CardPending   = "pending"   // sent to pay, no outcome yet
	CardFailed    = "failed"    // declined or failed (Failure says why)
	CardAbandoned = "abandoned" // its Checkout Session expired unpaid
)

// Dispatch is how an order went out.
type Dispatch struct {
	Carrier  string
	Tracking string
}

// The order statuses (docs/back-office.md "Order lifecycle").
const (
	StatusPlaced     = "placed"
	StatusConfirmed  = "confirmed"
	StatusDispatched = "dispatched"
	StatusCompleted  = "completed"
	StatusCancelling = "cancelling"
	StatusCancelled  = "cancelled"
)

// Paid says the order's payment has been recorded by staff.
func (o Order) Paid() bool { return !o.PaidAt.IsZero() }

// ProForma says the order is paid before dispatch (bank transfer), not on account.
func (o Order) ProForma() bool {
	return o.Billing == nil || o.Billing.PaymentMethod != account.PayOnAccount
}

// Quote is what the basket costs with one delivery option: the browser shows these
// figures and computes none.
type Quote struct {
	Option      config.DeliveryOption
	Free        bool  // the charge is waived: the goods reach the free delivery threshold
	ChargeExVAT int64 // the delivery charge made
	ChargeVAT   int64
	NetExVAT    int64 // goods less coupon, plus delivery
	VAT         int64
	TotalIncVAT int64
}

// QuoteOf prices delivery option o for basket p: free when the option waives its charge
// at the threshold and the goods (less coupon) reach it; delivery VAT at the shop's rate.
func QuoteOf(p basket.Priced, o config.DeliveryOption, shop config.Shop) Quote {
	q := Quote{Option: o, Free: o.FreeOverThreshold && p.NetExVAT >= shop.FreeDeliveryThresholdPence}
	if !q.Free {
		q.ChargeExVAT = o.ChargePence
	}
	q.ChargeVAT = pricing.RoundPercent(q.ChargeExVAT, shop.DefaultVATRate)
	q.NetExVAT = p.NetExVAT + q.ChargeExVAT
	q.VAT = p.VAT + q.ChargeVAT
	q.TotalIncVAT = q.NetExVAT + q.VAT
	return q
}

// Quotes prices every delivery option of the shop, in the shop's order.
func Quotes(p basket.Priced, shop config.Shop) []Quote {
	out := make([]Quote, len(shop.DeliveryOptions))
	for i, o := range shop.DeliveryOptions {
		out[i] = QuoteOf(p, o, shop)
	}
	return out
}

// Option finds the shop's delivery option id.
func Option(shop config.Shop, id string) (config.DeliveryOption, bool) {
	for _, o := range shop.DeliveryOptions {
		if o.ID == id {
			return o, true
		}
	}
	return config.DeliveryOption{}, false
}

// Request is a buyer's Place Order.
type Request struct {
	UID string
	// IdempotencyKey is one per checkout, kept across the page's retries: the same key
	// always answers the same order.
	IdempotencyKey string
	DeliveryOption string
	DeliverTo      *account.Address // nil: deliver to the billing address
	DeliveryNote   string
	// EmailVerified is the sign-in's email_verified: paying on account needs it.
	EmailVerified bool
	// Email is the sign-in's email address: the order's emails go there.
	Email string
}

// ErrEmailNotVerified refuses an order paid on account from a sign-in whose email
// address is not verified (docs/token-verification.md, "Sign-in facts").
var ErrEmailNotVerified = &shoperr.ConflictError{Msg: "Verify your email address before paying on account: open the link in the verification email (your dashboard can send it again), or choose pro-forma on the billing step."}

// Build makes the order of basket p for the request, refusing (a *shoperr.ConflictError)
// an empty basket, one below the minimum order, a short line, an account without
// billing details, or pay on account without credit approval or a verified email.
func Build(p basket.Priced, acct account.Account, q Quote, req Request, number string, now time.Time) (Order, error) {
	switch {
	case len(p.Lines) == 0:
		return Order{}, &shoperr.ConflictError{Msg: "Your basket is empty."}
	case p.BelowMinimumBy > 0:
		return Order{}, &shoperr.ConflictError{Msg: fmt.Sprintf("The minimum order is %s ex VAT: add %s more.", Pounds(p.MinimumOrder), Pounds(p.BelowMinimumBy)),
			Reason: shoperr.ReasonMinimumOrder}
	case acct.Billing == nil:
		return Order{}, &shoperr.ConflictError{Msg: "Complete the billing step before placing the order."}
	case acct.Billing.PaymentMethod == account.PayOnAccount && !acct.ApprovedForCredit:
		return Order{}, &shoperr.ConflictError{Msg: "This account is not approved to pay on account; choose pro-forma on the billing step."}
	case acct.Billing.PaymentMethod == account.PayOnAccount && !req.EmailVerified:
		return Order{}, ErrEmailNotVerified
	}
	if acct.Billing.PaymentMethod == account.PayOnAccount && acct.CreditLimit != nil && acct.Owed+q.TotalIncVAT > *acct.CreditLimit {
		return Order{}, OverCredit(*acct.CreditLimit, acct.Owed)
	}
	if p.Coupon != nil && (errors.Is(p.CouponError, pricing.ErrCouponUsedUp) || errors.Is(p.CouponError, pricing.ErrCouponUsedByYou)) {
		// Used up since the buyer saw it apply: placing the order without it would
		// charge more than the review showed.
		return Order{}, couponUsedUp(p.Coupon.ID)
	}
	if short := p.ShortLines(); len(short) > 0 {
		return Order{}, ShortError(short[0].Product.Name, short[0].Product.Stock, short[0].Product.PackSize)
	}
	o := Order{ID: number, UID: req.UID, PlacedAt: now, GoodsExVAT: p.GoodsExVAT, CouponDiscount: p.CouponDiscount,
		DeliveryOption: q.Option.ID, DeliveryCharge: q.ChargeExVAT, DeliveryVAT: q.ChargeVAT,
		NetExVAT: q.NetExVAT, VAT: q.VAT, TotalIncVAT: q.TotalIncVAT, Status: StatusPlaced,
		Email: req.Email, Version: 1}
	for _, l := range p.Lines {
		o.Lines = append(o.Lines, Line{SKU: l.SKU, Name: l.Product.Name, PackSize: l.Product.PackSize, Quantity: l.Quantity,
			ListPrice: l.UnitPrice, DiscountPercent: l.DiscountPercent, UnitPrice: l.NetUnitPrice, LineAmount: l.NetAmount,
			VATRate: l.VATRate, VAT: l.VAT, BasePrice: l.BasePrice, BreakFrom: l.BreakFrom, BreakPrice: l.BreakPrice,
			Group: l.Group, GroupName: l.GroupName})
	}
	if p.Coupon != nil && p.CouponError == nil {
		o.CouponID = p.Coupon.ID
	}
	billing := *acct.Billing
	o.Billing = &billing
	to := billing.Address
	if req.DeliverTo != nil {
		to = *req.DeliverTo
	}
	o.DeliverTo = &to
	o.DeliveryNote = strings.TrimSpace(req.DeliveryNote)
	return o, nil
}

func couponUsedUp(id string) error {
	return &shoperr.ConflictError{Msg: fmt.Sprintf("The coupon %s has been used as many times as it allows: remove it from your basket and place the order again.", id),
		Reason: shoperr.ReasonCouponUsedUp}
}

// ShortError is the refusal of an order with a line the stock cannot fill.
func ShortError(name string, stock, packSize int) error {
	a := basket.AvailabilityOf(stock, packSize)
	if a.Status == basket.OutOfStock {
		return &shoperr.ConflictError{Msg: fmt.Sprintf("%s is now out of stock: remove it from your basket and place the order again.", name),
			Reason: shoperr.ReasonShortStock}
	}
	are := "are"
	if a.PacksLeft == 1 {
		are = "is"
	}
	return &shoperr.ConflictError{Msg: fmt.Sprintf("Only %s of %s %s left: change the line in your basket and place the order again.", basket.Plural(a.PacksLeft, "pack"), name, are),
		Reason: shoperr.ReasonShortStock}
}

// DiscontinuedError refuses an order one of whose products was discontinued after the
// basket was priced (409). Priced again, the basket no longer lists the line.
func DiscontinuedError(name string) error {
	return &shoperr.ConflictError{Msg: fmt.Sprintf("%s is no longer available, so it has gone from your basket: check your basket and place the order again.", name)}
}

// Pounds formats pence as £1,234.56 for a sentence.
func Pounds(p int64) string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	whole := fmt.Sprint(p / 100)
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return fmt.Sprintf("%s£%s.%02d", sign, whole, p%100)
}

// OverCredit refuses an order on account that would take the account over its credit
// limit; owed is the account's owed: what its invoices on account still owe after credit
// notes and the payments allocated to them (docs/back-office.md "Credit").
func OverCredit(limit, owed int64) error {
	return &shoperr.ConflictError{Msg: fmt.Sprintf("This order would take your account over its credit limit of %s (your invoices on account still owe %s): pay pro-forma on the billing step, or contact us.", Pounds(limit), Pounds(owed)),
		Reason: shoperr.ReasonCreditLimit}
}
