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
	// DeliveryFrom is a forward order line's expected delivery date and OrderBy the last
	// day its product could be pre-ordered, when the buyer may still reduce it (ISO
	// dates, London); "" on every other line.
	DeliveryFrom string
	OrderBy      string
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
	// Kind is KindForward for a forward order (docs/forward-orders.md), "" for an order
	// of goods in stock. Companion is the other order placed by the same checkout ("" for
	// none): today's order names the forward order and the forward order today's.
	Kind      string
	Companion string
	// NoBackorders is a forward order's buyer's choice: what a short delivery cannot fill
	// is cancelled rather than backordered.
	NoBackorders bool
	// ForwardOf and Receipt say that the order is a release: the units of forward order
	// ForwardOf that delivery Receipt brought in, sent and invoiced as an order of its own.
	ForwardOf string
	Receipt   string
}

// KindForward is the Kind of a forward order.
const KindForward = "forward"

// Forward says o is a forward order: goods ordered ahead of their delivery, not yet
// invoiced, no stock taken.
func (o Order) Forward() bool { return o.Kind == KindForward }

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
	// StatusForward is a forward order's: its lines are allocated, backordered or
	// cancelled one by one (package forward), and staff actions do not apply to it.
	StatusForward = "forward"
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
	// Forward deliveries are carriage paid, so a basket of forward lines only is
	// delivered free; the threshold counts the forward lines too.
	nothingToday := len(p.Lines) > 0 && len(p.Today()) == 0
	q := Quote{Option: o, Free: nothingToday || o.FreeOverThreshold && p.NetExVAT >= shop.FreeDeliveryThresholdPence}
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
	// NoBackorders is the buyer's choice for the forward lines: cancel what a short
	// delivery cannot fill instead of backordering it.
	NoBackorders bool
}

// ErrEmailNotVerified refuses an order paid on account from a sign-in whose email
// address is not verified (docs/token-verification.md, "Sign-in facts").
var ErrEmailNotVerified = &shoperr.ConflictError{Msg: "Verify your email address before paying on account: open the link in the verification email (your dashboard can send it again), or choose pro-forma on the billing step."}

// Checkout is what one Place Order makes: today's order (the lines in stock), the
// forward order (the forward lines), or both; nil for a part the basket does not have.
type Checkout struct {
	Today, Forward *Order
}

// Primary is the order a Place Order answers: today's, else the forward order.
func (c Checkout) Primary() Order {
	if c.Today != nil {
		return *c.Today
	}
	return *c.Forward
}

// MaxForwardLines is the most forward lines one checkout may order: its forward order is
// written in one transaction with the rest (docs/forward-orders.md "Placing").
const MaxForwardLines = 90

// Build makes the order of basket p, which holds no forward lines (BuildCheckout).
func Build(p basket.Priced, acct account.Account, q Quote, req Request, number string, now time.Time) (Order, error) {
	c, err := BuildCheckout(p, acct, q, req, number, "", now)
	if err != nil {
		return Order{}, err
	}
	return c.Primary(), nil
}

// BuildCheckout makes the orders of basket p for the request, refusing (a
// *shoperr.ConflictError) an empty basket, one below the minimum order, a short line, an
// account without billing details, or pay on account without credit approval or a
// verified email. The lines in stock become today's order, numbered number; the forward
// lines the forward order, numbered forwardNumber (docs/forward-orders.md "Placing").
// Both count towards the minimum order and free delivery; the delivery charge and the
// coupon fall on today's order (forward deliveries are carriage paid); the forward order
// takes no credit, since it is not invoiced until its goods are allocated.
func BuildCheckout(p basket.Priced, acct account.Account, q Quote, req Request, number, forwardNumber string, now time.Time) (Checkout, error) {
	today, forward := p.Today(), p.ForwardLines()
	f := p.Forward
	switch {
	case len(p.Lines) == 0:
		return Checkout{}, &shoperr.ConflictError{Msg: "Your basket is empty."}
	case p.BelowMinimumBy > 0:
		return Checkout{}, &shoperr.ConflictError{Msg: fmt.Sprintf("The minimum order is %s ex VAT: add %s more.", Pounds(p.MinimumOrder), Pounds(p.BelowMinimumBy)),
			Reason: shoperr.ReasonMinimumOrder}
	case acct.Billing == nil:
		return Checkout{}, &shoperr.ConflictError{Msg: "Complete the billing step before placing the order."}
	case acct.Billing.PaymentMethod == account.PayOnAccount && !acct.ApprovedForCredit:
		return Checkout{}, &shoperr.ConflictError{Msg: "This account is not approved to pay on account; choose pro-forma on the billing step."}
	case acct.Billing.PaymentMethod == account.PayOnAccount && !req.EmailVerified:
		return Checkout{}, ErrEmailNotVerified
	case len(forward) > MaxForwardLines:
		return Checkout{}, &shoperr.ConflictError{Msg: fmt.Sprintf("One checkout can pre-order at most %d products: place an order for some of the pre-order lines first, then the rest.", MaxForwardLines)}
	case len(today) > 0 && len(forward) > 0 && forwardNumber == "":
		return Checkout{}, errors.New("build checkout: a forward order needs its own number")
	}
	todayTotal := q.TotalIncVAT - f.TotalIncVAT
	if acct.Billing.PaymentMethod == account.PayOnAccount && acct.CreditLimit != nil && len(today) > 0 && acct.Owed+todayTotal > *acct.CreditLimit {
		return Checkout{}, OverCredit(*acct.CreditLimit, acct.Owed)
	}
	if p.Coupon != nil && (errors.Is(p.CouponError, pricing.ErrCouponUsedUp) || errors.Is(p.CouponError, pricing.ErrCouponUsedByYou)) {
		// Used up since the buyer saw it apply: placing the order without it would
		// charge more than the review showed.
		return Checkout{}, couponUsedUp(p.Coupon.ID)
	}
	if short := p.ShortLines(); len(short) > 0 {
		return Checkout{}, ShortError(short[0].Product.Name, short[0].Product.Stock, short[0].Product.PackSize)
	}
	billing := *acct.Billing
	to := billing.Address
	if req.DeliverTo != nil {
		to = *req.DeliverTo
	}
	base := func(id string, lines []basket.PricedLine) *Order {
		o := &Order{ID: id, UID: req.UID, PlacedAt: now, DeliveryOption: q.Option.ID, Status: StatusPlaced, Email: req.Email, Version: 1,
			Billing: &billing, DeliverTo: &to, DeliveryNote: strings.TrimSpace(req.DeliveryNote)}
		for _, l := range lines {
			ol := Line{SKU: l.SKU, Name: l.Product.Name, PackSize: l.Product.PackSize, Quantity: l.Quantity,
				ListPrice: l.UnitPrice, DiscountPercent: l.DiscountPercent, UnitPrice: l.NetUnitPrice, LineAmount: l.NetAmount,
				VATRate: l.VATRate, VAT: l.VAT, BasePrice: l.BasePrice, BreakFrom: l.BreakFrom, BreakPrice: l.BreakPrice,
				Group: l.Group, GroupName: l.GroupName}
			if l.Forward {
				ol.DeliveryFrom, ol.OrderBy = l.Product.Forward.DeliveryFrom, l.Product.Forward.OrderBy
			}
			o.Lines = append(o.Lines, ol)
		}
		return o
	}
	var c Checkout
	if len(today) > 0 {
		o := base(number, today)
		o.GoodsExVAT, o.CouponDiscount = p.GoodsExVAT-f.GoodsExVAT, p.CouponDiscount
		o.DeliveryCharge, o.DeliveryVAT = q.ChargeExVAT, q.ChargeVAT
		o.NetExVAT, o.VAT, o.TotalIncVAT = q.NetExVAT-f.GoodsExVAT, q.VAT-f.VAT, todayTotal
		if p.Coupon != nil && p.CouponError == nil {
			o.CouponID = p.Coupon.ID
		}
		c.Today = o
	}
	if len(forward) > 0 {
		id := forwardNumber
		if c.Today == nil {
			id = number
		}
		o := base(id, forward)
		o.Kind, o.Status, o.NoBackorders = KindForward, StatusForward, req.NoBackorders
		o.GoodsExVAT, o.NetExVAT, o.VAT, o.TotalIncVAT = f.GoodsExVAT, f.GoodsExVAT, f.VAT, f.TotalIncVAT
		c.Forward = o
	}
	if c.Today != nil && c.Forward != nil {
		c.Today.Companion, c.Forward.Companion = c.Forward.ID, c.Today.ID
	}
	return c, nil
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
