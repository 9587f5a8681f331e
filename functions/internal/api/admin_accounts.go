package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
)

// adminAccountAnswer is a trade account as staff see it. Version is updated_at: a change
// names it, and is refused if the account changed since.
type adminAccountAnswer struct {
	UID               string         `json:"uid"`
	Business          string         `json:"business"`
	Email             string         `json:"email"`
	Telephone         string         `json:"telephone"`
	ApprovedForCredit bool           `json:"approved_for_credit"`
	CreditLimit       *int64         `json:"credit_limit"`
	Owed              int64          `json:"owed"`
	DSC               string         `json:"dsc"`
	Version           int64          `json:"version"`
	UpdatedAt         int64          `json:"updated_at"`
	Billing           *store.Billing `json:"billing"`
}

func accountAnswerOf(p store.Profile) adminAccountAnswer {
	return adminAccountAnswer{UID: p.UID, Business: p.Business, Email: p.Email, Telephone: p.Telephone,
		ApprovedForCredit: p.ApprovedForCredit, CreditLimit: p.CreditLimit, Owed: p.Owed, DSC: p.DSC,
		Version: p.UpdatedAt.UnixMilli(), UpdatedAt: p.UpdatedAt.UnixMilli(), Billing: p.Billing}
}

// handleAdminAccounts answers GET /api/admin/accounts[?q=&cursor=]: a page of trade
// accounts by business name.
func handleAdminAccounts(d Deps) http.Handler {
	return staffGet(d.Log, d, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
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
		list, next, err := d.Store.StaffAccounts(r.Context(), q, from, adminPerPage)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		page := struct {
			Accounts []adminAccountAnswer `json:"accounts"`
			Next     *string              `json:"next"`
		}{Accounts: make([]adminAccountAnswer, len(list)), Next: encodeListCursor(next)}
		for i, p := range list {
			page.Accounts[i] = accountAnswerOf(p)
		}
		encode(w, http.StatusOK, page)
	})
}

type adminAccountPage struct {
	Account adminAccountAnswer `json:"account"`
	Audit   []auditAnswer      `json:"audit"`
}

func accountPage(ctx context.Context, st *store.Store, uid string) (adminAccountPage, error) {
	p, err := st.Profile(ctx, uid)
	if err != nil {
		return adminAccountPage{}, err
	}
	audit, err := st.Audit(ctx, store.AuditAccount+uid)
	if err != nil {
		return adminAccountPage{}, err
	}
	return adminAccountPage{Account: accountAnswerOf(p), Audit: auditAnswers(audit)}, nil
}

// validUID says s could be a Firebase uid (1 to 128 letters, digits, - or _).
func validUID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// handleAdminAccount answers GET /api/admin/accounts/{uid}: the account and its audit trail.
func handleAdminAccount(d Deps) http.Handler {
	return staffGet(d.Log, d, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		uid := r.PathValue("uid")
		if !validUID(uid) {
			writeError(w, r, d.Log, store.ErrNotFound)
			return
		}
		page, err := accountPage(r.Context(), d.Store, uid)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, page)
	})
}

// maxCreditLimit bounds a credit limit (pence): £1,000,000.
const maxCreditLimit = 100_000_000

// accountChangeRequest is POST /api/admin/accounts/{uid}.
type accountChangeRequest struct {
	Token             string `json:"token"`
	Version           int64  `json:"version"`
	ApprovedForCredit bool   `json:"approved_for_credit"`
	CreditLimit       *int64 `json:"credit_limit"`
	DSC               string `json:"dsc"`
}

func (a accountChangeRequest) idToken() string { return a.Token }

func (a accountChangeRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if a.Version <= 0 {
		problems["version"] = "The version must be the account's version as the page read it: reload the page."
	}
	switch {
	case a.ApprovedForCredit && a.CreditLimit == nil:
		problems["credit_limit"] = "A credit limit is required to approve the account for credit."
	case a.CreditLimit != nil && (*a.CreditLimit < 0 || *a.CreditLimit > maxCreditLimit):
		problems["credit_limit"] = "The credit limit must be between £0 and £1,000,000."
	}
	if a.DSC != "" {
		if len(a.DSC) > 4000 {
			problems["dsc"] = "The discounts must be at most 4000 characters."
		} else if _, err := pricing.MergeDiscounts(nil, a.DSC); err != nil {
			problems["dsc"] = "The discounts must be a JSON object of \"range:url-text\", \"category:id\" or \"product:SKU\" to a whole percentage from 0 to 100 (" + err.Error() + ")."
		}
	}
	return problems
}

// canonicalDSC is dsc as the shop stores it: keys sorted, no spaces ("" for none).
func canonicalDSC(dsc string) string {
	if dsc == "" {
		return ""
	}
	var m map[string]int
	if json.Unmarshal([]byte(dsc), &m) != nil || len(m) == 0 {
		return ""
	}
	b, _ := json.Marshal(m) // encoding/json writes map keys sorted
	return string(b)
}

// handleAdminAccountUpdate answers POST /api/admin/accounts/{uid}: approves (or not)
// for credit with a limit and sets the account's own discounts, audited; 409 if the
// account changed since the page read it.
func handleAdminAccountUpdate(d Deps) http.Handler {
	return staffPost(d.Log, d, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req accountChangeRequest) {
		uid := r.PathValue("uid")
		if !validUID(uid) {
			writeError(w, r, d.Log, store.ErrNotFound)
			return
		}
		p, err := d.Store.Profile(r.Context(), uid)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if p.UpdatedAt.UnixMilli() != req.Version {
			writeError(w, r, d.Log, staleError(fmt.Sprintf("The account of %s", p.Business)))
			return
		}
		dsc := canonicalDSC(req.DSC)
		before := map[string]any{"approved_for_credit": p.ApprovedForCredit, "credit_limit": p.CreditLimit, "dsc": p.DSC}
		after := map[string]any{"approved_for_credit": req.ApprovedForCredit, "credit_limit": req.CreditLimit, "dsc": dsc}
		now := d.Now()
		if !now.After(p.UpdatedAt) {
			now = p.UpdatedAt.Add(time.Millisecond) // the version must move on
		}
		err = d.Store.ChangeAccount(r.Context(), store.AccountChange{UID: uid, Seen: p.UpdatedAt, ApprovedForCredit: req.ApprovedForCredit,
			CreditLimit: req.CreditLimit, DSC: dsc, Audit: orders.AuditEntry{At: now, By: by, Action: "account", Before: before, After: after}})
		if isStale(err) {
			err = staleError(fmt.Sprintf("The account of %s", p.Business))
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		page, err := accountPage(r.Context(), d.Store, uid)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, page)
	})
}
