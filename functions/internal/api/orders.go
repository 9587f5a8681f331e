package api

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/invoicepdf"
	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
)

// OrderReader reads a buyer's placed orders.
type OrderReader interface {
	Order(ctx context.Context, uid, id string) (orders.Order, error)
	OrdersPage(ctx context.Context, uid, after string, n int) ([]orders.Order, string, error)
}

var _ OrderReader = (*store.Store)(nil)
var _ orders.Store = (*store.Store)(nil)

// orderRequest is POST /api/orders: the page's idempotency key (one per checkout, kept
// across retries and refreshes) and the delivery option.
type orderRequest struct {
	Token          string         `json:"token"`
	IdempotencyKey string         `json:"idempotency_key"`
	DeliveryOption string         `json:"delivery_option"`
	SameAsBilling  bool           `json:"same_as_billing"`
	DeliverTo      *store.Address `json:"deliver_to"`
	DeliveryNote   string         `json:"delivery_note"`
	// NoBackorders is the buyer's choice for the basket's forward lines: what a short
	// delivery cannot fill is cancelled rather than backordered (docs/forward-orders.md).
	NoBackorders bool `json:"no_backorders"`
}

func (o orderRequest) idToken() string { return o.Token }

// clean puts the delivery address (when it is not the billing address) and the note in
// the text rule's form.
func (o *orderRequest) clean() map[string]string {
	var c text.Cleaner
	if !o.SameAsBilling && o.DeliverTo != nil {
		cleanAddress(&c, "deliver_to.", o.DeliverTo)
	}
	c.Clean(orders.DeliveryNote, &o.DeliveryNote)
	return c.Problems
}

func (o orderRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if !orders.ValidKey(o.IdempotencyKey) {
		problems["idempotency_key"] = "The checkout key must be 16 to 64 letters, digits, - or _ (one per checkout)."
	}
	if o.DeliveryOption == "" {
		problems["delivery_option"] = "Choose a delivery option."
	} else if !orders.ValidOptionID(o.DeliveryOption) {
		problems["delivery_option"] = "That is not one of the shop's delivery options: choose one of them."
	}
	if !o.SameAsBilling {
		if o.DeliverTo == nil {
			problems["deliver_to"] = "Give a delivery address, or deliver to the billing address."
		} else {
			addressProblems("deliver_to.", *o.DeliverTo, problems)
		}
	}
	return problems
}

// toRequest is the order rules' request.
func (o orderRequest) toRequest(uid string) orders.Request {
	req := orders.Request{UID: uid, IdempotencyKey: o.IdempotencyKey, DeliveryOption: o.DeliveryOption, DeliveryNote: o.DeliveryNote,
		NoBackorders: o.NoBackorders}
	if !o.SameAsBilling && o.DeliverTo != nil {
		to := account.Address{Line1: o.DeliverTo.Line1, Line2: o.DeliverTo.Line2, Town: o.DeliverTo.Town,
			Postcode: NormalisePostcode(o.DeliverTo.Postcode)}
		req.DeliverTo = &to
	}
	return req
}

// handlePlaceOrder answers POST /api/orders: 201 with the order placed, 200 with the
// order this idempotency key placed before, 409 when the basket cannot be ordered
// (docs/orders.md).
func handlePlaceOrder(log *slog.Logger, verify auth.Verifier, placer orders.Placer) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req orderRequest) {
		order := req.toRequest(who.UID)
		order.EmailVerified = who.EmailVerified
		order.Email = who.Email
		o, created, err := placer.Place(r.Context(), order)
		if err != nil {
			countRefusal(r.Context(), err)
			writeError(w, r, log, err)
			return
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
			metrics.Add(r.Context(), metrics.OrdersPlaced, 1)
			metrics.Add(r.Context(), metrics.OrderValue, float64(o.TotalIncVAT))
		}
		encode(w, status, orderAnswerOf(o))
	})
}

// countRefusal counts an order refused as things stand (a 409) under its reason; a bad
// request or a store that did not answer is no refusal (the request metrics count those).
func countRefusal(ctx context.Context, err error) {
	var refused *shoperr.ConflictError
	if !errors.As(err, &refused) {
		return
	}
	reason := refused.Reason
	if reason == "" {
		reason = "other"
	}
	metrics.Add(ctx, metrics.OrdersRefused, 1, metrics.Reason(reason))
}

// reorderAnswer says what a reorder put back and what it could not.
type reorderAnswer struct {
	Added       []string `json:"added"`
	Unavailable []string `json:"unavailable"`
	// BasketFull are the lines not added because the basket holds basket.MaxLines.
	BasketFull []string `json:"basket_full"`
}

// reorderRequest is POST /api/orders/{id}/reorder {token, skus?}: skus chooses lines.
type reorderRequest struct {
	Token string   `json:"token"`
	SKUs  []string `json:"skus"`
}

func (r reorderRequest) idToken() string { return r.Token }

func (r reorderRequest) Valid(context.Context) map[string]string {
	if r.SKUs != nil && (len(r.SKUs) == 0 || len(r.SKUs) > basket.MaxAddLines) {
		return map[string]string{"skus": fmt.Sprintf("must list 1 to %d of the order's SKUs, or be left out for the whole order", basket.MaxAddLines)}
	}
	for i, sku := range r.SKUs {
		if !catalogue.ValidSKU(sku) {
			return map[string]string{fmt.Sprintf("skus[%d]", i): "must be a product SKU such as GC101-00001"}
		}
	}
	return nil
}

// handleReorder answers POST /api/orders/{id}/reorder {token, skus?}: puts an old
// order's lines (or those of skus) back in the basket, every line that can be bought in
// one atomic write, and reports the lines no longer available.
func handleReorder(log *slog.Logger, verify auth.Verifier, st OrderReader, baskets basket.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req reorderRequest) {
		id := r.PathValue("id")
		if !orders.ValidID(id) {
			// Not an order number (TS-100001): never looked up, the same 404 as an order
			// that does not exist.
			writeError(w, r, log, store.ErrNotFound)
			return
		}
		o, err := st.Order(r.Context(), who.UID, id)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		chosen := map[string]bool{}
		for _, sku := range req.SKUs {
			chosen[sku] = true
		}
		var adds []basket.Add
		names := map[string]string{}
		for _, l := range o.Lines {
			if req.SKUs == nil || chosen[l.SKU] {
				adds = append(adds, basket.Add{SKU: l.SKU, Quantity: l.Quantity})
				names[l.SKU] = l.Name
				delete(chosen, l.SKU)
			}
		}
		if len(chosen) > 0 {
			writeError(w, r, log, invalidField("skus", "Choose lines of this order."))
			return
		}
		did, err := baskets.AddGood(r.Context(), who.UID, adds)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		a := reorderAnswer{Added: []string{}, Unavailable: []string{}, BasketFull: []string{}}
		for _, l := range did.Added {
			a.Added = append(a.Added, names[l.SKU])
		}
		for _, l := range did.Refused {
			if l.Code == shoperr.ProblemBasketFull {
				a.BasketFull = append(a.BasketFull, names[l.SKU])
			} else {
				a.Unavailable = append(a.Unavailable, names[l.SKU])
			}
		}
		encode(w, http.StatusOK, a)
	})
}

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

// ordersPerPage is the size of a page of GET /api/orders.
const ordersPerPage = 20

// cursorPrefix starts every decoded cursor, so a cursor can change shape later.
const cursorPrefix = "o1:"

// encodeCursor makes the opaque cursor of the page after order id.
func encodeCursor(id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + id))
}

// decodeCursor answers the order id a cursor of encodeCursor holds; anything else is a 400.
func decodeCursor(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	id, ok := strings.CutPrefix(string(b), cursorPrefix)
	if len(c) > 128 || err != nil || !ok || !orders.ValidID(id) {
		const problem = "This is not a cursor this shop gave: ask for the first page again (no cursor)."
		return "", &errBadRequest{msg: problem, problems: map[string]string{"cursor": problem}}
	}
	return id, nil
}

// ordersPage is the answer of GET /api/orders: a page of orders, newest first, and the
// cursor of the next page (null on the last).
type ordersPage struct {
	Orders []orderAnswer `json:"orders"`
	Next   *string       `json:"next"`
}

// handleOrders answers GET /api/orders[?cursor=…]: ordersPerPage of the buyer's orders,
// newest first, and the cursor of the next page. The cursor only says where to start in
// the token's buyer's own orders, so nobody else's can be read with it.
func handleOrders(log *slog.Logger, verify auth.Verifier, st OrderReader) http.Handler {
	return withBearer(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		after := ""
		if r.URL.Query().Has("cursor") {
			id, err := decodeCursor(r.URL.Query().Get("cursor"))
			if err != nil {
				writeError(w, r, log, err)
				return
			}
			after = id
		}
		list, next, err := st.OrdersPage(r.Context(), who.UID, after, ordersPerPage)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		page := ordersPage{Orders: make([]orderAnswer, len(list))}
		for i, o := range list {
			page.Orders[i] = orderAnswerOf(o)
		}
		if next != "" {
			c := encodeCursor(next)
			page.Next = &c
		}
		encode(w, http.StatusOK, page)
	})
}

// handleOrder answers GET /api/orders/{id}: one of the buyer's orders; anyone else's is
// a 404, the same as an order that does not exist.
func handleOrder(log *slog.Logger, verify auth.Verifier, st OrderRefundReader, cardOn bool) http.Handler {
	return withOrder(log, verify, st, func(w http.ResponseWriter, r *http.Request, o orders.Order) {
		refunds, err := cardRefundsOf(r.Context(), st, o)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		a := orderAnswerOf(o)
		a.Payment = orderPaymentOf(o, refunds, cardOn)
		encode(w, http.StatusOK, a)
	})
}

// OrderRefundReader reads a buyer's orders and the refunds of their account.
type OrderRefundReader interface {
	OrderReader
	RefundReader
}

// errNotInvoicedYet answers the PDF of an order whose invoice is still being issued.
var errNotInvoicedYet = &shoperr.ConflictError{Msg: "The VAT invoice for this order is still being issued: try again in a minute."}

// handleInvoice answers GET /api/orders/{id}/invoice: the order's VAT invoice as a PDF
// to download; 404 as GET /api/orders/{id}, 409 while the invoice is being issued.
func handleInvoice(log *slog.Logger, verify auth.Verifier, st OrderReader, shop config.Shop) http.Handler {
	return withOrder(log, verify, st, func(w http.ResponseWriter, r *http.Request, o orders.Order) {
		if o.Invoice == nil {
			writeError(w, r, log, errNotInvoicedYet)
			return
		}
		doc, err := invoicepdf.Render(o, shop)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		writePDF(w, orders.InvoiceNumber(o.Invoice.Number), doc)
	})
}

// handleCreditNote answers GET /api/orders/{id}/creditNotes/{number}: one of the
// order's VAT credit notes (number as CN-000007) as a PDF to download; 404 as GET
// /api/orders/{id}, and for a number that is not one of the order's credit notes.
func handleCreditNote(log *slog.Logger, verify auth.Verifier, st OrderReader) http.Handler {
	return withOrder(log, verify, st, func(w http.ResponseWriter, r *http.Request, o orders.Order) {
		number := r.PathValue("number")
		i := slices.IndexFunc(o.CreditNotes, func(c orders.CreditNote) bool { return orders.CreditNoteNumber(c.Number) == number })
		if i < 0 {
			writeError(w, r, log, store.ErrNotFound)
			return
		}
		doc, err := invoicepdf.RenderCreditNote(o, o.CreditNotes[i])
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		writePDF(w, number, doc)
	})
}

// withOrder reads the token's buyer's order {id} for next: a path id that is not an
// order number is never looked up, and answers the same 404 as an order that does not
// exist or is someone else's.
func withOrder(log *slog.Logger, verify auth.Verifier, st OrderReader, next func(w http.ResponseWriter, r *http.Request, o orders.Order)) http.Handler {
	return withBearer(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		id := r.PathValue("id")
		if !orders.ValidID(id) {
			writeError(w, r, log, store.ErrNotFound)
			return
		}
		o, err := st.Order(r.Context(), who.UID, id)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		next(w, r, o)
	})
}

// orderLineAnswer is one line of an order as the browser gets it. Money is pence.
type orderLineAnswer struct {
	SKU             string `json:"sku"`
	Name            string `json:"name"`
	PackSize        int    `json:"pack_size"`
	Quantity        int    `json:"quantity"`
	ListPrice       int64  `json:"list_price"`
	DiscountPercent int    `json:"discount_percent"`
	UnitPrice       int64  `json:"unit_price"`
	LineAmount      int64  `json:"line_amount"`
	VATRate         int    `json:"vat_rate"`
	VAT             int64  `json:"vat"`
	// How the line was priced (docs/pricing.md "The rule"): the base price (the price
	// group's for the product, else the list price), the break reached in packs (null for
	// none) and the price there, and the name of the price group whose rules priced the
	// line (null for none).
	BasePrice  int64   `json:"base_price"`
	BreakFrom  *int    `json:"break_from"`
	BreakPrice int64   `json:"break_price"`
	PriceGroup *string `json:"price_group"`
	// Credited is how many of the units credit notes credit, ToSend the rest: the units
	// to be sent before dispatch, those supplied after (docs/invoices.md "Part of an
	// order").
	Credited int `json:"credited"`
	ToSend   int `json:"to_send"`
	// DeliveryFrom and OrderBy are a forward order line's delivery date and the last day
	// it may be reduced (ISO dates), "" on every other line.
	DeliveryFrom string `json:"delivery_from"`
	OrderBy      string `json:"order_by"`
}

// orderAnswer is an order as the browser gets it.
type orderAnswer struct {
	ID             string            `json:"id"`
	PlacedAt       unixMillis        `json:"placed_at"`
	Lines          []orderLineAnswer `json:"lines"`
	GoodsExVAT     int64             `json:"goods_ex_vat"`
	CouponID       string            `json:"coupon_id,omitempty"`
	CouponDiscount int64             `json:"coupon_discount"`
	DeliveryCharge int64             `json:"delivery_charge"`
	DeliveryVAT    int64             `json:"delivery_vat"`
	DeliveryOption string            `json:"delivery_option"`
	NetExVAT       int64             `json:"net_ex_vat"`
	VAT            int64             `json:"vat"`
	TotalIncVAT    int64             `json:"total_inc_vat"`
	Status         string            `json:"status"`
	Billing        *billingAnswer    `json:"billing,omitempty"`
	DeliverTo      *addressAnswer    `json:"deliver_to,omitempty"`
	DeliveryNote   string            `json:"delivery_note,omitempty"`
	// Invoice is the order's VAT invoice; null while it is being issued (a second after
	// the order is placed, or until the sweep issues it after a crash).
	Invoice *invoiceAnswer `json:"invoice"`
	// CreditNotes are the VAT credit notes issued against the invoice, oldest first
	// (empty for none): a cancellation issues one for the whole order.
	CreditNotes []creditNoteAnswer `json:"credit_notes"`
	// DeliveryCredited is the delivery charge (ex VAT) the credit notes credit.
	DeliveryCredited int64 `json:"delivery_charge_credited"`
	// DeliveryLeft is the delivery charge (ex VAT) not yet credited: the most a further
	// credit can take off it.
	DeliveryLeft int64 `json:"delivery_charge_left"`
	// The lifecycle (docs/back-office.md): each time Unix ms, null until it happens.
	PaidAt       *unixMillis     `json:"paid_at"`
	ConfirmedAt  *unixMillis     `json:"confirmed_at"`
	DispatchedAt *unixMillis     `json:"dispatched_at"`
	CompletedAt  *unixMillis     `json:"completed_at"`
	CancelledAt  *unixMillis     `json:"cancelled_at"`
	Dispatch     *dispatchAnswer `json:"dispatch"`
	CancelReason string          `json:"cancel_reason,omitempty"`
	// Payment is how the order is being paid (issue 36, pay.go).
	Payment orderPaymentAnswer `json:"payment"`
	// Kind is "forward" for a forward order (no invoice: its goods are invoiced release
	// by release as a delivery is allocated), "" otherwise. Companion is the other order
	// placed by the same checkout, "" for none. ForwardOf and Receipt name the forward
	// order and the delivery a release was made from ("" for other orders).
	Kind         string `json:"kind"`
	Companion    string `json:"companion"`
	NoBackorders bool   `json:"no_backorders"`
	ForwardOf    string `json:"forward_of"`
	Receipt      string `json:"receipt"`
}

type dispatchAnswer struct {
	Carrier  string `json:"carrier"`
	Tracking string `json:"tracking"`
}

// msOrNull is t in Unix ms, nil for the zero time.
func msOrNull(t time.Time) *unixMillis {
	if t.IsZero() {
		return nil
	}
	ms := unixMillisOf(t)
	return &ms
}

// invoiceAnswer is an order's VAT invoice as the browser gets it (docs/invoices.md).
type invoiceAnswer struct {
	Number       string          `json:"number"`    // INV-000042
	IssuedAt     unixMillis      `json:"issued_at"` // the invoice date and the tax point
	Supplier     supplierAnswer  `json:"supplier"`
	VATRates     []vatRateAnswer `json:"vat_rates"` // highest rate first
	PaymentTerms string          `json:"payment_terms"`
}

type supplierAnswer struct {
	TradingName       string `json:"trading_name"`
	LegalName         string `json:"legal_name"`
	RegisteredIn      string `json:"registered_in"`
	RegisteredAddress string `json:"registered_address"`
	CompanyNumber     string `json:"company_number"`
	VATNumber         string `json:"vat_number"`
}

type vatRateAnswer struct {
	Rate     int   `json:"rate"`
	NetExVAT int64 `json:"net_ex_vat"`
	VAT      int64 `json:"vat"`
}

func invoiceAnswerOf(inv orders.Invoice) *invoiceAnswer {
	a := &invoiceAnswer{Number: orders.InvoiceNumber(inv.Number), IssuedAt: unixMillisOf(inv.IssuedAt), Supplier: supplierAnswer(inv.Supplier),
		VATRates: make([]vatRateAnswer, len(inv.Rates)), PaymentTerms: inv.PaymentTerms}
	for i, r := range inv.Rates {
		a.VATRates[i] = vatRateAnswer(r)
	}
	return a
}

// creditNoteAnswer is a VAT credit note as the browser gets it (docs/invoices.md
// "Credit notes"). Money is pence.
type creditNoteAnswer struct {
	Number          string             `json:"number"`            // CN-000007
	IssuedAt        unixMillis         `json:"issued_at"`         // the credit note's date
	Invoice         string             `json:"invoice"`           // the invoice credited, INV-000042
	InvoiceIssuedAt unixMillis         `json:"invoice_issued_at"` // the invoice's date
	Lines           []creditLineAnswer `json:"lines"`             // the lines credited
	DeliveryExVAT   int64              `json:"delivery_ex_vat"`   // the delivery charge credited
	DeliveryVAT     int64              `json:"delivery_vat"`
	VATRates        []vatRateAnswer    `json:"vat_rates"` // credited per rate, highest rate first
	NetExVAT        int64              `json:"net_ex_vat"`
	VAT             int64              `json:"vat"`
	TotalIncVAT     int64              `json:"total_inc_vat"`
	Reason          string             `json:"reason"`
	// Applied is what the note took off what its invoice still owed; OnAccount the rest,
	// left on the buyer's account as credit (docs/invoices.md "Credit notes and payments").
	Applied   int64 `json:"applied_amount"`
	OnAccount int64 `json:"on_account_amount"`
}

// creditLineAnswer is what a credit note credits of one order line (line: its index).
type creditLineAnswer struct {
	Line      int    `json:"line"`
	SKU       string `json:"sku"`
	Name      string `json:"name"`
	PackSize  int    `json:"pack_size"`
	Units     int    `json:"units"`
	UnitPrice int64  `json:"unit_price"`
	VATRate   int    `json:"vat_rate"`
	NetExVAT  int64  `json:"net_ex_vat"`
	VAT       int64  `json:"vat"`
	Restocked int    `json:"restocked"` // how many of the units went back to stock
}

func creditNoteAnswerOf(c orders.CreditNote) creditNoteAnswer {
	a := creditNoteAnswer{Number: orders.CreditNoteNumber(c.Number), IssuedAt: unixMillisOf(c.IssuedAt), Invoice: orders.InvoiceNumber(c.Invoice),
		InvoiceIssuedAt: unixMillisOf(c.InvoiceDate), Lines: make([]creditLineAnswer, len(c.Lines)), DeliveryExVAT: c.DeliveryExVAT,
		DeliveryVAT: c.DeliveryVAT, VATRates: make([]vatRateAnswer, len(c.Rates)), NetExVAT: c.NetExVAT(), VAT: c.VAT(),
		TotalIncVAT: c.TotalIncVAT(), Reason: c.Reason, Applied: c.Applied, OnAccount: c.OnAccount()}
	for i, l := range c.Lines {
		a.Lines[i] = creditLineAnswer{Line: l.Line, SKU: l.SKU, Name: l.Name, PackSize: l.PackSize, Units: l.Units, UnitPrice: l.UnitPrice,
			VATRate: l.VATRate, NetExVAT: l.NetExVAT, VAT: l.VAT, Restocked: l.Restocked}
	}
	for i, r := range c.Rates {
		a.VATRates[i] = vatRateAnswer(r)
	}
	return a
}

func orderAnswerOf(o orders.Order) orderAnswer {
	a := orderAnswer{ID: o.ID, PlacedAt: unixMillisOf(o.PlacedAt), Lines: make([]orderLineAnswer, len(o.Lines)), GoodsExVAT: o.GoodsExVAT,
		CouponID: o.CouponID, CouponDiscount: o.CouponDiscount, DeliveryCharge: o.DeliveryCharge, DeliveryVAT: o.DeliveryVAT,
		DeliveryOption: o.DeliveryOption, NetExVAT: o.NetExVAT, VAT: o.VAT, TotalIncVAT: o.TotalIncVAT, Status: o.Status,
		DeliveryNote: o.DeliveryNote, Kind: o.Kind, Companion: o.Companion, NoBackorders: o.NoBackorders, ForwardOf: o.ForwardOf, Receipt: o.Receipt}
	credited := orders.CreditedUnits(o, o.CreditNotes)
	for i, l := range o.Lines {
		a.Lines[i] = orderLineAnswer{SKU: l.SKU, Name: l.Name, PackSize: l.PackSize, Quantity: l.Quantity, ListPrice: l.ListPrice,
			DiscountPercent: l.DiscountPercent, UnitPrice: l.UnitPrice, LineAmount: l.LineAmount, VATRate: l.VATRate, VAT: l.VAT,
			Credited: credited[i], ToSend: l.Quantity - credited[i], BasePrice: l.BasePrice, BreakPrice: l.BreakPrice,
			DeliveryFrom: l.DeliveryFrom, OrderBy: l.OrderBy}
		if l.BreakFrom > 0 {
			a.Lines[i].BreakFrom = &l.BreakFrom
		}
		if l.Group != "" {
			name := cmp.Or(l.GroupName, l.Group)
			a.Lines[i].PriceGroup = &name
		}
	}
	a.DeliveryCredited, _ = o.DeliveryCredited()
	a.DeliveryLeft = o.DeliveryCharge - a.DeliveryCredited
	if o.Billing != nil {
		b := billingAnswerOf(*o.Billing)
		a.Billing = &b
	}
	if o.DeliverTo != nil {
		to := addressAnswerOf(*o.DeliverTo)
		a.DeliverTo = &to
	}
	if o.Invoice != nil {
		a.Invoice = invoiceAnswerOf(*o.Invoice)
	}
	a.CreditNotes = make([]creditNoteAnswer, len(o.CreditNotes))
	for i, c := range o.CreditNotes {
		a.CreditNotes[i] = creditNoteAnswerOf(c)
	}
	a.PaidAt, a.ConfirmedAt, a.DispatchedAt = msOrNull(o.PaidAt), msOrNull(o.ConfirmedAt), msOrNull(o.DispatchedAt)
	a.CompletedAt, a.CancelledAt, a.CancelReason = msOrNull(o.CompletedAt), msOrNull(o.CancelledAt), o.CancelReason
	if o.Dispatch != nil {
		a.Dispatch = &dispatchAnswer{Carrier: o.Dispatch.Carrier, Tracking: o.Dispatch.Tracking}
	}
	// The order alone: an answer of one order adds its card refunds and Pay now.
	a.Payment = orderPaymentOf(o, nil, false)
	return a
}

// writePDF answers doc, a PDF of the buyer's own, to download as name.pdf (never cached:
// it is one account's).
func writePDF(w http.ResponseWriter, name string, doc []byte) {
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.pdf"`, name))
	w.Header().Set("Cache-Control", "private, no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(doc)))
	_, _ = w.Write(doc)
}
