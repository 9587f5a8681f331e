package statements

import (
	"bytes"
	"encoding/csv"
	"strconv"

	"github.com/tradeshop/functions/internal/orders"
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
		b, money := a.Buckets(), orders.ExportMoney // cells as the order export writes them
		_ = w.Write([]string{uid, orders.ExportText(business), money(b[0]), money(b[1]), money(b[2]), money(b[3]), money(b[4]),
			money(due), money(credit), money(balance), strconv.Itoa(days)})
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
