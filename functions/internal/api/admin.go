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
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/coupons"
	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/stock"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
	"github.com/tradeshop/functions/internal/tradeaccounts"
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

// staffGate is what every back-office endpoint checks before it reads or writes: the
// CSRF checks, the ID token and the staff claim. Log is where the endpoint's failures go.
type staffGate struct {
	Log    *slog.Logger
	CSRF   *csrf.Protector
	Verify auth.Verifier
}

// staffGet is a staff read: CSRF, the bearer token, the staff claim.
func staffGet(g staffGate, next func(w http.ResponseWriter, r *http.Request, by orders.Staff)) http.Handler {
	return protect(g.Log, g.CSRF, withBearer(g.Log, g.Verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		by, err := staffOf(who)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		w.Header().Set("X-Robots-Tag", "noindex")
		next(w, r, by)
	}))
}

// staffPost is a staff write: CSRF, then the body's token and the staff claim (so a
// buyer is refused with 403 whatever else the body holds), then the body validated.
func staffPost[T tokenBody](g staffGate, next func(w http.ResponseWriter, r *http.Request, by orders.Staff, body T)) http.Handler {
	return staffPostAtMost(g, maxBodyBytes, bodyTooLarge, next)
}

// staffPostAtMost is staffPost for a body of at most limit bytes; a larger one answers
// tooLarge(limit).
func staffPostAtMost[T tokenBody](g staffGate, limit int64, tooLarge func(int64) error,
	next func(w http.ResponseWriter, r *http.Request, by orders.Staff, body T)) http.Handler {
	return protect(g.Log, g.CSRF, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
		if err != nil {
			writeError(w, r, g.Log, tooLarge(limit))
			return
		}
		var tok struct {
			Token string `json:"token"`
		}
		_ = json.Unmarshal(raw, &tok) // a body that is not JSON has no token: 401
		who, err := g.Verify.Verify(r.Context(), tok.Token)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		by, err := staffOf(who)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		body, err := decodeAtMost[T](r, limit, tooLarge)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		next(w, r, by, body)
	}))
}

// catalogueDeps is what the catalogue's staff endpoints use: the gate, the store's
// catalogue (import and export), the media store of uploaded pictures (nil: none here)
// and the clock.
type catalogueDeps struct {
	staffGate
	Store catalogueStore
	Media media.Store
	Now   func() time.Time
}

// catalogueStore is the store's catalogue as the import and the export use it.
type catalogueStore interface {
	catimport.Store
	Catalogue(ctx context.Context) ([]catalogue.Range, []catalogue.Category, []catalogue.Product, error)
}

// publishDeps is what the publish endpoints use: the gate and the publisher (nil where
// the stack cannot publish).
type publishDeps struct {
	staffGate
	Publisher Publisher
}

// staffOrderStore is what the staff's order pages read; their actions go through
// orders.Lifecycle.
type staffOrderStore interface {
	// StaffOrders reads at most n orders, newest first, of status (empty: all) matching q, after from.
	StaffOrders(ctx context.Context, status, q string, from *store.ListCursor, n int) ([]orders.Order, *store.ListCursor, error)
	// OrderByID reads order id; store.ErrNotFound when there is none.
	OrderByID(ctx context.Context, id string) (orders.Order, error)
	// OrdersPlaced reads the orders placed from from until to.
	OrdersPlaced(ctx context.Context, from, to time.Time) ([]orders.Order, error)
	// Audit reads the newest entries of a thing's audit trail (store.AuditOrder+id).
	Audit(ctx context.Context, thing string) ([]orders.AuditEntry, error)
}

// adminEndpoints lists the back office's endpoints.
func adminEndpoints(d Deps, life orders.Lifecycle) []Endpoint {
	staff := staffGate{Log: d.Log, CSRF: d.CSRF, Verify: d.Verifier}
	accounts := tradeaccounts.Service{Store: d.Store, Now: d.Now}
	offers := coupons.Service{Store: d.Store, Now: d.Now}
	stocks := stock.Service{Store: d.Store, Now: d.Now}
	cat := catalogueDeps{staffGate: staff, Store: d.Store, Media: d.Media, Now: d.Now}
	pub := publishDeps{staffGate: staff, Publisher: d.Publisher}
	return []Endpoint{
		{"adminMe", "GET /api/admin/me", handleAdminMe(staff)},
		{"adminOrders", "GET /api/admin/orders", handleAdminOrders(staff, d.Store)},
		{"adminOrder", "GET /api/admin/orders/{id}", handleAdminOrder(staff, d.Store)},
		{"adminOrderAction", "POST /api/admin/orders/{id}/action", handleAdminOrderAction(staff, d.Store, life)},
		{"adminExport", "GET /api/admin/export", handleAdminExport(staff, d.Store)},
		{"adminAccounts", "GET /api/admin/accounts", handleAdminAccounts(staff, accounts)},
		{"adminAccount", "GET /api/admin/accounts/{uid}", handleAdminAccount(staff, accounts)},
		{"adminAccountUpdate", "POST /api/admin/accounts/{uid}", handleAdminAccountUpdate(staff, accounts)},
		{"adminCoupons", "GET /api/admin/coupons", handleAdminCoupons(staff, offers)},
		{"adminCouponSave", "POST /api/admin/coupons", handleAdminCouponSave(staff, offers, true)},
		{"adminCouponSave", "POST /api/admin/coupons/{id}", handleAdminCouponSave(staff, offers, false)},
		{"adminProduct", "GET /api/admin/products/{sku}", handleAdminProduct(staff, stocks)},
		{"adminStock", "POST /api/admin/products/{sku}/stock", handleAdminStock(staff, stocks)},
		{"adminCatalogueCheck", "POST /api/admin/catalogue/check", handleCatalogueCheck(cat)},
		{"adminCatalogueApply", "POST /api/admin/catalogue/apply", handleCatalogueApply(cat)},
		{"adminCatalogueImages", "POST /api/admin/catalogue/images", handleCatalogueImages(cat)},
		{"adminCatalogueExport", "GET /api/admin/catalogue/export", handleCatalogueExport(cat)},
		{"adminPublish", "POST /api/admin/catalogue/publish", handleAdminPublish(pub)},
		{"adminPublish", "GET /api/admin/catalogue/publish", handleAdminPublishStatus(pub)},
	}
}

// handleAdminMe answers GET /api/admin/me: who the member of staff is (403 for anyone
// else), which is how the pages decide to draw the back office.
func handleAdminMe(g staffGate) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, _ *http.Request, by orders.Staff) {
		encode(w, http.StatusOK, adminMeAnswer{UID: by.UID, Email: by.Email})
	})
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
		const problem = "is not a cursor this shop gave; ask for the first page again (no cursor)"
		return nil, &errBadRequest{msg: "cursor " + problem, problems: map[string]string{"cursor": problem}}
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

// handleAdminOrders answers GET /api/admin/orders[?status=&q=&cursor=]: a page of
// orders, newest first. A q that is an order number finds that order alone.
func handleAdminOrders(g staffGate, st staffOrderStore) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		status := r.URL.Query().Get("status")
		if status != "" && !slices.Contains(listStatuses, status) {
			writeError(w, r, g.Log, invalidField("status", "must be one of "+strings.Join(listStatuses, ", ")+", or empty for all"))
			return
		}
		q, err := queryText(r, "q")
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		from, err := decodeListCursor(r)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		page := adminOrdersPage{Orders: []adminOrderSummary{}}
		if orderNumber.MatchString(q) {
			o, err := st.OrderByID(r.Context(), strings.ToUpper(q))
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				writeError(w, r, g.Log, err)
				return
			}
			if err == nil && (status == "" || o.Status == status || status == orders.StatusCancelled && o.Status == orders.StatusCancelling) {
				page.Orders = append(page.Orders, summaryOf(o))
			}
			encode(w, http.StatusOK, page)
			return
		}
		list, next, err := st.StaffOrders(r.Context(), status, q, from, adminPerPage)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		for _, o := range list {
			page.Orders = append(page.Orders, summaryOf(o))
		}
		page.Next = encodeListCursor(next)
		encode(w, http.StatusOK, page)
	})
}

// orderPage answers order o with its audit trail.
func orderPage(ctx context.Context, st staffOrderStore, o orders.Order) (adminOrderPage, error) {
	audit, err := st.Audit(ctx, store.AuditOrder+o.ID)
	if err != nil {
		return adminOrderPage{}, err
	}
	return adminOrderPage{Order: adminOrderOf(o), Audit: auditAnswers(audit)}, nil
}

// staffOrder reads the path's order for staff: a path id that is not an order number is
// never looked up (404).
func staffOrder(r *http.Request, st staffOrderStore) (orders.Order, error) {
	id := r.PathValue("id")
	if !orders.ValidID(id) {
		return orders.Order{}, store.ErrNotFound
	}
	return st.OrderByID(r.Context(), id)
}

// handleAdminOrder answers GET /api/admin/orders/{id}: the order and its audit trail.
func handleAdminOrder(g staffGate, st staffOrderStore) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		o, err := staffOrder(r, st)
		if err == nil {
			var page adminOrderPage
			if page, err = orderPage(r.Context(), st, o); err == nil {
				encode(w, http.StatusOK, page)
				return
			}
		}
		writeError(w, r, g.Log, err)
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
		problems["action"] = "must be one of " + strings.Join(orders.Actions, ", ")
	}
	if a.Version < 0 {
		problems["version"] = "must be the order's version as the page read it"
	}
	if a.Action != orders.ActionDispatch && (a.Carrier != "" || a.Tracking != "") {
		problems["carrier"] = "is only sent with dispatch"
	}
	if a.Action != orders.ActionCancel && a.Reason != "" {
		problems["reason"] = "is only sent with cancel"
	}
	return problems
}

// handleAdminOrderAction answers POST /api/admin/orders/{id}/action: the action taken
// and the order after it, or 409 saying why it may not be taken now (including someone
// else acting first).
func handleAdminOrderAction(g staffGate, st staffOrderStore, life orders.Lifecycle) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req actionRequest) {
		o, err := staffOrder(r, st)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		after, err := life.Act(r.Context(), o.UID, o.ID, orders.Action{Name: req.Action, Version: req.Version, Carrier: req.Carrier,
			Tracking: req.Tracking, Reason: req.Reason, By: by})
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		page, err := orderPage(r.Context(), st, after)
		if err != nil {
			writeError(w, r, g.Log, err)
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
func handleAdminExport(g staffGate, st staffOrderStore) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		problems := map[string]string{}
		day := func(name string) time.Time {
			v := r.URL.Query().Get(name)
			t, err := time.ParseInLocation(time.DateOnly, v, london)
			if err != nil {
				problems[name] = "must be a date as YYYY-MM-DD"
			}
			return t
		}
		from, to := day("from"), day("to")
		if len(problems) == 0 {
			switch {
			case to.Before(from):
				problems["to"] = "must not be before from"
			case to.Sub(from) > 366*24*time.Hour:
				problems["to"] = "must be at most 366 days after from"
			}
		}
		if len(problems) > 0 {
			writeError(w, r, g.Log, invalidFields(problems))
			return
		}
		list, err := st.OrdersPlaced(r.Context(), from, to.AddDate(0, 0, 1))
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		doc, err := orders.ExportCSV(list, london)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="orders-`+from.Format(time.DateOnly)+`-to-`+to.Format(time.DateOnly)+`.csv"`)
		w.Header().Set("Cache-Control", "private, no-store")
		_, _ = w.Write(doc)
	})
}
