package mail

import (
	"fmt"
	htmltemplate "html/template"
	"strings"

	"github.com/tradeshop/functions/internal/alerts"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/outbox"
)

// KindBackInStock is the email of a back-in-stock alert (docs/alerts.md); its outbox id
// is the alert's own (alerts.Alert.OutboxID), so one alert is emailed once.
const KindBackInStock = "back-in-stock"

var _ alerts.Mailer = Notices{}

// alertView is what the back-in-stock templates show.
type alertView struct {
	Subject string
	Shop    shopView
	Name    string
	SKU     string
	// URL is the product page's address: the site's address and the product's path (the
	// path alone where the site's address is not known).
	URL string
}

// BackInStock is the email to the buyer of alert a that product p is back in stock: its
// name, its page's link, and that the alert is now removed.
func (n Notices) BackInStock(a alerts.Alert, p catalogue.Product) outbox.Message {
	subject := oneLine("Back in stock: " + p.Name)
	b, c := n.Shop.Business, n.Shop.Contact
	v := alertView{Subject: subject, Name: p.Name, SKU: p.SKU, URL: n.SiteURL + catalogue.ProductPath(p),
		Shop: shopView{TradingName: b.TradingName, LegalName: b.LegalName, RegisteredIn: b.RegisteredIn, RegisteredAddress: b.RegisteredAddress,
			CompanyNumber: b.CompanyNumber, VATNumber: b.VATNumber, Address: c.Address, Phone: c.Phone, Email: c.Email, Hours: c.Hours}}
	var tb, hb strings.Builder
	text, html := "", ""
	if err := textTemplates.ExecuteTemplate(&tb, KindBackInStock, v); err == nil {
		text = tb.String()
	}
	if err := htmlTemplates.ExecuteTemplate(&hb, KindBackInStock, v); err == nil {
		html = hb.String()
	}
	if text == "" || html == "" {
		// As message does: the email goes out short rather than not at all.
		text = fmt.Sprintf("%s\n\n%s is back in stock: %s\nYour alert for it is now removed.\n", subject, p.Name, v.URL)
		html = "<!DOCTYPE html><html><body><p>" + htmltemplate.HTMLEscapeString(text) + "</p></body></html>"
	}
	return outbox.Message{ID: a.OutboxID(), To: strings.TrimSpace(a.Email), ReplyTo: n.Shop.Contact.Email, Subject: subject, Text: text, HTML: html}
}
