package statements

import (
	"time"

	"github.com/tradeshop/functions/internal/payments"
)

// Account is who a statement is for: the account's business name, the address its
// statement goes to by email, and the buyer's block (company, contact, address, VAT
// number) as the billing step saved it.
type Account struct {
	UID      string
	Business string
	Email    string
	Buyer    []string
	// OnAccount says the account may pay on account (approved for credit).
	OnAccount bool
}

// OpenItem is an invoice that still owes something.
type OpenItem struct {
	Reference   string // INV-000042
	OrderID     string
	Date        time.Time // the invoice's London day
	DueOn       time.Time
	Gross       int64
	Outstanding int64
	Overdue     bool
	// DaysOverdue is how many days past its due date it is (0 when not overdue).
	DaysOverdue int
}

// Ageing is what the open invoices owe by how long past due each is: the buckets of the
// aged debt report. Current is not yet past due (and every pro-forma invoice, which is
// never overdue); the others are 1–30, 31–60, 61–90 and more than 90 days past due.
// Their sum is the statement's Due.
type Ageing struct {
	Current int64
	Days30  int64
	Days60  int64
	Days90  int64
	Over90  int64
}

// Total is the sum of the buckets: what the open invoices owe.
func (a Ageing) Total() int64 { return a.Current + a.Days30 + a.Days60 + a.Days90 + a.Over90 }

// add puts amount in the bucket of days past due.
func (a *Ageing) add(days int, amount int64) {
	switch {
	case days <= 0:
		a.Current += amount
	case days <= 30:
		a.Days30 += amount
	case days <= 60:
		a.Days60 += amount
	case days <= 90:
		a.Days90 += amount
	default:
		a.Over90 += amount
	}
}

// Statement is an account's statement on a London day.
type Statement struct {
	Account Account
	Date    time.Time // the London day it is drawn on
	// Entries is the whole ledger (every kind of document, with its running balance).
	Entries []payments.Entry
	// Open are the invoices that still owe something, oldest first.
	Open []OpenItem
	// CreditOnAccount is what payments and credit on account hold not yet allocated:
	// Balance = Due − CreditOnAccount.
	CreditOnAccount int64
	Balance         int64
	Due             int64
	Overdue         int64
	Ageing          Ageing
	// OldestOverdueDays is how many days past due the oldest overdue invoice is (0 for none).
	OldestOverdueDays int
	// The account's activity since PeriodFrom (the 1st of the month before Date's): the
	// balance brought forward from before it, and the entries from it on.
	PeriodFrom     time.Time
	BroughtForward int64
	Activity       []payments.Entry
}

// HasBalance says the statement has something to tell: a balance either way, or money
// owed or held (an account whose invoices are all settled and holds nothing has none).
func (s Statement) HasBalance() bool {
	return s.Balance != 0 || s.Due != 0 || s.CreditOnAccount != 0
}

// Of draws acc's statement from its ledger l on London day today. It reads the entries
// by their fields, not their kinds, save that an invoice is what carries an amount
// outstanding: a kind of document added to the ledger later (a refund) shows in the
// entries and the balance as it is.
func Of(acc Account, l payments.Ledger, today time.Time) Statement {
	day := payments.Day(today)
	s := Statement{Account: acc, Date: day, Entries: l.Entries, CreditOnAccount: l.Unallocated, Balance: l.Balance, Due: l.Due,
		Overdue: l.Overdue}
	s.PeriodFrom = time.Date(day.Year(), day.Month()-1, 1, 0, 0, 0, 0, day.Location())
	for _, e := range l.Entries {
		if e.Date.Before(s.PeriodFrom) {
			s.BroughtForward = e.Balance
		} else {
			s.Activity = append(s.Activity, e)
		}
	}
	for _, e := range l.Entries {
		if e.Kind != payments.KindInvoice || e.Outstanding <= 0 {
			continue
		}
		item := OpenItem{Reference: e.Reference, OrderID: e.OrderID, Date: e.Date, DueOn: e.DueOn, Gross: e.Debit,
			Outstanding: e.Outstanding, Overdue: e.Overdue}
		days := 0
		if e.Overdue {
			days = DaysBetween(e.DueOn, day)
			item.DaysOverdue = days
			s.OldestOverdueDays = max(s.OldestOverdueDays, days)
		}
		s.Ageing.add(days, e.Outstanding)
		s.Open = append(s.Open, item)
	}
	return s
}

// DaysBetween counts the London calendar days from day from to day to (a clock change
// between them makes one day 23 or 25 hours: the count is of days, not of 24 hours).
func DaysBetween(from, to time.Time) int {
	a, b := payments.Day(from), payments.Day(to)
	ua := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	ub := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(ub.Sub(ua).Hours() / 24)
}
