package statements

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
)

// Plus is a and b bucket by bucket.
func (a Ageing) Plus(b Ageing) Ageing {
	return Ageing{Current: a.Current + b.Current, Days30: a.Days30 + b.Days30, Days60: a.Days60 + b.Days60,
		Days90: a.Days90 + b.Days90, Over90: a.Over90 + b.Over90}
}

// AgedDebtColumns are the aged debt report's columns (docs/statements.md): money in
// pounds with two decimals and no sign, as the order export writes it.
var AgedDebtColumns = append(append([]string{"account", "business"}, AgeingBuckets[:]...), "due", "unallocated", "balance", "oldest_overdue_days")

// AgeingBuckets name the buckets of Ageing.Buckets, in order, as the API and the aged
// debt report name them.
var AgeingBuckets = [5]string{"current", "days_1_30", "days_31_60", "days_61_90", "days_over_90"}

// AgedDebtCSV writes the aged debt report of sts, one row per account in their order,
// and a totals row (account TOTAL; its oldest_overdue_days the most of any account).
func AgedDebtCSV(sts []Statement) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	row := func(uid, business string, a Ageing, due, credit, balance int64, days int) {
		b := a.Buckets()
		_ = w.Write([]string{uid, csvSafe(business), decimal(b[0]), decimal(b[1]), decimal(b[2]), decimal(b[3]), decimal(b[4]),
			decimal(due), decimal(credit), decimal(balance), strconv.Itoa(days)})
	}
	_ = w.Write(AgedDebtColumns)
	var total Ageing
	var due, credit, balance int64
	days := 0
	for _, st := range sts {
		row(st.Account.Email, st.Account.Business, st.Ageing, st.Due, st.CreditOnAccount, st.Balance, st.OldestOverdueDays)
		total = total.Plus(st.Ageing)
		due, credit, balance, days = due+st.Due, credit+st.CreditOnAccount, balance+st.Balance, max(days, st.OldestOverdueDays)
	}
	row("TOTAL", "", total, due, credit, balance, days)
	w.Flush()
	return buf.Bytes(), w.Error()
}

// decimal and csvSafe write cells as the order export's do (orders/export.go, whose
// helpers are its own): pence as pounds with two decimals, and a cell a spreadsheet
// would read as a formula kept as text.
func decimal(p int64) string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	return fmt.Sprintf("%s%d.%02d", sign, p/100, p%100)
}

func csvSafe(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r') {
		return "'" + s
	}
	return s
}
