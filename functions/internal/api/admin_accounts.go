package api

import (
	"context"
	"net/http"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/tradeaccounts"
)

// handleAdminAccounts answers GET /api/admin/accounts[?q=&cursor=]: a page of trade
// accounts by business name.
func handleAdminAccounts(g staffGate, accounts tradeaccounts.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
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
		list, next, err := accounts.List(r.Context(), q, from)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		page := adminAccountsPage{Accounts: make([]adminAccountAnswer, len(list)), Next: encodeListCursor(next)}
		for i, p := range list {
			page.Accounts[i] = accountAnswerOf(p)
		}
		encode(w, http.StatusOK, page)
	})
}

func accountPageOf(rec tradeaccounts.Record) adminAccountPage {
	return adminAccountPage{Account: accountAnswerOf(rec.Account), Audit: auditAnswers(rec.Audit)}
}

// handleAdminAccount answers GET /api/admin/accounts/{uid}: the account and its audit trail.
func handleAdminAccount(g staffGate, accounts tradeaccounts.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		rec, err := accounts.Read(r.Context(), r.PathValue("uid"))
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, accountPageOf(rec))
	})
}

// accountChangeRequest is POST /api/admin/accounts/{uid}.
type accountChangeRequest struct {
	Token             string `json:"token"`
	Version           int    `json:"version"`
	ApprovedForCredit bool   `json:"approved_for_credit"`
	CreditLimit       *int64 `json:"credit_limit"`
	DSC               string `json:"dsc"`
	PriceGroup        string `json:"price_group"`
}

func (a accountChangeRequest) idToken() string { return a.Token }

func (a accountChangeRequest) change(by orders.Staff) tradeaccounts.Change {
	return tradeaccounts.Change{Version: int64(a.Version), ApprovedForCredit: a.ApprovedForCredit, CreditLimit: a.CreditLimit, DSC: a.DSC, PriceGroup: a.PriceGroup, By: by}
}

func (a accountChangeRequest) Valid(context.Context) map[string]string {
	return tradeaccounts.Problems(a.change(orders.Staff{}))
}

// handleAdminAccountUpdate answers POST /api/admin/accounts/{uid}: approves (or not)
// for credit with a limit and sets the account's own discounts and price group (400 for
// a group that is not), audited; 409 if the
// account changed since the page read it.
func handleAdminAccountUpdate(g staffGate, accounts tradeaccounts.Service) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req accountChangeRequest) {
		rec, err := accounts.Change(r.Context(), r.PathValue("uid"), req.change(by))
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, accountPageOf(rec))
	})
}
