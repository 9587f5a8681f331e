package api

import (
	"context"
	"net/http"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
)

// The back office's credit hold (docs/back-office.md "Credit hold"): whether an account
// is on hold, and staff lifting it with a reason.

// creditHolds is the shop's credit hold over d's store, with shop.json's grace.
func creditHolds(d Deps) payments.Holds {
	return payments.Holds{Store: d.Store, Invoices: payments.Service{Store: d.Store, Now: d.Now},
		GraceDays: d.Shop.Credit.HoldGraceDays, Now: d.Now}
}

// creditHoldAnswer is an account's credit hold now.
type creditHoldAnswer struct {
	// Held says an order on account is refused now: Hold, and no lift in force.
	Held      bool            `json:"held"`
	GraceDays int             `json:"grace_days"`
	Hold      *heldInvoice    `json:"hold"`
	Lift      *holdLiftAnswer `json:"lift"`
}

// heldInvoice is the invoice that holds an account: overdue longest past the grace.
type heldInvoice struct {
	Invoice     string `json:"invoice"`
	OrderID     string `json:"order_id"`
	DueOn       string `json:"due_on"` // YYYY-MM-DD, London
	DaysOverdue int    `json:"days_overdue"`
	Outstanding int64  `json:"outstanding"`
}

// holdLiftAnswer is staff's last lift of the hold (in force while until is today or later).
type holdLiftAnswer struct {
	Until  string     `json:"until"` // YYYY-MM-DD, London, the last day it holds
	Reason string     `json:"reason"`
	At     unixMillis `json:"at"`
	By     string     `json:"by"` // email, else uid
	Active bool       `json:"active"`
}

func creditHoldAnswerOf(s payments.HoldStatus, now time.Time) creditHoldAnswer {
	a := creditHoldAnswer{Held: s.Held, GraceDays: s.GraceDays}
	if h := s.Hold; h != nil {
		a.Hold = &heldInvoice{Invoice: orders.InvoiceNumber(h.Invoice.Number), OrderID: h.Invoice.OrderID,
			DueOn: h.Invoice.DueOn().Format(time.DateOnly), DaysOverdue: h.DaysOverdue, Outstanding: h.Invoice.Outstanding()}
	}
	if l := s.Lift; l != nil {
		by := l.By.Email
		if by == "" {
			by = l.By.UID
		}
		a.Lift = &holdLiftAnswer{Until: l.Until, Reason: l.Reason, At: unixMillisOf(l.At), By: by, Active: l.ActiveOn(now)}
	}
	return a
}

// holdLiftRequest is POST /api/admin/accounts/{uid}/credit-hold/lift: the last day the
// lift holds (YYYY-MM-DD; "" for payments.DefaultLiftDays from today) and why.
type holdLiftRequest struct {
	Token  string `json:"token"`
	Until  string `json:"until"`
	Reason string `json:"reason"`
}

func (l holdLiftRequest) idToken() string { return l.Token }

func (l holdLiftRequest) Valid(context.Context) map[string]string {
	return payments.LiftProblems(l.Until, l.Reason, time.Now())
}

// handleAdminCreditHold answers GET /api/admin/accounts/{uid}/credit-hold: whether the
// account is on credit hold, by which invoice, and the last lift.
func handleAdminCreditHold(g staffGate, holds payments.Holds) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		uid := r.PathValue("uid")
		if _, err := holds.Store.AccountBusiness(r.Context(), uid); err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		s, err := holds.Status(r.Context(), uid)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, creditHoldAnswerOf(s, holds.Now()))
	})
}

// handleAdminLiftCreditHold answers POST /api/admin/accounts/{uid}/credit-hold/lift:
// lifts the account's hold until the day named, audited in the account's trail, and
// answers the hold after.
func handleAdminLiftCreditHold(g staffGate, holds payments.Holds) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req holdLiftRequest) {
		s, err := holds.Lift(r.Context(), r.PathValue("uid"), req.Until, req.Reason, by)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, creditHoldAnswerOf(s, holds.Now()))
	})
}
