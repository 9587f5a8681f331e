package api

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
)

// The staff's order pages: the list, one order with its trail, the actions (through
// orders.Lifecycle, which holds their rules) and the CSV export.

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
	// Refunds reads an account's refunds (an order's refunds to the card).
	Refunds(ctx context.Context, uid string) ([]payments.Refund, error)
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
			writeError(w, r, g.Log, invalidField("status", "The status must be one of "+strings.Join(listStatuses, ", ")+", or empty for all."))
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
	refunds, err := cardRefundsOf(ctx, st, o)
	if err != nil {
		return adminOrderPage{}, err
	}
	page := adminOrderPage{Order: adminOrderOf(o), Audit: auditAnswers(audit)}
	// Staff see whether the buyer could pay the order by card now, and its card refunds.
	page.Order.Payment = orderPaymentOf(o, refunds, true)
	return page, nil
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
	Version  int    `json:"version"`
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
func handleAdminOrderAction(g staffGate, st staffOrderStore, life orders.Lifecycle) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req actionRequest) {
		changeOrder(w, r, g, st, func(o orders.Order) (orders.Order, error) {
			return life.Act(r.Context(), o.UID, o.ID, orders.Action{Name: req.Action, Version: int64(req.Version), Carrier: req.Carrier,
				Tracking: req.Tracking, Reason: req.Reason, By: by})
		})
	})
}

// changeOrder reads the order the request's path names, changes it with change and
// answers its page (with the trail) after the change; an error of either as writeError
// maps it.
func changeOrder(w http.ResponseWriter, r *http.Request, g staffGate, st staffOrderStore, change func(o orders.Order) (orders.Order, error)) {
	o, err := staffOrder(r, st)
	if err != nil {
		writeError(w, r, g.Log, err)
		return
	}
	after, err := change(o)
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
}

// london is the shop's calendar: export days are London days.
var london = func() *time.Location {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		return time.UTC
	}
	return loc
}()

// handleAdminExport answers GET /api/admin/export?from=&to=[&document=]: for the accounts
// package, the documents of those London days (both included) as CSV: the orders placed
// (one row per line; the default), or the invoices, credit notes, payments or refunds
// dated then (docs/exports.md).
func handleAdminExport(g staffGate, st staffOrderStore, docs payments.Exports) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		problems := map[string]string{}
		document := r.URL.Query().Get("document")
		if document == "" {
			document = payments.ExportOrders
		}
		if !slices.Contains(payments.ExportDocuments, document) {
			problems["document"] = "The document must be one of " + strings.Join(payments.ExportDocuments, ", ") + "."
		}
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
			writeError(w, r, g.Log, invalidFields(problems))
			return
		}
		var doc []byte
		var err error
		if document == payments.ExportOrders {
			var list []orders.Order
			if list, err = st.OrdersPlaced(r.Context(), from, to.AddDate(0, 0, 1)); err == nil {
				doc, err = orders.ExportCSV(list, london)
			}
		} else {
			doc, err = docs.CSV(r.Context(), document, from, to)
		}
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		name := strings.ReplaceAll(document, "_", "-")
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`-`+from.Format(time.DateOnly)+`-to-`+to.Format(time.DateOnly)+`.csv"`)
		w.Header().Set("Cache-Control", "private, no-store")
		_, _ = w.Write(doc)
	})
}
