package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/lists"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
)

// ListStore keeps buyers' saved lists (store/lists.go).
type ListStore interface {
	Lists(ctx context.Context, uid string) ([]lists.Summary, error)
	List(ctx context.Context, uid, id string) (lists.List, error)
	CreateList(ctx context.Context, uid string, l lists.List) error
	SaveList(ctx context.Context, uid string, l lists.List) error
	DeleteList(ctx context.Context, uid, id string) error
}

var _ ListStore = (*store.Store)(nil)

// listLines checks lines of a list request: SKU-shaped, each once, 1 to lists.MaxQuantity
// units (0 too where zero is allowed: a set that removes), at most lists.MaxLines.
func listLines(field string, lines []lists.Line, zero bool, problems map[string]string) {
	if len(lines) > lists.MaxLines {
		problems[field] = fmt.Sprintf("A list holds at most %d lines: remove some, or start another list.", lists.MaxLines)
		return
	}
	least := 1
	if zero {
		least = 0
	}
	seen := map[string]bool{}
	for i, l := range lines {
		switch {
		case !catalogue.ValidSKU(l.SKU):
			problems[fmt.Sprintf("%s[%d].sku", field, i)] = fmt.Sprintf("Line %d: the SKU must be a product SKU such as GC101-00001.", i+1)
		case seen[l.SKU]:
			problems[fmt.Sprintf("%s[%d].sku", field, i)] = fmt.Sprintf("Line %d: %s is listed twice; put it on one line.", i+1, l.SKU)
		case l.Quantity < least || l.Quantity > lists.MaxQuantity:
			problems[fmt.Sprintf("%s[%d].quantity", field, i)] = fmt.Sprintf("Line %d: the quantity must be from %d to %d units.", i+1, least, lists.MaxQuantity)
		}
		seen[l.SKU] = true
	}
}

// newListRequest is POST /api/lists {token, name, lines?, from_basket?}.
type newListRequest struct {
	Token      string       `json:"token"`
	Name       string       `json:"name"`
	Lines      []lists.Line `json:"lines"`
	FromBasket bool         `json:"from_basket"`
}

func (n newListRequest) idToken() string { return n.Token }

func (n *newListRequest) clean() map[string]string {
	var c text.Cleaner
	c.Clean(lists.Name, &n.Name)
	return c.Problems
}

func (n newListRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	listLines("lines", n.Lines, false, problems)
	if n.FromBasket && len(n.Lines) > 0 {
		problems["from_basket"] = "Give lines or from_basket, not both."
	}
	return problems
}

// changeListRequest is POST /api/lists/{id} {token, name?, add?, set?}.
type changeListRequest struct {
	Token string       `json:"token"`
	Name  *string      `json:"name"`
	Add   []lists.Line `json:"add"`
	Set   []lists.Line `json:"set"`
}

func (c changeListRequest) idToken() string { return c.Token }

func (c *changeListRequest) clean() map[string]string {
	if c.Name == nil {
		return nil
	}
	var t text.Cleaner
	t.Clean(lists.Name, c.Name)
	return t.Problems
}

func (c changeListRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if c.Name == nil && c.Add == nil && c.Set == nil {
		problems["name"] = "Give a new name, lines to add (add) or quantities to set (set)."
	}
	listLines("add", c.Add, false, problems)
	listLines("set", c.Set, true, problems)
	return problems
}

// listSummary is a list in the index of lists.
type listSummary struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Lines     int        `json:"lines"`
	UpdatedAt unixMillis `json:"updated_at"`
}

// listsAnswer is GET /api/lists's answer: the buyer's lists, most recently changed first.
type listsAnswer struct {
	Lists []listSummary `json:"lists"`
}

// listEnvelope is the answer of the endpoints that answer one list.
type listEnvelope struct {
	List listAnswer `json:"list"`
}

// listDeletedAnswer is DELETE /api/lists/{id}'s answer: the id of the list deleted.
type listDeletedAnswer struct {
	Deleted string `json:"deleted"`
}

// listBasketAnswer is what POST /api/lists/{id}/basket did: the lines added, the lines
// refused with their reasons, and the lines the basket holds now.
type listBasketAnswer struct {
	Added       []addedLine   `json:"added"`
	Unavailable []refusedLine `json:"unavailable"`
	Lines       int           `json:"lines"`
}

// listAnswer is one list with its lines checked and priced for the buyer.
type listAnswer struct {
	ID        string        `json:"id"`
	Name      string        `json:"name"`
	CreatedAt unixMillis    `json:"created_at"`
	UpdatedAt unixMillis    `json:"updated_at"`
	Lines     []checkedLine `json:"lines"`
}

// lists answers the list endpoints.
type listHandlers struct {
	log     *slog.Logger
	verify  auth.Verifier
	st      ListStore
	baskets basket.Service
}

// answerList writes l with every line checked as an add to the basket would be.
func (h listHandlers) answerList(w http.ResponseWriter, r *http.Request, uid string, status int, l lists.List) {
	adds := make([]basket.Add, len(l.Lines))
	for i, line := range l.Lines {
		adds[i] = basket.Add{SKU: line.SKU, Quantity: line.Quantity}
	}
	checks, terms, err := h.baskets.Check(r.Context(), uid, adds)
	if err != nil {
		writeError(w, r, h.log, err)
		return
	}
	encode(w, status, listEnvelope{List: listAnswer{ID: l.ID, Name: l.Name, CreatedAt: unixMillisOf(l.CreatedAt), UpdatedAt: unixMillisOf(l.UpdatedAt),
		Lines: checkedLinesOf(checks, terms, time.Now())}})
}

// unknownSKUs refuses lines naming no product (400, each by its field); a discontinued
// product may be kept on a list, where its line says so.
func (h listHandlers) unknownSKUs(ctx context.Context, uid, field string, lines []lists.Line) error {
	if len(lines) == 0 {
		return nil
	}
	skus := make([]string, len(lines))
	for i, l := range lines {
		skus[i] = l.SKU
	}
	products, _, err := h.baskets.Store.ProductsAndCoupon(ctx, uid, skus, "")
	if err != nil {
		return err
	}
	problems := map[string]string{}
	for i, l := range lines {
		if _, ok := products[l.SKU]; !ok {
			problems[fmt.Sprintf("%s[%d].sku", field, i)] = fmt.Sprintf("Line %d: there is no product with SKU %s.", i+1, l.SKU)
		}
	}
	if len(problems) > 0 {
		return invalidFields(problems)
	}
	return nil
}

// index answers GET /api/lists: the buyer's lists, most recently changed first.
func (h listHandlers) index() http.Handler {
	return withBearer(h.log, h.verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		all, err := h.st.Lists(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, h.log, err)
			return
		}
		out := make([]listSummary, len(all))
		for i, l := range all {
			out[i] = listSummary{ID: l.ID, Name: l.Name, Lines: l.Lines, UpdatedAt: unixMillisOf(l.UpdatedAt)}
		}
		encode(w, http.StatusOK, listsAnswer{Lists: out})
	})
}

// create answers POST /api/lists: a new list of the lines given, or of the basket's.
func (h listHandlers) create() http.Handler {
	return withToken(h.log, h.verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req newListRequest) {
		lines := req.Lines
		if req.FromBasket {
			p, _, err := h.baskets.Priced(r.Context(), who.UID)
			if err != nil {
				writeError(w, r, h.log, err)
				return
			}
			if len(p.Lines) == 0 {
				writeError(w, r, h.log, &shoperr.ConflictError{Msg: "Your basket is empty: add products to it before saving it as a list."})
				return
			}
			for _, l := range p.Lines {
				lines = append(lines, lists.Line{SKU: l.SKU, Quantity: l.Quantity})
			}
		} else if err := h.unknownSKUs(r.Context(), who.UID, "lines", lines); err != nil {
			writeError(w, r, h.log, err)
			return
		}
		now := h.baskets.Now().UTC()
		l := lists.List{ID: lists.NewID(), Name: req.Name, CreatedAt: now, UpdatedAt: now}
		if err := l.Set(lines); err != nil {
			writeError(w, r, h.log, &shoperr.ConflictError{Msg: err.Error()})
			return
		}
		if err := h.st.CreateList(r.Context(), who.UID, l); err != nil {
			writeError(w, r, h.log, err)
			return
		}
		h.answerList(w, r, who.UID, http.StatusCreated, l)
	})
}

// listID answers the {id} of the request's path, or false (and the 404 written) when it
// is not a list id: never looked up, the same 404 as a list that does not exist.
func (h listHandlers) listID(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("id")
	if !lists.ValidID(id) {
		writeError(w, r, h.log, store.ErrNotFound)
		return "", false
	}
	return id, true
}

// ownList reads the list the path names from uid's own lists, or answers false with the
// error written (404 for a list uid does not have, whatever another account has).
func (h listHandlers) ownList(w http.ResponseWriter, r *http.Request, uid string) (lists.List, bool) {
	id, ok := h.listID(w, r)
	if !ok {
		return lists.List{}, false
	}
	l, err := h.st.List(r.Context(), uid, id)
	if err != nil {
		writeError(w, r, h.log, err)
		return lists.List{}, false
	}
	return l, true
}

// get answers GET /api/lists/{id}.
func (h listHandlers) get() http.Handler {
	return withBearer(h.log, h.verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		if l, ok := h.ownList(w, r, who.UID); ok {
			h.answerList(w, r, who.UID, http.StatusOK, l)
		}
	})
}

// maxListAttempts bounds the rereads of a list another tab changed meanwhile.
const maxListAttempts = 5

// change answers POST /api/lists/{id}: rename, add lines, set quantities; the change is
// made to the list as stored, however many times it must be read again.
func (h listHandlers) change() http.Handler {
	return withToken(h.log, h.verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req changeListRequest) {
		if _, ok := h.listID(w, r); !ok {
			return
		}
		if err := h.unknownSKUs(r.Context(), who.UID, "add", req.Add); err != nil {
			writeError(w, r, h.log, err)
			return
		}
		for range maxListAttempts {
			l, ok := h.ownList(w, r, who.UID)
			if !ok {
				return
			}
			if req.Name != nil {
				l.Name = *req.Name
			}
			if err := errors.Join(l.Add(req.Add), l.Set(req.Set)); err != nil {
				writeError(w, r, h.log, &shoperr.ConflictError{Msg: lists.TooLongError{}.Error()})
				return
			}
			l.UpdatedAt = h.baskets.Now().UTC()
			err := h.st.SaveList(r.Context(), who.UID, l)
			if errors.Is(err, store.ErrListMoved) {
				continue
			}
			if err != nil {
				writeError(w, r, h.log, err)
				return
			}
			l.Version++
			h.answerList(w, r, who.UID, http.StatusOK, l)
			return
		}
		writeError(w, r, h.log, &shoperr.ConflictError{Msg: "This list kept changing while your change was saved: reload it and try again."})
	})
}

// remove answers DELETE /api/lists/{id}.
func (h listHandlers) remove() http.Handler {
	return withBearer(h.log, h.verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		id, ok := h.listID(w, r)
		if !ok {
			return
		}
		if err := h.st.DeleteList(r.Context(), who.UID, id); err != nil {
			writeError(w, r, h.log, err)
			return
		}
		encode(w, http.StatusOK, listDeletedAnswer{Deleted: id})
	})
}

// addedLine and refusedLine say what an add of a list or of an order's lines did.
type addedLine struct {
	SKU      string `json:"sku"`
	Name     string `json:"name"`
	Quantity int    `json:"quantity"`
}

type refusedLine struct {
	SKU     string              `json:"sku"`
	Name    string              `json:"name"`
	Code    shoperr.ProblemCode `json:"code"`
	Message string              `json:"message"`
}

// toBasket answers POST /api/lists/{id}/basket: every line that can be bought goes into
// the basket in one atomic write; the others are told with their reasons, and the
// basket's line count after (not the priced basket: the list page does not show it).
func (h listHandlers) toBasket() http.Handler {
	return withToken(h.log, h.verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, _ tokenRequest) {
		l, ok := h.ownList(w, r, who.UID)
		if !ok {
			return
		}
		if len(l.Lines) == 0 {
			writeError(w, r, h.log, &shoperr.ConflictError{Msg: "This list has no lines to add."})
			return
		}
		adds := make([]basket.Add, len(l.Lines))
		for i, line := range l.Lines {
			adds[i] = basket.Add{SKU: line.SKU, Quantity: line.Quantity}
		}
		did, err := h.baskets.AddGood(r.Context(), who.UID, adds)
		if err != nil {
			writeError(w, r, h.log, err)
			return
		}
		out := listBasketAnswer{Added: []addedLine{}, Unavailable: []refusedLine{}, Lines: len(did.Basket.Lines)}
		for _, a := range did.Added {
			out.Added = append(out.Added, addedLine{SKU: a.SKU, Name: did.Products[a.SKU].Name, Quantity: a.Quantity})
		}
		for _, f := range did.Refused {
			out.Unavailable = append(out.Unavailable, refusedLine{SKU: f.SKU, Name: did.Products[f.SKU].Name, Code: f.Code, Message: f.Msg})
		}
		encode(w, http.StatusOK, out)
	})
}
