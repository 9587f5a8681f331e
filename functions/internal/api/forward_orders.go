package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// ForwardBook reads a buyer's forward orders with their lines' ledger, and reduces a
// line (docs/forward-orders.md "The buyers' book").
type ForwardBook interface {
	// ForwardBookOrders reads uid's forward orders and the release orders made from
	// them, newest first (one Query of the buyer's orders).
	ForwardBookOrders(ctx context.Context, uid string) (fwd, releases []orders.Order, err error)
	ForwardLinesOf(ctx context.Context, o orders.Order) ([]forward.Line, error)
	// ReduceForwardLine moves units of l from open to cancelled in one conditional
	// update (open >= units, order-by not before today): store.ErrLineChanged when
	// the condition fails.
	ReduceForwardLine(ctx context.Context, l forward.Line, units int, today string) (forward.Line, error)
}

var _ ForwardBook = (*store.Store)(nil)

// forwardOrdersShown is how many forward orders GET /api/forward-orders answers, newest
// first: a season's book, and a bound on its reads (one BatchGetItem each).
const forwardOrdersShown = 50

// forwardLineAnswer is one line of a forward order as its ledger has it; quantities in
// packs.
type forwardLineAnswer struct {
	SKU       string `json:"sku"`
	Name      string `json:"name"`
	PackSize  int    `json:"pack_size"`
	UnitPrice int64  `json:"unit_price"` // pence, the forward order's
	Ordered   int    `json:"ordered_packs"`
	Allocated int    `json:"allocated_packs"`
	// Backordered is what is still open after a delivery was applied.
	Backordered int `json:"backordered_packs"`
	Cancelled   int `json:"cancelled_packs"`
	// Open is what is still to be allocated (backordered or awaiting delivery).
	Open int `json:"open_packs"`
	// State is "ordered", "allocated", "backordered" or "cancelled" (forward.Line.State).
	State        string `json:"state"`
	DeliveryFrom string `json:"delivery_from"` // ISO date
	OrderBy      string `json:"order_by"`      // ISO date: the last day it can be changed
	// CanChange says the buyer may still reduce or cancel it: London today is on or
	// before OrderBy and packs are open.
	CanChange bool `json:"can_change"`
}

// forwardOrderAnswer is one forward order in the buyer's book.
type forwardOrderAnswer struct {
	ID       string     `json:"id"`
	PlacedAt unixMillis `json:"placed_at"`
	// DeliveryFrom and DeliveryTo are the earliest and the latest of its lines' delivery
	// dates (ISO): the delivery window.
	DeliveryFrom string              `json:"delivery_from"`
	DeliveryTo   string              `json:"delivery_to"`
	NoBackorders bool                `json:"no_backorders"`
	Companion    string              `json:"companion"` // today's order of the same checkout, "" if none
	Lines        []forwardLineAnswer `json:"lines"`
	// Releases are the ids of the orders made when deliveries were allocated to it,
	// oldest first.
	Releases []string `json:"releases"`
}

// forwardOrdersAnswer is GET /api/forward-orders.
type forwardOrdersAnswer struct {
	Orders []forwardOrderAnswer `json:"orders"`
}

// packsOf is units in whole packs.
func packsOf(units, packSize int) int {
	if packSize <= 0 {
		return units
	}
	return units / packSize
}

// forwardOrderAnswerOf is o with its ledger lines and the ids of its releases, as London
// day today sees it.
func forwardOrderAnswerOf(o orders.Order, lines []forward.Line, releases []string, today string) forwardOrderAnswer {
	a := forwardOrderAnswer{ID: o.ID, PlacedAt: unixMillisOf(o.PlacedAt), NoBackorders: o.NoBackorders, Companion: o.Companion,
		Lines: []forwardLineAnswer{}, Releases: releases}
	if a.Releases == nil {
		a.Releases = []string{}
	}
	bySKU := map[string]forward.Line{}
	for _, l := range lines {
		bySKU[l.SKU] = l
	}
	// The order's own line order; a line whose ledger item is missing is left out.
	for _, ol := range o.Lines {
		l, ok := bySKU[ol.SKU]
		if !ok {
			continue
		}
		p := l.PackSize
		a.Lines = append(a.Lines, forwardLineAnswer{SKU: l.SKU, Name: l.Name, PackSize: p, UnitPrice: l.UnitPrice,
			Ordered: packsOf(l.Ordered, p), Allocated: packsOf(l.Allocated, p), Backordered: packsOf(l.Backordered(), p),
			Cancelled: packsOf(l.Cancelled, p), Open: packsOf(l.Open, p), State: l.State(), DeliveryFrom: l.DeliveryFrom,
			OrderBy: l.OrderBy, CanChange: today <= l.OrderBy && l.Open > 0})
		if a.DeliveryFrom == "" || l.DeliveryFrom < a.DeliveryFrom {
			a.DeliveryFrom = l.DeliveryFrom
		}
		if l.DeliveryFrom > a.DeliveryTo {
			a.DeliveryTo = l.DeliveryFrom
		}
	}
	return a
}

// releasesByOrder maps each forward order's id to its releases' ids, oldest first.
func releasesByOrder(releases []orders.Order) map[string][]string {
	out := map[string][]string{}
	for _, r := range slices.Backward(releases) { // newest first: oldest first here
		out[r.ForwardOf] = append(out[r.ForwardOf], r.ID)
	}
	return out
}

// handleForwardOrders answers GET /api/forward-orders: the buyer's forward orders,
// newest first (at most forwardOrdersShown), each line with its state from the ledger.
func handleForwardOrders(log *slog.Logger, verify auth.Verifier, book ForwardBook, now func() time.Time) http.Handler {
	return withBearer(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		fwd, releases, err := book.ForwardBookOrders(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		fwd = fwd[:min(len(fwd), forwardOrdersShown)]
		rel := releasesByOrder(releases)
		today := catalogue.LondonDate(now())
		a := forwardOrdersAnswer{Orders: make([]forwardOrderAnswer, len(fwd))}
		for i, o := range fwd {
			lines, err := book.ForwardLinesOf(r.Context(), o)
			if err != nil {
				writeError(w, r, log, err)
				return
			}
			a.Orders[i] = forwardOrderAnswerOf(o, lines, rel[o.ID], today)
		}
		encode(w, http.StatusOK, a)
	})
}

// forwardLineRequest is POST /api/forward-orders/{id}/lines: reduce the line of sku to
// packs (0 cancels it).
type forwardLineRequest struct {
	Token string `json:"token"`
	SKU   string `json:"sku"`
	Packs int    `json:"packs"`
}

func (f forwardLineRequest) idToken() string { return f.Token }

func (f forwardLineRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if !catalogue.ValidSKU(f.SKU) {
		problems["sku"] = "Give the product's SKU, such as GC101-00001."
	}
	if f.Packs < 0 {
		problems["packs"] = "Give the packs to keep: 0 or more (0 cancels the line)."
	}
	return problems
}

// errOnlyReduce refuses raising a forward line.
var errOnlyReduce = &shoperr.ConflictError{Msg: "You can only reduce a forward line: add more from the product page."}

// errLineMoved answers a reduce whose condition failed: an allocation (or another
// change) took the line's open units meanwhile.
var errLineMoved = &shoperr.ConflictError{Msg: "The line changed meanwhile (a delivery may have been allocated to it): look at it again and choose again."}

// handleReduceForwardLine answers POST /api/forward-orders/{id}/lines {token, sku,
// packs}: reduces the forward line of sku to packs (0 cancels it) until its order-by
// date, in one conditional update of its ledger item, and answers the order as GET
// /api/forward-orders does. Another buyer's order, or one that is not a forward order,
// is a 404 as one that does not exist.
func handleReduceForwardLine(log *slog.Logger, verify auth.Verifier, book ForwardBook, now func() time.Time) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req forwardLineRequest) {
		id := r.PathValue("id")
		if !orders.ValidID(id) {
			writeError(w, r, log, store.ErrNotFound)
			return
		}
		fwd, releases, err := book.ForwardBookOrders(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		i := slices.IndexFunc(fwd, func(o orders.Order) bool { return o.ID == id })
		if i < 0 {
			writeError(w, r, log, fmt.Errorf("forward order %s: %w", id, store.ErrNotFound))
			return
		}
		o := fwd[i]
		lines, err := book.ForwardLinesOf(r.Context(), o)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		j := slices.IndexFunc(lines, func(l forward.Line) bool { return l.SKU == req.SKU })
		if j < 0 {
			writeError(w, r, log, invalidField("sku", "Choose a line of this order."))
			return
		}
		l := lines[j]
		today := catalogue.LondonDate(now())
		if today > l.OrderBy {
			writeError(w, r, log, &shoperr.ConflictError{Msg: fmt.Sprintf("Pre-orders for %s closed on %s, so the line can no longer be changed.",
				l.Name, catalogue.LongDate(l.OrderBy))})
			return
		}
		keep := req.Packs * max(l.PackSize, 1)
		if req.Packs > l.Open || keep > l.Open {
			writeError(w, r, log, errOnlyReduce)
			return
		}
		if k := l.Open - keep; k > 0 {
			changed, err := book.ReduceForwardLine(r.Context(), l, k, today)
			if errors.Is(err, store.ErrLineChanged) {
				writeError(w, r, log, errLineMoved)
				return
			}
			if err != nil {
				writeError(w, r, log, err)
				return
			}
			lines[j] = changed
		}
		encode(w, http.StatusOK, forwardOrderAnswerOf(o, lines, releasesByOrder(releases)[o.ID], today))
	})
}
