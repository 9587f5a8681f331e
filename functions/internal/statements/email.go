package statements

import (
	"bytes"
	htmltemplate "html/template"
	"strconv"
	"strings"
	texttemplate "text/template"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
)

// emailView is what the statement email shows, every amount formatted already.
type emailView struct {
	Business, Month, Date          string
	Balance, Due, Overdue, Credit  string
	HasOverdue, HasCredit, InDebit bool
	Open                           []openView
	Ageing                         [5][2]string
	Shop                           config.Business
	Contact                        config.Contact
	// Dashboard is the address of the buyer's dashboard ("" where the shop's origin is
	// not known): the statement and its PDF are there.
	Dashboard string
}

type openView struct{ Reference, OrderID, Date, DueOn, Outstanding, Late string }

// The email's templates. The PDF is not attached: the outbox carries text and HTML only
// (docs/statements.md "Decisions"); the email says where to download it.
const emailText = `Statement of account: {{.Business}}
{{.Date}}

Balance: {{.Balance}}{{if not .InDebit}} (nothing to pay){{end}}
Due on open invoices: {{.Due}}
{{- if .HasOverdue}}
Overdue: {{.Overdue}}
{{- end}}
{{- if .HasCredit}}
Credit on account (not yet allocated): {{.Credit}}
{{- end}}

Ageing: {{range $i, $b := .Ageing}}{{if $i}} · {{end}}{{index $b 0}} {{index $b 1}}{{end}}
{{if .Open}}
Open invoices
{{- range .Open}}
- {{.Reference}} of {{.Date}} (order {{.OrderID}}): {{.Outstanding}} due {{.DueOn}}{{if .Late}}, {{.Late}}{{end}}
{{- end}}
{{end}}
Your dashboard on our website shows this statement as it stands today, with a link to
download it as a PDF{{if .Dashboard}}: {{.Dashboard}}{{end}}. Please pay by bank transfer quoting the invoice numbers; questions
to {{.Contact.Email}} or {{.Contact.Phone}}.

-- 
{{.Shop.TradingName}}
{{.Contact.Address}}
{{.Shop.LegalName}}, registered in {{.Shop.RegisteredIn}}, company number {{.Shop.CompanyNumber}}. VAT number {{.Shop.VATNumber}}.
`

const emailHTML = `<!DOCTYPE html><html><body style="font-family: sans-serif">
<h1 style="font-size: 1.3em">Statement of account: {{.Business}}</h1>
<p>{{.Date}}</p>
<table>
<tr><th align="left">Balance</th><td align="right">{{.Balance}}</td></tr>
<tr><th align="left">Due on open invoices</th><td align="right">{{.Due}}</td></tr>
{{- if .HasOverdue}}<tr><th align="left">Overdue</th><td align="right">{{.Overdue}}</td></tr>{{end}}
{{- if .HasCredit}}<tr><th align="left">Credit on account</th><td align="right">{{.Credit}}</td></tr>{{end}}
</table>
<p>Ageing: {{range $i, $b := .Ageing}}{{if $i}} · {{end}}{{index $b 0}} {{index $b 1}}{{end}}</p>
{{- if .Open}}
<table>
<tr><th align="left">Invoice</th><th align="left">Date</th><th align="left">Order</th><th align="left">Due</th><th align="right">Owes</th><th></th></tr>
{{- range .Open}}
<tr><td>{{.Reference}}</td><td>{{.Date}}</td><td>{{.OrderID}}</td><td>{{.DueOn}}</td><td align="right">{{.Outstanding}}</td><td>{{.Late}}</td></tr>
{{- end}}
</table>
{{- end}}
<p>{{if .Dashboard}}<a href="{{.Dashboard}}">Your dashboard</a>{{else}}Your dashboard{{end}} on our website shows this statement as it stands today, with a link to download it as a PDF.
Please pay by bank transfer quoting the invoice numbers; questions to {{.Contact.Email}} or {{.Contact.Phone}}.</p>
<p style="color: #555; font-size: 0.85em">{{.Shop.TradingName}}, {{.Contact.Address}}<br>
{{.Shop.LegalName}}, registered in {{.Shop.RegisteredIn}}, company number {{.Shop.CompanyNumber}}. VAT number {{.Shop.VATNumber}}.</p>
</body></html>
`

var (
	textTemplate = texttemplate.Must(texttemplate.New("statement").Parse(emailText))
	htmlTemplate = htmltemplate.Must(htmltemplate.New("statement").Parse(emailHTML))
)

// AgeingLabels name the aged debt buckets, in order, as the statement and the report
// head them.
var AgeingLabels = [5]string{"Current", "1–30 days", "31–60 days", "61–90 days", "Over 90 days"}

// Buckets are a's amounts in the order of AgeingLabels.
func (a Ageing) Buckets() [5]int64 {
	return [5]int64{a.Current, a.Days30, a.Days60, a.Days90, a.Over90}
}

// DashboardPath is where the buyer's statement is on the site.
const DashboardPath = "/account/dashboard/"

// Email is st's statement email of month to the account's address; siteOrigin
// ("https://shop.example", "" for none) makes the link to the dashboard.
func Email(st Statement, shop config.Shop, month, siteOrigin string) outbox.Message {
	v := emailView{Business: st.Account.Business, Month: month, Date: "As at " + orders.InvoiceDate(st.Date),
		Balance: orders.Pounds(st.Balance), Due: orders.Pounds(st.Due), Overdue: orders.Pounds(st.Overdue),
		Credit: orders.Pounds(st.CreditOnAccount), HasOverdue: st.Overdue > 0, HasCredit: st.CreditOnAccount > 0,
		InDebit: st.Balance > 0, Shop: shop.Business, Contact: shop.Contact}
	if siteOrigin != "" {
		v.Dashboard = strings.TrimRight(siteOrigin, "/") + DashboardPath
	}
	for i, b := range st.Ageing.Buckets() {
		v.Ageing[i] = [2]string{AgeingLabels[i], orders.Pounds(b)}
	}
	for _, it := range st.Open {
		ov := openView{Reference: it.Reference, OrderID: it.OrderID, Date: orders.InvoiceDate(it.Date), DueOn: orders.InvoiceDate(it.DueOn),
			Outstanding: orders.Pounds(it.Outstanding)}
		if it.Overdue {
			ov.Late = plural(it.DaysOverdue, "day") + " overdue"
		}
		v.Open = append(v.Open, ov)
	}
	subject := oneLine("Your statement from " + shop.Business.TradingName + ": " + v.Balance + " balance")
	var tb, hb bytes.Buffer
	if err := textTemplate.Execute(&tb, v); err != nil {
		tb.Reset()
		tb.WriteString(subject + "\n\nYour dashboard on our website shows your statement.\n")
	}
	if err := htmlTemplate.Execute(&hb, v); err != nil {
		hb.Reset()
		hb.WriteString("<!DOCTYPE html><html><body><p>" + htmltemplate.HTMLEscapeString(tb.String()) + "</p></body></html>")
	}
	return outbox.Message{ID: EmailID(st.Account.UID, month), To: strings.TrimSpace(st.Account.Email), ReplyTo: shop.Contact.Email,
		Subject: subject, Text: tb.String(), HTML: hb.String()}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// oneLine keeps a header value on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("\r", " ", "\n", " ").Replace(s)), " ")
}
