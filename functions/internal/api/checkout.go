package api

import (
	"context"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/store"
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

func addressProblems(prefix string, a store.Address, problems map[string]string) {
	need := func(field, v, label string, max int) {
		if n := utf8.RuneCountInString(strings.TrimSpace(v)); n == 0 || n > max {
			problems[prefix+field] = "enter the " + label
		}
	}
	need("line1", a.Line1, "first line of the address", 100)
	need("town", a.Town, "town or city", 60)
	if utf8.RuneCountInString(a.Line2) > 100 {
		problems[prefix+"line2"] = "must be at most 100 characters"
	}
	if !ukPostcode.MatchString(strings.TrimSpace(a.Postcode)) {
		problems[prefix+"postcode"] = "enter a UK postcode such as EX1 2AB"
	}
}

type billingRequest struct {
	Token   string        `json:"token"`
	Billing store.Billing `json:"billing"`
}

func (b billingRequest) idToken() string { return b.Token }

func (b billingRequest) Valid(context.Context) map[string]string {
	p := map[string]string{}
	if n := utf8.RuneCountInString(strings.TrimSpace(b.Billing.Company)); n < 2 || n > 100 {
		p["company"] = "enter the company name (2 to 100 characters)"
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(b.Billing.Contact)); n < 2 || n > 100 {
		p["contact"] = "enter the name of the person to contact"
	}
	addressProblems("address.", b.Billing.Address, p)
	if v := strings.ToUpper(strings.ReplaceAll(b.Billing.VATNumber, " ", "")); v != "" && !ukVAT.MatchString(v) {
		p["vat_number"] = "enter a UK VAT number such as GB123456789, or leave it empty"
	}
	if utf8.RuneCountInString(b.Billing.PORef) > 40 {
		p["po_ref"] = "must be at most 40 characters"
	}
	if b.Billing.PaymentMethod != "account" && b.Billing.PaymentMethod != "proforma" {
		p["payment_method"] = "choose pay on account or pro-forma"
	}
	return p
}

// handleSaveBilling answers POST /api/billing {token, billing}: checks and saves the
// billing step for this and later checkouts. Paying on account needs an account approved
// for credit.
// BillingStore saves the billing step.
type BillingStore interface {
	ProfileStore
	SaveBilling(ctx context.Context, uid string, b store.Billing, at time.Time) error
}

func handleSaveBilling(log *slog.Logger, verify auth.Verifier, st BillingStore, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req billingRequest) {
		p, err := savedProfile(r.Context(), st, who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		b := req.Billing
		if b.PaymentMethod == "account" && !p.ApprovedForCredit {
			writeError(w, r, log, invalidField("payment_method",
				"paying on account needs an account approved for credit; choose pro-forma, or ask us to open a credit account"))
			return
		}
		b.Company, b.Contact = strings.TrimSpace(b.Company), strings.TrimSpace(b.Contact)
		b.Address.Postcode = NormalisePostcode(b.Address.Postcode)
		b.VATNumber = strings.ToUpper(strings.ReplaceAll(b.VATNumber, " ", ""))
		if err := st.SaveBilling(r.Context(), who.UID, b, now()); err != nil {
			writeError(w, r, log, err)
			return
		}
		encode(w, http.StatusOK, b)
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
}

// checkoutAnswer is what the checkout steps need before the buyer types anything.
type checkoutAnswer struct {
	Billing               *store.Billing `json:"billing"`
	ApprovedForCredit     bool           `json:"approved_for_credit"`
	DeliveryOptions       []quoteAnswer  `json:"delivery_options"` // a quote per option, in the shop's order
	FreeDeliveryThreshold int64          `json:"free_delivery_threshold"`
	GoodsExVAT            int64          `json:"goods_ex_vat"`
	CouponDiscount        int64          `json:"coupon_discount"`
	MinimumOrder          int64          `json:"minimum_order"`    // pence ex VAT
	BelowMinimumBy        int64          `json:"below_minimum_by"` // what the basket lacks of the minimum, 0 at or over it
}

// handleCheckout answers POST /api/checkout {token}: what the checkout steps need —
// saved billing, whether the account may pay on account, a quote per delivery option
// (so the browser does no money arithmetic), and how far the priced basket is below the
// minimum order (so each step can say so at once, not only when Place Order is refused).
func handleCheckout(log *slog.Logger, verify auth.Verifier, baskets basket.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		p, acct, err := baskets.Priced(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		a := checkoutAnswer{ApprovedForCredit: acct.ApprovedForCredit, FreeDeliveryThreshold: p.FreeDeliveryThreshold,
			GoodsExVAT: p.GoodsExVAT, CouponDiscount: p.CouponDiscount, MinimumOrder: p.MinimumOrder, BelowMinimumBy: p.BelowMinimumBy}
		if acct.Billing != nil {
			b := store.BillingOf(*acct.Billing)
			a.Billing = &b
		}
		for _, q := range orders.Quotes(p, baskets.Shop) {
			a.DeliveryOptions = append(a.DeliveryOptions, quoteAnswer{ID: q.Option.ID, Name: q.Option.Name, Free: q.Free,
				ChargeExVAT: q.ChargeExVAT, ChargeVAT: q.ChargeVAT, NetExVAT: q.NetExVAT, VAT: q.VAT, TotalIncVAT: q.TotalIncVAT})
		}
		encode(w, http.StatusOK, a)
	})
}
