package api

import (
	"context"
	"fmt"
	"net/http"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/text"
)

// Part of an order (docs/invoices.md "Part of an order"): staff credit lines, units or the
// delivery charge of an invoiced order with a VAT credit note. Before dispatch the units
// come off what is to be sent and go back to stock; after dispatch it is a return, each
// line's units back to stock when staff say so. The order's state decides which.

// creditLineRequest is one line of a credit: the order line's index, the units credited,
// and (after dispatch) whether they go back to stock.
type creditLineRequest struct {
	Line    int  `json:"line"`
	Units   int  `json:"units"`
	Restock bool `json:"restock"`
}

// creditRequest is POST /api/admin/orders/{id}/credit.
type creditRequest struct {
	Token    string              `json:"token"`
	Version  int                 `json:"version"`
	Lines    []creditLineRequest `json:"lines"`
	Delivery int64               `json:"delivery"` // pence ex VAT
	Reason   string              `json:"reason"`
}

func (c creditRequest) idToken() string { return c.Token }

func (c *creditRequest) clean() map[string]string {
	var cl text.Cleaner
	cl.Clean(orders.CreditReason, &c.Reason)
	return cl.Problems
}

func (c creditRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if c.Version < 0 {
		problems["version"] = "The version must be the order's version as the page read it: reload the page."
	}
	if len(c.Lines) == 0 && c.Delivery == 0 {
		problems["lines"] = "Give the units of at least one line, or a delivery amount, to credit."
	}
	if len(c.Lines) > orders.MaxCreditLines {
		problems["lines"] = fmt.Sprintf("Credit at most %d lines at once: credit the rest in a second note.", orders.MaxCreditLines)
	}
	for i, l := range c.Lines {
		if l.Line < 0 {
			problems[fmt.Sprintf("lines[%d].line", i)] = "The line must be one of the order's lines."
		}
		if l.Units <= 0 {
			problems[fmt.Sprintf("lines[%d].units", i)] = "The units to credit must be at least 1."
		}
	}
	if c.Delivery < 0 {
		problems["delivery"] = "The delivery credited must not be negative."
	}
	return problems
}

// handleAdminOrderCredit answers POST /api/admin/orders/{id}/credit: the order after the
// credit note (its page with the trail), 400 naming the fields, or 409 saying why not (a
// stale version, more units than are left, every unit left before dispatch: cancel
// instead).
func handleAdminOrderCredit(g staffGate, st staffOrderStore, life orders.Lifecycle) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req creditRequest) {
		c := orders.CreditAction{Version: int64(req.Version), Delivery: req.Delivery, Reason: req.Reason, By: by}
		for _, l := range req.Lines {
			c.Lines = append(c.Lines, orders.CreditUnits{Line: l.Line, Units: l.Units, Restock: l.Restock})
		}
		changeOrder(w, r, g, st, func(o orders.Order) (orders.Order, error) { return life.Credit(r.Context(), o.UID, o.ID, c) })
	})
}
