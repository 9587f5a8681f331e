package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
)

// The back office's endpoints (/api/admin/*, docs/back-office.md): staff only. Each one
// is behind the CSRF checks (reads included), then verifies the ID token and refuses a
// token without the staff claim with 403 before it reads or writes anything.

// errStaffOnly refuses a signed-in user who is not staff.
var errStaffOnly = errors.New("staff only")

// staffOf answers who a verified token is as staff, or errStaffOnly.
func staffOf(who auth.Claims) (orders.Staff, error) {
	if !who.Staff {
		return orders.Staff{}, errStaffOnly
	}
	return orders.Staff{UID: who.UID, Email: who.Email}, nil
}

// staffGet is a staff read: CSRF, the bearer token, the staff claim.
func staffGet(log *slog.Logger, d Deps, next func(w http.ResponseWriter, r *http.Request, by orders.Staff)) http.Handler {
	return protect(log, d.CSRF, withBearer(log, d.Verifier, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		by, err := staffOf(who)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		w.Header().Set("X-Robots-Tag", "noindex")
		next(w, r, by)
	}))
}

// staffPost is a staff write: CSRF, then the body's token and the staff claim (so a
// buyer is refused with 403 whatever else the body holds), then the body validated.
func staffPost[T tokenBody](log *slog.Logger, d Deps, next func(w http.ResponseWriter, r *http.Request, by orders.Staff, body T)) http.Handler {
	return staffPostAtMost(log, d, maxBodyBytes, bodyTooLarge, next)
}

// staffPostAtMost is staffPost for a body of at most limit bytes; a larger one answers
// tooLarge(limit).
func staffPostAtMost[T tokenBody](log *slog.Logger, d Deps, limit int64, tooLarge func(int64) error,
	next func(w http.ResponseWriter, r *http.Request, by orders.Staff, body T)) http.Handler {
	return protect(log, d.CSRF, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
		if err != nil {
			writeError(w, r, log, tooLarge(limit))
			return
		}
		var tok struct {
			Token string `json:"token"`
		}
		_ = json.Unmarshal(raw, &tok) // a body that is not JSON has no token: 401
		who, err := d.Verifier.Verify(r.Context(), tok.Token)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		by, err := staffOf(who)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		body, err := decodeAtMost[T](r, limit, tooLarge)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		next(w, r, by, body)
	}))
}

// adminEndpoints lists the back office's endpoints.
func adminEndpoints(d Deps, life orders.Lifecycle) []Endpoint {
	return []Endpoint{
		{"adminMe", "GET /api/admin/me", staffGet(d.Log, d, func(w http.ResponseWriter, _ *http.Request, by orders.Staff) {
			encode(w, http.StatusOK, map[string]string{"uid": by.UID, "email": by.Email})
		})},
		{"adminOrders", "GET /api/admin/orders", handleAdminOrders(d)},
		{"adminOrder", "GET /api/admin/orders/{id}", handleAdminOrder(d)},
		{"adminOrderAction", "POST /api/admin/orders/{id}/action", handleAdminOrderAction(d, life)},
		{"adminExport", "GET /api/admin/export", handleAdminExport(d)},
		{"adminAccounts", "GET /api/admin/accounts", handleAdminAccounts(d)},
		{"adminAccount", "GET /api/admin/accounts/{uid}", handleAdminAccount(d)},
		{"adminAccountUpdate", "POST /api/admin/accounts/{uid}", handleAdminAccountUpdate(d)},
		{"adminCoupons", "GET /api/admin/coupons", handleAdminCoupons(d)},
		{"adminCouponSave", "POST /api/admin/coupons", handleAdminCouponSave(d, true)},
		{"adminCouponSave", "POST /api/admin/coupons/{id}", handleAdminCouponSave(d, false)},
		{"adminProduct", "GET /api/admin/products/{sku}", handleAdminProduct(d)},
		{"adminStock", "POST /api/admin/products/{sku}/stock", handleAdminStock(d)},
		{"adminCatalogueCheck", "POST /api/admin/catalogue/check", handleCatalogueCheck(d)},
		{"adminCatalogueApply", "POST /api/admin/catalogue/apply", handleCatalogueApply(d)},
		{"adminCatalogueImages", "POST /api/admin/catalogue/images", handleCatalogueImages(d)},
		{"adminCatalogueExport", "GET /api/admin/catalogue/export", handleCatalogueExport(d)},
		{"adminPublish", "POST /api/admin/catalogue/publish", handleAdminPublish(d)},
		{"adminPublish", "GET /api/admin/catalogue/publish", handleAdminPublishStatus(d)},
	}
}

// adminPerPage is the size of a page of the staff lists.
const adminPerPage = 25

// adminCursorPrefix starts every decoded staff list cursor.
const adminCursorPrefix = "s1:"

func encodeListCursor(c *store.ListCursor) *string {
	if c == nil {
		return nil
	}
	b, _ := json.Marshal([]string{c.PK, c.SK, c.GSI3SK})
	s := base64.RawURLEncoding.EncodeToString(append([]byte(adminCursorPrefix), b...))
	return &s
}

func decodeListCursor(r *http.Request) (*store.ListCursor, error) {
	if !r.URL.Query().Has("cursor") {
		return nil, nil
	}
	c := r.URL.Query().Get("cursor")
	b, err := base64.RawURLEncoding.DecodeString(c)
	raw, ok := strings.CutPrefix(string(b), adminCursorPrefix)
	var parts []string
	if len(c) > 512 || err != nil || !ok || json.Unmarshal([]byte(raw), &parts) != nil || len(parts) != 3 {
		const problem = "This is not a cursor this shop gave: ask for the first page again (no cursor)."
		return nil, &errBadRequest{msg: problem, problems: map[string]string{"cursor": problem}}
	}
	return &store.ListCursor{PK: parts[0], SK: parts[1], GSI3SK: parts[2]}, nil
}

// queryText reads a search query parameter under the text rule (at most 100 characters).
func queryText(r *http.Request, name string) (string, error) {
	q := r.URL.Query().Get(name)
	f := text.Field{Name: name, Label: "Search", Max: 100}
	var c text.Cleaner
	c.Clean(f, &q)
	if len(c.Problems) > 0 {
		return "", invalidFields(c.Problems)
	}
	return q, nil
}

// statuses a staff list may be filtered by.
var listStatuses = []string{orders.StatusPlaced, orders.StatusConfirmed, orders.StatusDispatched, orders.StatusCompleted, orders.StatusCancelled}

var orderNumber = regexp.MustCompile(`(?i)^ts-\d{6,12}$`)

// adminOrderSummary is one order in the staff list.
type adminOrderSummary struct {
	ID            string `json:"id"`
	PlacedAt      int64  `json:"placed_at"`
	Status        string `json:"status"`
	Version       int64  `json:"version"`
	Company       string `json:"company"`
	Business      string `json:"business"`
	Email         string `json:"email"`
	PORef         string `json:"po_ref"`
	PaymentMethod string `json:"payment_method"`
	Paid          bool   `json:"paid"`
	TotalIncVAT   int64  `json:"total_inc_vat"`
	Lines         int    `json:"lines"`
}

func summaryOf(o orders.Order) adminOrderSummary {
	s := adminOrderSummary{ID: o.ID, PlacedAt: o.PlacedAt.UnixMilli(), Status: o.Status, Version: o.Version, Email: o.Email,
		Paid: o.Paid(), TotalIncVAT: o.TotalIncVAT, Lines: len(o.Lines)}
	if o.Billing != nil {
		s.Company, s.Business, s.PORef, s.PaymentMethod = o.Billing.Company, o.Billing.Company, o.Billing.PORef, o.Billing.PaymentMethod
	}
	return s
}

// handleAdminOrders answers GET /api/admin/orders[?status=&q=&cursor=]: a page of
// orders, newest first. A q that is an order number finds that order alone.
func handleAdminOrders(d Deps) http.Handler {
	return staffGet(d.Log, d, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		status := r.URL.Query().Get("status")
		if status != "" && !slices.Contains(listStatuses, status) {
			writeError(w, r, d.Log, invalidField("status", "The status must be one of "+strings.Join(listStatuses, ", ")+", or empty for all."))
			return
		}
		q, err := queryText(r, "q")
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		from, err := decodeListCursor(r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		page := struct {
			Orders []adminOrderSummary `json:"orders"`
			Next   *string             `json:"next"`
		}{Orders: []adminOrderSummary{}}
		if orderNumber.MatchString(q) {
			o, err := d.Store.OrderByID(r.Context(), strings.ToUpper(q))
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				writeError(w, r, d.Log, err)
				return
			}
			if err == nil && (status == "" || o.Status == status || status == orders.StatusCancelled && o.Status == orders.StatusCancelling) {
				page.Orders = append(page.Orders, summaryOf(o))
			}
			encode(w, http.StatusOK, page)
			return
		}
		list, next, err := d.Store.StaffOrders(r.Context(), status, q, from, adminPerPage)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		for _, o := range list {
			page.Orders = append(page.Orders, summaryOf(o))
		}
		page.Next = encodeListCursor(next)
		encode(w, http.StatusOK, page)
	})
}

// auditAnswer is one audit entry as staff see it.
type auditAnswer struct {
	At     int64          `json:"at"`
	Who    staffAnswer    `json:"who"`
	Action string         `json:"action"`
	Before map[string]any `json:"before"`
	After  map[string]any `json:"after"`
}

type staffAnswer struct {
	UID   string `json:"uid"`
	Email string `json:"email"`
}

func auditAnswers(list []orders.AuditEntry) []auditAnswer {
	out := make([]auditAnswer, len(list))
	for i, e := range list {
		out[i] = auditAnswer{At: e.At.UnixMilli(), Who: staffAnswer(e.By), Action: e.Action, Before: e.Before, After: e.After}
	}
	return out
}

// adminOrderAnswer is an order as staff see it: the buyer's answer and who placed it.
type adminOrderAnswer struct {
	orderAnswer
	UID      string `json:"uid"`
	Email    string `json:"email"`
	Business string `json:"business"`
	Version  int64  `json:"version"`
}

type adminOrderPage struct {
	Order adminOrderAnswer `json:"order"`
	Audit []auditAnswer    `json:"audit"`
}

// orderPage answers order o with its audit trail.
func orderPage(ctx context.Context, st *store.Store, o orders.Order) (adminOrderPage, error) {
	audit, err := st.Audit(ctx, store.AuditOrder+o.ID)
	if err != nil {
		return adminOrderPage{}, err
	}
	a := adminOrderAnswer{orderAnswer: orderAnswerOf(o), UID: o.UID, Email: o.Email, Version: o.Version}
	if o.Billing != nil {
		a.Business = o.Billing.Company
	}
	return adminOrderPage{Order: a, Audit: auditAnswers(audit)}, nil
}

// staffOrder reads the path's order for staff: a path id that is not an order number is
// never looked up (404).
func staffOrder(r *http.Request, st *store.Store) (orders.Order, error) {
	id := r.PathValue("id")
	if !orders.ValidID(id) {
		return orders.Order{}, store.ErrNotFound
	}
	return st.OrderByID(r.Context(), id)
}

// handleAdminOrder answers GET /api/admin/orders/{id}: the order and its audit trail.
func handleAdminOrder(d Deps) http.Handler {
	return staffGet(d.Log, d, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		o, err := staffOrder(r, d.Store)
		if err == nil {
			var page adminOrderPage
			if page, err = orderPage(r.Context(), d.Store, o); err == nil {
				encode(w, http.StatusOK, page)
				return
			}
		}
		writeError(w, r, d.Log, err)
	})
}

// actionRequest is POST /api/admin/orders/{id}/action.
type actionRequest struct {
	Token    string `json:"token"`
	Action   string `json:"action"`
	Version  int64  `json:"version"`
	Carrier  string `json:"carrier"`
	Tracking string `json:"tracking"`
	Reason   string `json:"reason"`
}

func (a actionRequest) idToken() string { return a.Token }

func (a *actionRequest) clean() map[string]string {
	var c text.Cleaner
	if a.Action == orders.ActionDispatch {
		c.Clean(orders.Carrier, &a.Carrier)
		c.Clean(orders.Tracking, &a.Tracking)
	}
	if a.Action == orders.ActionCancel {
		c.Clean(orders.CancelReason, &a.Reason)
	}
	return c.Problems
}

func (a actionRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if !slices.Contains(orders.Actions, a.Action) {
		problems["action"] = "The action must be one of " + strings.Join(orders.Actions, ", ") + "."
	}
	if a.Version < 0 {
		problems["version"] = "The version must be the order's version as the page read it: reload the page."
	}
	if a.Action != orders.ActionDispatch && (a.Carrier != "" || a.Tracking != "") {
		problems["carrier"] = "A carrier is only sent with dispatch."
	}
	if a.Action != orders.ActionCancel && a.Reason != "" {
		problems["reason"] = "A reason is only sent with cancel."
	}
	return problems
}

// handleAdminOrderAction answers POST /api/admin/orders/{id}/action: the action taken
// and the order after it, or 409 saying why it may not be taken now (including someone
// else acting first).
func handleAdminOrderAction(d Deps, life orders.Lifecycle) http.Handler {
	return staffPost(d.Log, d, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req actionRequest) {
		o, err := staffOrder(r, d.Store)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		after, err := life.Act(r.Context(), o.UID, o.ID, orders.Action{Name: req.Action, Version: req.Version, Carrier: req.Carrier,
			Tracking: req.Tracking, Reason: req.Reason, By: by})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		page, err := orderPage(r.Context(), d.Store, after)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, page)
	})
}

// london is the shop's calendar: export days are London days.
var london = func() *time.Location {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		return time.UTC
	}
	return loc
}()

// handleAdminExport answers GET /api/admin/export?from=&to=: the orders placed on those
// London days (both included) as CSV, one row per line.
func handleAdminExport(d Deps) http.Handler {
	return staffGet(d.Log, d, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		problems := map[string]string{}
		day := func(name string) time.Time {
			v := r.URL.Query().Get(name)
			t, err := time.ParseInLocation(time.DateOnly, v, london)
			if err != nil {
				problems[name] = "The " + name + " date must be a date as YYYY-MM-DD."
			}
			return t
		}
		from, to := day("from"), day("to")
		if len(problems) == 0 {
			switch {
			case to.Before(from):
				problems["to"] = "The to date must not be before the from date."
			case to.Sub(from) > 366*24*time.Hour:
				problems["to"] = "The to date must be at most 366 days after the from date."
			}
		}
		if len(problems) > 0 {
			writeError(w, r, d.Log, invalidFields(problems))
			return
		}
		list, err := d.Store.OrdersPlaced(r.Context(), from, to.AddDate(0, 0, 1))
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		doc, err := orders.ExportCSV(list, london)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="orders-`+from.Format(time.DateOnly)+`-to-`+to.Format(time.DateOnly)+`.csv"`)
		w.Header().Set("Cache-Control", "private, no-store")
		_, _ = w.Write(doc)
	})
}

// isStale is a staff write that lost to another change.
func isStale(err error) bool { return errors.Is(err, store.ErrChanged) }

// staleError is the 409 of a staff write on something changed since the page read it.
func staleError(what string) error {
	return &shoperr.ConflictError{Msg: what + " was changed by someone else since you opened it: reload it and try again."}
}
