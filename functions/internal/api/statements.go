package api

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/invoicepdf"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/statements"
)

// Statements (docs/statements.md): the buyer's statement on the dashboard and as a PDF,
// and the back office's balances list and aged debt report.

// ageingAnswer is one bucket of what open invoices owe by days past due (pence): in
// order current (not yet due), days_1_30, days_31_60, days_61_90 and days_over_90, the
// aged debt report's columns.
type ageingAnswer struct {
	Bucket string `json:"bucket" ts:"'current' | 'days_1_30' | 'days_31_60' | 'days_61_90' | 'days_over_90'"`
	Amount int64  `json:"amount"`
}

func ageingAnswerOf(a statements.Ageing) []ageingAnswer {
	out := make([]ageingAnswer, 0, len(statements.AgeingBuckets))
	for i, v := range a.Buckets() {
		out = append(out, ageingAnswer{Bucket: statements.AgeingBuckets[i], Amount: v})
	}
	return out
}

// openItemAnswer is an invoice that still owes something: dates are London days
// (YYYY-MM-DD), money pence.
type openItemAnswer struct {
	Invoice     string `json:"invoice"`
	OrderID     string `json:"order_id"`
	Date        string `json:"date"`
	DueOn       string `json:"due_on"`
	Amount      int64  `json:"amount"`
	Outstanding int64  `json:"outstanding"`
	PastDue     bool   `json:"past_due"`
	DaysOverdue int    `json:"days_overdue"`
}

// statementAnswer is GET /api/account/statement: the account's statement today. balance
// = due − unallocated (what payments and credit on account hold not yet allocated);
// overdue is the part of due past its due dates; entries the whole ledger, oldest first,
// with its running balance.
type statementAnswer struct {
	Business          string              `json:"business"`
	OnAccount         bool                `json:"on_account"`
	Date              string              `json:"date"`
	Balance           int64               `json:"balance"`
	Due               int64               `json:"due"`
	Overdue           int64               `json:"overdue"`
	Unallocated       int64               `json:"unallocated"`
	OldestOverdueDays int                 `json:"oldest_overdue_days"`
	Ageing            []ageingAnswer      `json:"ageing"`
	OpenItems         []openItemAnswer    `json:"open_items"`
	Entries           []ledgerEntryAnswer `json:"entries"`
}

func statementAnswerOf(st statements.Statement) statementAnswer {
	a := statementAnswer{Business: st.Account.Business, OnAccount: st.Account.OnAccount, Date: st.Date.Format(time.DateOnly),
		Balance: st.Balance, Due: st.Due, Overdue: st.Overdue, Unallocated: st.CreditOnAccount, OldestOverdueDays: st.OldestOverdueDays,
		Ageing: ageingAnswerOf(st.Ageing), OpenItems: make([]openItemAnswer, len(st.Open)),
		Entries: ledgerAnswerOf(payments.Ledger{Entries: st.Entries}).Entries}
	for i := range a.Entries {
		a.Entries[i].Flag = "" // a note to staff, not the buyer's
	}
	for i, it := range st.Open {
		a.OpenItems[i] = openItemAnswer{Invoice: it.Reference, OrderID: it.OrderID, Date: it.Date.Format(time.DateOnly),
			DueOn: it.DueOn.Format(time.DateOnly), Amount: it.Gross, Outstanding: it.Outstanding, PastDue: it.Overdue, DaysOverdue: it.DaysOverdue}
	}
	return a
}

// handleStatement answers GET /api/account/statement: the signed-in buyer's statement
// (their own account only: the uid is the token's); 404 for a buyer with no account.
func handleStatement(log *slog.Logger, verify auth.Verifier, sts statements.Service) http.Handler {
	return withBearer(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		st, err := sts.Statement(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		w.Header().Set("Cache-Control", "private, no-store")
		encode(w, http.StatusOK, statementAnswerOf(st))
	})
}

// handleStatementPDF answers GET /api/account/statement.pdf: the signed-in buyer's
// statement as an A4 PDF to download.
func handleStatementPDF(log *slog.Logger, verify auth.Verifier, sts statements.Service) http.Handler {
	return withBearer(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		st, err := sts.Statement(r.Context(), who.UID)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		doc, err := invoicepdf.RenderStatement(st, sts.Shop)
		if err != nil {
			writeError(w, r, log, err)
			return
		}
		writePDF(w, "statement-"+st.Date.Format(time.DateOnly), doc)
	})
}

// balanceAnswer is one account's balance as the back office lists it.
type balanceAnswer struct {
	UID               string         `json:"uid"`
	Business          string         `json:"business"`
	Balance           int64          `json:"balance"`
	Due               int64          `json:"due"`
	Overdue           int64          `json:"overdue"`
	Unallocated       int64          `json:"unallocated"`
	OldestOverdueDays int            `json:"oldest_overdue_days"`
	Ageing            []ageingAnswer `json:"ageing"`
}

// adminBalancesAnswer is GET /api/admin/balances: every account with a balance (or money
// owed or held), by business name, and their totals (uid and business empty).
type adminBalancesAnswer struct {
	Date     string          `json:"date"`
	Accounts []balanceAnswer `json:"accounts"`
	Totals   balanceAnswer   `json:"totals"`
}

func balancesAnswerOf(sts []statements.Statement, today time.Time) adminBalancesAnswer {
	a := adminBalancesAnswer{Date: payments.Day(today).Format(time.DateOnly), Accounts: make([]balanceAnswer, len(sts))}
	var total statements.Ageing
	for i, st := range sts {
		a.Accounts[i] = balanceAnswer{UID: st.Account.UID, Business: st.Account.Business, Balance: st.Balance, Due: st.Due,
			Overdue: st.Overdue, Unallocated: st.CreditOnAccount, OldestOverdueDays: st.OldestOverdueDays, Ageing: ageingAnswerOf(st.Ageing)}
		t := &a.Totals
		t.Balance, t.Due, t.Overdue, t.Unallocated = t.Balance+st.Balance, t.Due+st.Due, t.Overdue+st.Overdue, t.Unallocated+st.CreditOnAccount
		t.OldestOverdueDays = max(t.OldestOverdueDays, st.OldestOverdueDays)
		total = total.Plus(st.Ageing)
	}
	a.Totals.Ageing = ageingAnswerOf(total)
	return a
}

// handleAdminBalances answers GET /api/admin/balances: every account's balance, due,
// overdue and oldest overdue days (the page sorts them).
func handleAdminBalances(g staffGate, sts statements.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		list, err := sts.All(r.Context())
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, balancesAnswerOf(list, sts.Now()))
	})
}

// handleAdminAgedDebt answers GET /api/admin/balances/aged.csv: the aged debt report,
// one row per account with a balance and a totals row (docs/statements.md).
func handleAdminAgedDebt(g staffGate, sts statements.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		list, err := sts.All(r.Context())
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		today := sts.Now()
		doc, err := statements.AgedDebtCSV(list)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="aged-debt-`+today.In(london).Format(time.DateOnly)+`.csv"`)
		w.Header().Set("Cache-Control", "private, no-store")
		_, _ = w.Write(doc)
	})
}
