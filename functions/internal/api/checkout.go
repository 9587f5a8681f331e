package api

import (
	"context"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
)

// ukPostcode is the UK postcode format (outward and inward code), as typed.
var ukPostcode = regexp.MustCompile(`^(?i)(GIR ?0AA|[A-PR-UWYZ]([0-9]{1,2}|[A-HK-Y][0-9]([0-9]|[ABEHMNPRV-Y])?|[0-9][A-HJKPS-UW]) ?[0-9][ABD-HJLNP-UW-Z]{2})$`)

// ukVAT is a GB VAT registration number: GB and 9 or 12 digits.
var ukVAT = regexp.MustCompile(`^(GB)?([0-9]{9}|[0-9]{12})$`)

// NormalisePostcode upper-cases a postcode and puts the one space before its last three
// characters.
func NormalisePostcode(p string) string {
	p = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(p), " ", ""))
	if len(p) > 3 {
		p = p[:len(p)-3] + " " + p[len(p)-3:]
	}
	return p
}

// cleanAddress puts each line of a in the text rule's form in place, keeping the
// problems under prefix ("address.", "deliver_to.").
func cleanAddress(c *text.Cleaner, prefix string, a *store.Address) {
	c.Clean(account.Line1.Under(prefix), &a.Line1)
	c.Clean(account.Line2.Under(prefix), &a.Line2)
	c.Clean(account.Town.Under(prefix), &a.Town)
	c.Clean(account.Postcode.Under(prefix), &a.Postcode)
}

// addressProblems checks what the text rule does not: the postcode's UK shape.
func addressProblems(prefix string, a store.Address, problems map[string]string) {
	if !ukPostcode.MatchString(a.Postcode) {
		problems[prefix+"postcode"] = "Enter a UK postcode such as EX1 2AB."
	}
}

type billingRequest struct {
	Token   string        `json:"token"`
	Billing store.Billing `json:"billing"`
}

func (b billingRequest) idToken() string { return b.Token }

// clean puts the free text of the billing step in the text rule's form.
func (b *billingRequest) clean() map[string]string {
	var c text.Cleaner
	c.Clean(account.Company, &b.Billing.Company)
	c.Clean(account.Contact, &b.Billing.Contact)
	cleanAddress(&c, "address.", &b.Billing.Address)
	c.Clean(account.VATNumber, &b.Billing.VATNumber)
	c.Clean(account.PORef, &b.Billing.PORef)
	return c.Problems
}

// Valid checks the shapes the text rule does not (clean): postcode, VAT number, payment
// method.
func (b billingRequest) Valid(context.Context) map[string]string {
	p := map[string]string{}
	addressProblems("address.", b.Billing.Address, p)
	if v := strings.ToUpper(strings.ReplaceAll(b.Billing.VATNumber, " ", "")); v != "" && !ukVAT.MatchString(v) {
		p["vat_number"] = "Enter a UK VAT number such as GB123456789, or leave it empty."
	}
	if !slices.Contains([]string{account.PayOnAccount, account.PayProForma, account.PayByCard}, b.Billing.PaymentMethod) {
		p["payment_method"] = "Choose pay on account, pro-forma or card."
	}
	return p
}

// BillingStore saves the billing step.
type BillingStore interface {
	ProfileStore
	SaveBilling(ctx context.Context, uid string, b store.Billing, at time.Time) error
}

// handleSaveBilling answers POST /api/billing {token, billing}: checks and saves the
// billing step for this and later checkouts. Paying on account needs an account approved
// for credit; paying by card needs card payment on (cardOn: a Stripe key is set).
func handleSaveBilling(log *slog.Logger, verify auth.Verifier, st BillingStore, now func() time.Time, cardOn bool) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req billingRequest) {
		p, err := savedProfile(r.Context(), st, who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		b := req.Billing
		if b.PaymentMethod == account.PayOnAccount && !p.ApprovedForCredit {
			writeError(w, r, log, invalidField("payment_method",
				"Paying on account needs an account approved for credit: choose pro-forma, or ask us to open a credit account."))
			return
		}
		if b.PaymentMethod == account.PayByCard && !cardOn {
			writeError(w, r, log, invalidField("payment_method",
				"Card payment is not available at the moment: choose pro-forma (bank transfer) or pay on account."))
			return
		}
		b.Address.Postcode = NormalisePostcode(b.Address.Postcode)
		b.VATNumber = strings.ToUpper(strings.ReplaceAll(b.VATNumber, " ", ""))
		if err := st.SaveBilling(r.Context(), who.UID, b, now()); err != nil {
			writeError(w, r, log, err)
			return
		}
		encode(w, http.StatusOK, billingAnswerOfStored(b))
	})
}

// quoteAnswer is what the basket costs with one delivery option (pence).
type quoteAnswer struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Free        bool   `json:"free"`
	ChargeExVAT int64  `json:"charge_ex_vat"`
	ChargeVAT   int64  `json:"charge_vat"`
	NetExVAT    int64  `json:"net_ex_vat"`
	VAT         int64  `json:"vat"`
	TotalIncVAT int64  `json:"total_inc_vat"`
	// TodayIncVAT is what today's order comes to inc VAT: the total less the forward
	// lines, which become the forward order (docs/forward-orders.md); the total itself
	// without any.
	TodayIncVAT int64 `json:"today_total_inc_vat"`
}

// checkoutAnswer is what the checkout steps need before the buyer types anything.
type checkoutAnswer struct {
	Billing               *billingAnswer `json:"billing"`
	ApprovedForCredit     bool           `json:"approved_for_credit"`
	DeliveryOptions       []quoteAnswer  `json:"delivery_options"` // a quote per option, in the shop's order
	FreeDeliveryThreshold int64          `json:"free_delivery_threshold"`
	GoodsExVAT            int64          `json:"goods_ex_vat"`
	CouponDiscount        int64          `json:"coupon_discount"`
	MinimumOrder          int64          `json:"minimum_order"`    // pence ex VAT
	BelowMinimumBy        int64          `json:"below_minimum_by"` // what the basket lacks of the minimum, 0 at or over it
	// CardPayment says the billing step may offer card (a Stripe key is set; issue 36).
	CardPayment bool `json:"card_payment"`
	// ForwardTotal is what the basket's forward lines cost (null without any): they
	// become a forward order of their own, carriage paid, not invoiced until allocated;
	// each quote's totals are the whole checkout's, today's order is the rest.
	ForwardTotal *partAnswer `json:"forward_total"`
}

// handleCheckout answers POST /api/checkout {token}: what the checkout steps need —
// saved billing, whether the account may pay on account, a quote per delivery option
// (so the browser does no money arithmetic), and how far the priced basket is below the
// minimum order (so each step can say so at once, not only when Place Order is refused),
// and whether card payment is on (cardOn).
func handleCheckout(log *slog.Logger, verify auth.Verifier, baskets basket.Service, cardOn bool) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		p, acct, err := baskets.Priced(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		a := checkoutAnswer{ApprovedForCredit: acct.ApprovedForCredit, FreeDeliveryThreshold: p.FreeDeliveryThreshold,
			GoodsExVAT: p.GoodsExVAT, CouponDiscount: p.CouponDiscount, MinimumOrder: p.MinimumOrder, BelowMinimumBy: p.BelowMinimumBy,
			CardPayment: cardOn, ForwardTotal: forwardTotalOf(p)}
		if acct.Billing != nil {
			b := billingAnswerOf(*acct.Billing)
			a.Billing = &b
		}
		for _, q := range orders.Quotes(p, baskets.Shop) {
			a.DeliveryOptions = append(a.DeliveryOptions, quoteAnswer{ID: q.Option.ID, Name: q.Option.Name, Free: q.Free,
				ChargeExVAT: q.ChargeExVAT, ChargeVAT: q.ChargeVAT, NetExVAT: q.NetExVAT, VAT: q.VAT, TotalIncVAT: q.TotalIncVAT,
				TodayIncVAT: q.TotalIncVAT - p.Forward.TotalIncVAT})
		}
		encode(w, http.StatusOK, a)
	})
}
