package statements

import (
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/payments"
)

// day is a London day of 2026.
func day(month time.Month, d int) time.Time {
	return payments.Day(time.Date(2026, month, d, 12, 0, 0, 0, time.UTC))
}

// ledger is an account with five invoices on account (30 days' terms) of £100 each,
// issued so that on 1 December 2026 one is current and the others are 1–30, 31–60,
// 61–90 and over 90 days past due; a pro-forma invoice, never overdue; a £30 payment
// allocated to the oldest; and a £25 payment not yet allocated.
func ledger() payments.Documents {
	var docs payments.Documents
	for i, issued := range []time.Time{day(6, 1), day(8, 15), day(9, 10), day(10, 10), day(11, 20)} {
		docs.Invoices = append(docs.Invoices, payments.Invoice{Number: int64(i + 1), OrderID: "TS-10000" + string(rune('1'+i)),
			IssuedAt: issued, Gross: 10000, TermsDays: 30})
	}
	docs.Invoices[0].Paid = 3000
	docs.Invoices = append(docs.Invoices, payments.Invoice{Number: 6, OrderID: "TS-100006", IssuedAt: day(7, 1), Gross: 5000, ProForma: true})
	docs.Payments = []payments.Payment{
		{ID: "PAY-1", Date: "2026-07-01", Amount: 3000, Allocated: 3000, RecordedAt: day(7, 1)},
		{ID: "PAY-2", Method: payments.MethodBankTransfer, Date: "2026-11-02", Amount: 2500, RecordedAt: day(11, 2)},
	}
	return docs
}

func TestOfAgesWhatEachOpenInvoiceOwes(t *testing.T) {
	t.Parallel()
	today := day(12, 1)
	st := Of(Account{UID: "u1", Business: "Corner Cards Ltd"}, payments.Build(ledger(), today), today)
	want := Ageing{Current: 10000 + 5000, Days30: 10000, Days60: 10000, Days90: 10000, Over90: 7000}
	if st.Ageing != want {
		t.Errorf("ageing %+v, want %+v", st.Ageing, want)
	}
	if st.Ageing.Total() != st.Due {
		t.Errorf("the buckets add up to %d, due is %d", st.Ageing.Total(), st.Due)
	}
	if st.Balance != st.Due-st.CreditOnAccount || st.CreditOnAccount != 2500 {
		t.Errorf("balance %d, due %d, credit on account %d", st.Balance, st.Due, st.CreditOnAccount)
	}
	if len(st.Open) != 6 || st.Open[0].Outstanding != 7000 {
		t.Fatalf("open items %+v", st.Open)
	}
	// Invoice 1 of 1 June was due on 1 July: 153 days past due on 1 December.
	if st.OldestOverdueDays != 153 || st.Open[0].DaysOverdue != 153 {
		t.Errorf("oldest overdue %d days, invoice 1 %d", st.OldestOverdueDays, st.Open[0].DaysOverdue)
	}
	if st.Overdue != 37000 {
		t.Errorf("overdue %d, want 37000", st.Overdue)
	}
	// The activity since 1 November: the invoice of 20 November and the payment of
	// 2 November, after what was brought forward from before.
	if !st.PeriodFrom.Equal(day(11, 1)) || len(st.Activity) != 2 || st.BroughtForward != st.Balance-10000+2500 {
		t.Errorf("from %v, brought forward %d, activity %+v", st.PeriodFrom, st.BroughtForward, st.Activity)
	}
}

func TestAgeingBucketsAreDaysPastDue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		days int
		want Ageing
	}{
		{0, Ageing{Current: 1}}, {1, Ageing{Days30: 1}}, {30, Ageing{Days30: 1}}, {31, Ageing{Days60: 1}},
		{60, Ageing{Days60: 1}}, {61, Ageing{Days90: 1}}, {90, Ageing{Days90: 1}}, {91, Ageing{Over90: 1}},
	} {
		var a Ageing
		a.add(tc.days, 1)
		if a != tc.want {
			t.Errorf("%d days: %+v, want %+v", tc.days, a, tc.want)
		}
	}
}

func TestDaysBetweenCountsCalendarDaysAcrossAClockChange(t *testing.T) {
	t.Parallel()
	// The clocks went back on 25 October 2026: that day had 25 hours.
	if n := DaysBetween(day(10, 24), day(10, 26)); n != 2 {
		t.Errorf("24 to 26 October: %d days, want 2", n)
	}
}

func TestEmailNamesTheBalanceAndTheOpenInvoices(t *testing.T) {
	t.Parallel()
	today := day(12, 1)
	st := Of(Account{UID: "u1", Business: "Corner Cards <Ltd>", Email: " buyer@example.com "}, payments.Build(ledger(), today), today)
	shop := config.Shop{Business: config.Business{TradingName: "TradeShop Wholesale"}, Contact: config.Contact{Email: "trade@tradeshop.example"}}
	m := Email(st, shop, "2026-12", "https://trade.shop.example/")
	if m.ID != "statement-2026-12/u1" || m.To != "buyer@example.com" || m.ReplyTo != "trade@tradeshop.example" {
		t.Errorf("id %q to %q reply-to %q", m.ID, m.To, m.ReplyTo)
	}
	for _, want := range []string{"Balance: £495.00", "Overdue: £370.00", "Credit on account (not yet allocated): £25.00",
		"INV-000001 of 1 June 2026", "153 days overdue", "Over 90 days £70.00", "https://trade.shop.example/account/dashboard/"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("the text lacks %q:\n%s", want, m.Text)
		}
	}
	if !strings.Contains(m.HTML, `<a href="https://trade.shop.example/account/dashboard/">`) {
		t.Errorf("the HTML does not link the dashboard:\n%s", m.HTML)
	}
	if strings.Contains(m.HTML, "<Ltd>") || !strings.Contains(m.HTML, "Corner Cards &lt;Ltd&gt;") {
		t.Errorf("the HTML does not escape the business name:\n%s", m.HTML)
	}
}

func TestParseMonth(t *testing.T) {
	t.Parallel()
	for s, ok := range map[string]bool{"2026-12": true, "2026-01": true, "2026-13": false, "2026-1": false, "": false, "26-12": false} {
		if _, err := ParseMonth(s); (err == nil) != ok {
			t.Errorf("ParseMonth(%q): %v", s, err)
		}
	}
	if m := Month(time.Date(2026, 11, 30, 23, 30, 0, 0, time.UTC)); m != "2026-11" {
		t.Errorf("Month: %s", m)
	}
	if m := Month(time.Date(2026, 7, 31, 23, 30, 0, 0, time.UTC)); m != "2026-08" {
		t.Errorf("Month of 00:30 BST on 1 August: %s", m)
	}
}

func TestAgedDebtCSVHasARowPerAccountAndTotals(t *testing.T) {
	t.Parallel()
	today := day(12, 1)
	a := Of(Account{UID: "u1", Email: "u1@corner.test", Business: "=Corner Cards"}, payments.Build(ledger(), today), today)
	b := Of(Account{UID: "u2", Email: "u2@bell.test", Business: "Bell & Co"}, payments.Build(payments.Documents{Invoices: []payments.Invoice{
		{Number: 9, OrderID: "TS-100009", IssuedAt: day(9, 1), Gross: 1234, TermsDays: 30}}}, today), today)
	doc, err := AgedDebtCSV([]Statement{a, b})
	if err != nil {
		t.Fatal(err)
	}
	want := "account,business,current,days_1_30,days_31_60,days_61_90,days_over_90,due,unallocated,balance,oldest_overdue_days\n" +
		"u1@corner.test,'=Corner Cards,150.00,100.00,100.00,100.00,70.00,520.00,25.00,495.00,153\n" +
		"u2@bell.test,Bell & Co,0.00,0.00,0.00,12.34,0.00,12.34,0.00,12.34,61\n" +
		"TOTAL,,150.00,100.00,100.00,112.34,70.00,532.34,25.00,507.34,153\n"
	if string(doc) != want {
		t.Errorf("got:\n%s\nwant:\n%s", doc, want)
	}
}
