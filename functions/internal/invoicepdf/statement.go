package invoicepdf

import (
	"fmt"
	"strings"

	"github.com/signintech/gopdf"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/statements"
)

// statementColumns are the columns of a statement's open items table.
var statementColumns = []column{
	{"Invoice", margin, 70, false},
	{"Date", margin + 72, 80, false},
	{"Order", margin + 154, 70, false},
	{"Due", margin + 226, 80, false},
	{"Amount", margin + 308, 62, true},
	{"Owes", margin + 372, 62, true},
	{"Overdue", margin + 436, 79, true},
}

// activityColumns are the columns of a statement's account activity table.
var activityColumns = []column{
	{"Date", margin, 80, false},
	{"Reference", margin + 82, 90, false},
	{"Details", margin + 174, 150, false},
	{"Debit", margin + 326, 60, true},
	{"Credit", margin + 388, 60, true},
	{"Balance", margin + 450, 65, true},
}

// RenderStatement draws statement st of an account: the supplier (shop's business as it
// is today), the account, the date, the open invoices with what each owes and when it
// was due, the credit on account, the balance, what is overdue, the ageing of the debt
// (current, 1–30, 31–60, 61–90, over 90 days past due) and the account's activity since
// the 1st of the month before, from the balance brought forward.
func RenderStatement(st statements.Statement, shop config.Shop) ([]byte, error) {
	d, err := newDoc(gopdf.PdfInfo{Title: "Statement of account " + st.Account.Business, Author: shop.Business.LegalName,
		Subject: "Statement as at " + orders.InvoiceDate(st.Date), Creator: shop.Business.TradingName})
	if err != nil {
		return nil, err
	}
	d.statementHead(st, shop)
	d.openItems(st)
	d.statementSummary(st)
	d.activity(st)
	d.paragraph(fmt.Sprintf("Please pay by bank transfer to %s, sort code %s, account %s, quoting the invoice numbers. "+
		"Questions to %s or %s.", shop.BankTransfer.AccountName, shop.BankTransfer.SortCode, shop.BankTransfer.AccountNumber,
		shop.Contact.Email, shop.Contact.Phone))
	return d.finish()
}

// statementHead draws the title, the supplier, the statement's date and the account.
func (d *doc) statementHead(st statements.Statement, shop config.Shop) {
	d.font(fontBold, headSize)
	d.text(margin, d.y, "Statement of account")
	d.y += 30
	facts := []string{"Statement date " + orders.InvoiceDate(st.Date), "Account " + st.Account.Business,
		"Balance " + orders.Pounds(st.Balance)}
	left := d.block(margin, d.y, 250, "Supplier", supplierLines(shop.Business))
	rightY := d.block(330, d.y, right-330, "Statement", facts)
	d.y = max(left, rightY) + 10
	buyer := st.Account.Buyer
	if len(buyer) == 0 {
		buyer = []string{st.Account.Business}
	}
	d.y = d.block(margin, d.y, 250, "Account", buyer) + 14
}

// openItems draws the invoices that still owe something, the header again on each page.
func (d *doc) openItems(st statements.Statement) {
	d.font(fontBold, bodySize)
	d.text(margin, d.y, "Open invoices")
	d.y += lineH + 4
	if len(st.Open) == 0 {
		d.font(fontReg, bodySize)
		d.text(margin, d.y, "No invoice owes anything.")
		d.y += lineH + 8
		return
	}
	d.tableHead(statementColumns)
	for _, it := range st.Open {
		late := ""
		if it.Overdue {
			late = fmt.Sprintf("%d days", it.DaysOverdue)
		}
		d.tableRow(statementColumns, []string{it.Reference, orders.InvoiceDate(it.Date), it.OrderID, orders.InvoiceDate(it.DueOn),
			orders.Pounds(it.Gross), orders.Pounds(it.Outstanding), late})
	}
	d.y += 8
}

// statementSummary draws the totals and the ageing line.
func (d *doc) statementSummary(st statements.Statement) {
	d.room(10 * lineH)
	totals := [][2]string{{"Due on open invoices", orders.Pounds(st.Due)}, {"Overdue", orders.Pounds(st.Overdue)}}
	if st.CreditOnAccount != 0 {
		totals = append(totals, [2]string{"Credit on account", orders.Pounds(-st.CreditOnAccount)})
	}
	totals = append(totals, [2]string{"Balance", orders.Pounds(st.Balance)})
	for i, t := range totals {
		name := fontReg
		if i == len(totals)-1 {
			name = fontBold
		}
		d.font(name, bodySize)
		d.text(330, d.y, t[0])
		d.textRight(right, d.y, t[1])
		d.y += lineH + labelGapY/2
	}
	d.y += 8
	var parts []string
	for i, b := range st.Ageing.Buckets() {
		parts = append(parts, statements.AgeingLabels[i]+" "+orders.Pounds(b))
	}
	d.font(fontBold, bodySize)
	d.text(margin, d.y, "Ageing (days past due)")
	d.y += lineH + 2
	d.paragraph(strings.Join(parts, " · "))
	d.y += 8
}

// activity draws the entries since st.PeriodFrom after the balance brought forward, the
// header again on each page.
func (d *doc) activity(st statements.Statement) {
	d.room(4 * lineH)
	d.font(fontBold, bodySize)
	d.text(margin, d.y, "Account activity from "+orders.InvoiceDate(st.PeriodFrom))
	d.y += lineH + 4
	d.tableHead(activityColumns)
	row := func(cells []string) { d.tableRow(activityColumns, cells) }
	row([]string{orders.InvoiceDate(st.PeriodFrom), "", "Brought forward", "", "", orders.Pounds(st.BroughtForward)})
	for _, e := range st.Activity {
		debit, credit := "", ""
		if e.Debit != 0 {
			debit = orders.Pounds(e.Debit)
		}
		if e.Credit != 0 {
			credit = orders.Pounds(e.Credit)
		}
		row([]string{orders.InvoiceDate(e.Date), e.Reference, d.fit(entryDetails(e), activityColumns[2].w), debit, credit, orders.Pounds(e.Balance)})
	}
	d.y += 8
}

// fit cuts s to the width w, with an ellipsis when it was cut.
func (d *doc) fit(s string, w float64) string {
	lines := d.wrap(s, w)
	if len(lines) <= 1 {
		return s
	}
	return strings.TrimSpace(lines[0]) + "…"
}

// entryDetails says what a ledger entry is, for any kind the ledger has.
func entryDetails(e payments.Entry) string {
	switch e.Kind {
	case payments.KindInvoice:
		return "Invoice, order " + e.OrderID
	case payments.KindCreditNote:
		return "Credit note, order " + e.OrderID
	case payments.KindPayment:
		if e.PaymentRef != "" {
			return "Payment, " + e.PaymentRef
		}
		return "Payment"
	}
	what := strings.ReplaceAll(e.Kind, "_", " ")
	if what != "" {
		what = strings.ToUpper(what[:1]) + what[1:]
	}
	if e.PaymentRef != "" {
		what += ", " + e.PaymentRef
	}
	return what
}
