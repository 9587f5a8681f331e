package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
)

// OrderStore is what the order endpoints need beyond the basket.
type OrderStore interface {
	BasketStore
	NextOrderNumber(ctx context.Context) (string, error)
	ClaimIdempotencyKey(ctx context.Context, uid, key, orderID string, at time.Time) (store.Claim, error)
	CreateOrder(ctx context.Context, o store.Order) error
	Order(ctx context.Context, uid, id string) (store.Order, error)
	Orders(ctx context.Context, uid string) ([]store.Order, error)
	ClearBasket(ctx context.Context, uid string) error
	SaveBilling(ctx context.Context, uid string, b store.Billing, at time.Time) error
}

var _ OrderStore = (*store.Store)(nil)

var idemKeyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{16,64}$`)

// orderRequest is POST /api/orders: the page's idempotency key (one per checkout, kept
// across retries and refreshes) and the delivery option.
type orderRequest struct {
	Token          string         `json:"token"`
	IdempotencyKey string         `json:"idempotency_key"`
	DeliveryOption string         `json:"delivery_option"`
	SameAsBilling  bool           `json:"same_as_billing"`
	DeliverTo      *store.Address `json:"deliver_to"`
	DeliveryNote   string         `json:"delivery_note"`
}

func (o orderRequest) idToken() string { return o.Token }

func (o orderRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if !idemKeyPattern.MatchString(o.IdempotencyKey) {
		problems["idempotency_key"] = "must be 16 to 64 letters, digits, - or _ (one per checkout)"
	}
	if o.DeliveryOption == "" {
		problems["delivery_option"] = "is required"
	}
	if !o.SameAsBilling {
		if o.DeliverTo == nil {
			problems["deliver_to"] = "give a delivery address, or deliver to the billing address"
		} else {
			addressProblems("deliver_to.", *o.DeliverTo, problems)
		}
	}
	if len([]rune(o.DeliveryNote)) > 300 {
		problems["delivery_note"] = "must be at most 300 characters"
	}
	return problems
}

// vatOnDelivery is the VAT rate charged on delivery.
const vatOnDelivery = 20

// handlePlaceOrder answers POST /api/orders. The server reprices the basket, enforces
// the minimum order and stock, and writes the order with a conditional write before it
// clears the basket. The same idempotency key always answers the same order, however
// many times and however concurrently it is sent; a refused order leaves the basket as
// it was.
func handlePlaceOrder(log *slog.Logger, verify auth.Verifier, st OrderStore, shop config.Shop, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req orderRequest) {
		ctx := r.Context()
		var option *config.DeliveryOption
		for i := range shop.DeliveryOptions {
			if shop.DeliveryOptions[i].ID == req.DeliveryOption {
				option = &shop.DeliveryOptions[i]
			}
		}
		if option == nil {
			writeError(w, r, log, invalidField("delivery_option", "is not one of the shop's delivery options"))
			return
		}
		number, err := st.NextOrderNumber(ctx)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		claim, err := st.ClaimIdempotencyKey(ctx, who.UID, req.IdempotencyKey, number, now())
		if err != nil && !errors.Is(err, store.ErrExists) {
			writeError(w, r, log, err)
			return
		}
		if errors.Is(err, store.ErrExists) {
			// Sent before: answer that request's order if it is placed (a fresh number
			// from the counter cannot have one).
			number = claim.OrderID
			if o, err := st.Order(ctx, who.UID, number); err == nil {
				encode(w, http.StatusOK, o)
				return
			}
		}
		profile, err := savedProfile(ctx, st, who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		o, err := buildOrder(ctx, st, shop, who.UID, profile, number, *option, now())
		if err == nil {
			err = addAddresses(profile, req, &o)
		}
		if err != nil {
			// The basket may be empty because a concurrent request with this key has just
			// placed the order and cleared it.
			if placed, perr := st.Order(ctx, who.UID, number); perr == nil {
				encode(w, http.StatusOK, placed)
				return
			}
			writeError(w, r, log, err)
			return
		}
		switch err := st.CreateOrder(ctx, o); {
		case errors.Is(err, store.ErrExists):
			placed, err := st.Order(ctx, who.UID, number)
			if err != nil {
				writeError(w, r, log, err)
				return
			}
			encode(w, http.StatusOK, placed)
			return
		case err != nil:
			writeError(w, r, log, err)
			return
		}
		if err := st.ClearBasket(ctx, who.UID); err != nil {
			// The order stands; a basket left behind is shown to the buyer, not lost.
			log.ErrorContext(ctx, "clear basket after order", "request_id", RequestID(ctx), "order", o.ID, "err", err)
		}
		encode(w, http.StatusCreated, o)
	})
}

// buildOrder prices the basket for an order, refusing an empty basket, one below the
// minimum order, or a line that is out of stock.
func buildOrder(ctx context.Context, st OrderStore, shop config.Shop, uid string, profile store.Profile, number string, option config.DeliveryOption, at time.Time) (store.Order, error) {
	b, err := priceBasketFor(ctx, st, shop, uid, profile, at)
	if err != nil {
		return store.Order{}, err
	}
	if len(b.Lines) == 0 {
		return store.Order{}, &errConflict{msg: "your basket is empty"}
	}
	if b.BelowMinimumBy > 0 {
		return store.Order{}, &errConflict{msg: fmt.Sprintf("the minimum order is %s ex VAT: add %s more", pounds(b.MinimumOrder), pounds(b.BelowMinimumBy))}
	}
	o := store.Order{ID: number, UID: uid, PlacedAt: at.UnixMilli(), GoodsExVAT: b.GoodsExVAT, CouponDiscount: b.CouponDiscount,
		DeliveryOption: option.ID, Status: "placed"}
	for _, l := range b.Lines {
		if !l.InStock {
			return store.Order{}, &errConflict{msg: fmt.Sprintf("%s is out of stock; remove it to order the rest", l.Name)}
		}
		o.Lines = append(o.Lines, store.OrderLine{SKU: l.SKU, Name: l.Name, PackSize: l.PackSize, Quantity: l.Quantity,
			ListPrice: l.ListPrice, DiscountPercent: l.DiscountPercent, UnitPrice: l.UnitPrice, LineAmount: l.LineAmount,
			VATRate: l.VATRate, VAT: l.VAT})
	}
	if b.Coupon != nil && b.Coupon.Error == "" {
		o.CouponID = b.Coupon.ID
	}
	if !(option.ID == "standard" && b.NetExVAT >= shop.FreeDeliveryThresholdPence) {
		o.DeliveryCharge = option.ChargePence
	}
	deliveryVAT := pricing.RoundPercent(o.DeliveryCharge, vatOnDelivery)
	o.NetExVAT = b.NetExVAT + o.DeliveryCharge
	o.VAT = b.VAT + deliveryVAT
	o.TotalIncVAT = o.NetExVAT + o.VAT
	return o, nil
}

// addAddresses puts the saved billing details and the delivery address on the order;
// an order needs the billing step done first.
func addAddresses(p store.Profile, req orderRequest, o *store.Order) error {
	if p.Billing == nil {
		return &errConflict{msg: "complete the billing step before placing the order"}
	}
	if p.Billing.PaymentMethod == "account" && !p.ApprovedForCredit {
		return &errConflict{msg: "this account is not approved to pay on account; choose pro-forma on the billing step"}
	}
	o.Billing = p.Billing
	to := p.Billing.Address
	if !req.SameAsBilling && req.DeliverTo != nil {
		to = *req.DeliverTo
		to.Postcode = NormalisePostcode(to.Postcode)
	}
	o.DeliverTo = &to
	o.DeliveryNote = strings.TrimSpace(req.DeliveryNote)
	return nil
}

// reorderAnswer says what a reorder put back and what it could not.
type reorderAnswer struct {
	Added       []string `json:"added"`
	Unavailable []string `json:"unavailable"`
}

// handleReorder answers POST /api/orders/{id}/reorder {token}: puts an old order's
// lines back in the basket (each as one atomic add, capped by stock) and reports the
// lines no longer available.
func handleReorder(log *slog.Logger, verify auth.Verifier, st OrderStore, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		o, err := st.Order(r.Context(), who.UID, r.PathValue("id"))
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		skus := make([]string, len(o.Lines))
		for i, l := range o.Lines {
			skus[i] = l.SKU
		}
		products, err := st.ProductsBySKU(r.Context(), skus)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		a := reorderAnswer{Added: []string{}, Unavailable: []string{}}
		for _, l := range o.Lines {
			p, err := checkBuyable(products, l.SKU, l.Quantity)
			if err == nil {
				err = st.AddToBasketUpTo(r.Context(), who.UID, l.SKU, l.Quantity, lineLimit(p), now())
			}
			if err != nil {
				a.Unavailable = append(a.Unavailable, l.Name)
				continue
			}
			a.Added = append(a.Added, l.Name)
		}
		encode(w, http.StatusOK, a)
	})
}

func pounds(p int64) string { return fmt.Sprintf("£%d.%02d", p/100, p%100) }

// withBearer is withToken for GET endpoints: the ID token comes as a bearer token.
func withBearer(log *slog.Logger, verify auth.Verifier, next func(w http.ResponseWriter, r *http.Request, who auth.Claims)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		who, err := verify.Verify(r.Context(), bearer(r))
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		next(w, r, who)
	})
}

// handleOrders answers GET /api/orders: the buyer's orders, newest first.
func handleOrders(log *slog.Logger, verify auth.Verifier, st OrderStore) http.Handler {
	return withBearer(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		orders, err := st.Orders(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		encode(w, http.StatusOK, map[string]any{"orders": orders})
	})
}

// handleOrder answers GET /api/orders/{id}: one of the buyer's orders; anyone else's is
// a 404, the same as an order that does not exist.
func handleOrder(log *slog.Logger, verify auth.Verifier, st OrderStore) http.Handler {
	return withBearer(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		o, err := st.Order(r.Context(), who.UID, r.PathValue("id"))
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		encode(w, http.StatusOK, o)
	})
}
