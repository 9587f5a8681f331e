package mail

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strings"
	texttemplate "text/template"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
)

// Notices makes the emails of an order's events for Shop: the Notifier the order
// transactions write to the outbox. SiteURL is the site's address (SITE_URL, no trailing
// slash): the Pay now link of a card order's confirmation starts with it ("" for none:
// the email then names the orders page without a link).
type Notices struct {
	Shop    config.Shop
	SiteURL string
}

var _ orders.Notifier = Notices{}

//go:embed templates
var templateFiles embed.FS

// The templates, one set per format; each email is a template of its kind's name
// ("confirmation", "new-order", "dispatch", "cancellation") in both sets. The HTML set
// escapes everything it is given: names, addresses, references and notes are typed by
// buyers and staff.
var (
	textTemplates = texttemplate.Must(texttemplate.New("").ParseFS(templateFiles, "templates/*.txt.tmpl"))
	htmlTemplates = htmltemplate.Must(htmltemplate.New("").ParseFS(templateFiles, "templates/*.html.tmpl"))
)

// Placed is the order confirmation to the buyer (none when the order has no email
// address) and the new-order notice to the shop's contact address.
func (n Notices) Placed(o orders.Order) []outbox.Message {
	v := n.view(o)
	var out []outbox.Message
	if to := strings.TrimSpace(o.Email); to != "" {
		out = append(out, n.message(o, outbox.KindConfirmation, to, n.Shop.Contact.Email, fmt.Sprintf("Your order %s with %s", o.ID, v.Shop.TradingName), v))
	}
	who := v.Business
	if who == "" {
		who = o.Email
	}
	subject := fmt.Sprintf("New order %s: %s inc VAT, %s", o.ID, v.Total, v.PaymentMethod)
	if who != "" {
		subject = fmt.Sprintf("New order %s from %s: %s inc VAT, %s", o.ID, who, v.Total, v.PaymentMethod)
	}
	if to := strings.TrimSpace(n.Shop.Contact.Email); to != "" {
		out = append(out, n.message(o, outbox.KindNewOrder, to, strings.TrimSpace(o.Email), subject, v))
	}
	return out
}

// ForwardPlaced is the confirmation to the buyer of forward order o: what was ordered for
// which delivery, that nothing is invoiced or charged until the goods are allocated, and
// what happens when a delivery comes short (docs/forward-orders.md).
func (n Notices) ForwardPlaced(o orders.Order) []outbox.Message {
	to := strings.TrimSpace(o.Email)
	if to == "" {
		return nil
	}
	v := n.view(o)
	v.NoBackorders, v.Companion = o.NoBackorders, o.Companion
	return []outbox.Message{n.message(o, outbox.KindForwardPlaced, to, n.Shop.Contact.Email,
		fmt.Sprintf("Your forward order %s with %s", o.ID, v.Shop.TradingName), v)}
}

// Dispatched is the dispatch notice to the buyer, with the carrier and tracking reference.
func (n Notices) Dispatched(o orders.Order) []outbox.Message {
	to := strings.TrimSpace(o.Email)
	if to == "" {
		return nil
	}
	v := n.view(o)
	// The parcel holds what is sent: each line's units less those credited before
	// dispatch (docs/invoices.md "Part of an order").
	v.Lines = nil
	for i, left := range o.ToSend() {
		if left > 0 {
			l := o.Lines[i]
			l.Quantity = left
			v.Lines = append(v.Lines, orderLineView(l))
		}
	}
	return []outbox.Message{n.message(o, outbox.KindDispatch, to, n.Shop.Contact.Email, fmt.Sprintf("Your order %s has been dispatched", o.ID), v)}
}

// Cancelled is the cancellation notice to the buyer, with the reason staff gave, if any.
func (n Notices) Cancelled(o orders.Order) []outbox.Message {
	to := strings.TrimSpace(o.Email)
	if to == "" {
		return nil
	}
	v := n.view(o)
	return []outbox.Message{n.message(o, outbox.KindCancellation, to, n.Shop.Contact.Email, fmt.Sprintf("Your order %s has been cancelled", o.ID), v)}
}

// Credited is the notice to the buyer of part credit note c of o (lines taken off before
// dispatch, a return, the delivery credited): the note's number, date, reason and amounts.
// Its outbox id names the note, as an order may have several.
func (n Notices) Credited(o orders.Order, c orders.CreditNote) []outbox.Message {
	to := strings.TrimSpace(o.Email)
	if to == "" {
		return nil
	}
	v := n.view(o)
	v.CreditNote, v.CreditNoteDate = orders.CreditNoteNumber(c.Number), orders.InvoiceDate(c.IssuedAt)
	v.CreditNoteNet, v.CreditNoteVAT, v.CreditNoteTotal = orders.Pounds(c.NetExVAT()), orders.Pounds(c.VAT()), orders.Pounds(c.TotalIncVAT())
	v.Invoice, v.InvoiceDate = orders.InvoiceNumber(c.Invoice), orders.InvoiceDate(c.InvoiceDate)
	v.CreditReason = c.Reason
	if on := c.OnAccount(); on > 0 {
		v.CreditOnAccount = orders.Pounds(on)
	}
	for _, l := range c.Lines {
		v.CreditLines = append(v.CreditLines, lineView{Name: l.Name, SKU: l.SKU, Packs: fmt.Sprint(l.Units), UnitPrice: orders.Pounds(l.UnitPrice),
			LineNet: orders.Pounds(l.NetExVAT)})
	}
	if c.DeliveryExVAT > 0 {
		v.CreditDelivery = orders.Pounds(c.DeliveryExVAT)
	}
	m := n.message(o, outbox.KindCreditNote, to, n.Shop.Contact.Email, fmt.Sprintf("Credit note %s for your order %s", v.CreditNote, o.ID), v)
	m.ID = outbox.ID(o.ID, outbox.KindCreditNote+"-"+v.CreditNote)
	return []outbox.Message{m}
}

// message renders the email of kind for o, to to; replies go to replyTo.
func (n Notices) message(o orders.Order, kind, to, replyTo, subject string, v view) outbox.Message {
	subject = oneLine(subject)
	v.Subject = subject
	text, html, err := render(kind, v)
	if err != nil {
		// The templates are fixed and tested with every kind of order; should one still
		// fail, the email goes out short rather than the order's event failing with it.
		text = fmt.Sprintf("%s\n\nOrder %s. Your orders page on our website has the details; questions to %s or %s.\n",
			subject, o.ID, n.Shop.Contact.Email, n.Shop.Contact.Phone)
		html = "<!DOCTYPE html><html><body><p>" + htmltemplate.HTMLEscapeString(text) + "</p></body></html>"
	}
	return outbox.Message{ID: outbox.ID(o.ID, kind), To: to, ReplyTo: replyTo, Subject: subject, Text: text, HTML: html}
}

// render executes the text and HTML templates of kind with v.
func render(kind string, v view) (text, html string, err error) {
	var tb, hb bytes.Buffer
	if err := textTemplates.ExecuteTemplate(&tb, kind, v); err != nil {
		return "", "", err
	}
	if err := htmlTemplates.ExecuteTemplate(&hb, kind, v); err != nil {
		return "", "", err
	}
	return tb.String(), hb.String(), nil
}

// oneLine keeps a header value on one line: a name typed with a line break must not
// start a header of its own.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("\r", " ", "\n", " ").Replace(s)), " ")
}

// view is what the templates show, every amount formatted already.
type view struct {
	Subject string
	Shop    shopView

	Order, Date  string
	Business     string // the buyer's company
	Contact      string // the buyer's contact name
	BuyerEmail   string
	Lines        []lineView
	PriceGroup   string // the price group that priced any line ("Prices: Independents"), "" for none
	Goods        string
	CouponID     string // "" for no coupon
	Coupon       string // the discount, as a negative amount
	DeliveryName string
	Delivery     string // the charge ex VAT, or "Free"
	NetExVAT     string
	VAT          string
	Total        string
	DeliverTo    []string
	DeliveryNote string
	PORef        string

	Invoice, InvoiceDate string // "" until the VAT invoice is issued
	ProForma             bool
	PaymentMethod        string // "pro-forma", "card" or "on account"
	PaymentTerms         string // how and when to pay
	// PayNowURL is the order page's address, where a card order unpaid is paid (Pay
	// now); "" for any other order, or where the site's address is not known.
	PayNowURL string
	Paid      bool

	Carrier, Tracking string
	CancelReason      string
	// CreditNote is the last credit note issued on the order ("" for none): its number,
	// date and amounts, and the invoice it credits.
	CreditNote, CreditNoteDate, CreditNoteNet, CreditNoteVAT, CreditNoteTotal string
	// A part credit's notice: the note's reason, its lines (Packs the units credited,
	// LineNet the amount credited), the delivery credited and what it leaves on account.
	CreditReason, CreditDelivery, CreditOnAccount string
	CreditLines                                   []lineView
	// CreditToCard says what a note leaves on account goes back to the card: the order
	// was paid after a card attempt, which is how the card refund (package cardpay) finds
	// it. The refund's own email confirms it.
	CreditToCard bool
	// A forward order's: the buyer's choice for short deliveries, and today's order
	// placed with it ("" for none).
	NoBackorders bool
	Companion    string
}

type shopView struct {
	TradingName, LegalName, RegisteredIn, RegisteredAddress, CompanyNumber, VATNumber string
	Address, Phone, Email, Hours                                                      string
}

// lineView is one line of an email. PriceNote says how an order line's unit price was
// reached ("list £0.95, 12+ packs £0.90, 5% off"; "" at the list price).
type lineView struct {
	Name, SKU, Packs, UnitPrice, PriceNote, LineNet string
	// DeliveryFrom and OrderBy are a forward line's dates as sentences write them.
	DeliveryFrom, OrderBy string
}

// orderLineView is line l of an order as its emails list it.
func orderLineView(l orders.Line) lineView {
	v := lineView{Name: l.Name, SKU: l.SKU, Packs: packs(l), UnitPrice: orders.Pounds(l.UnitPrice), PriceNote: l.PriceNote(),
		LineNet: orders.Pounds(l.LineAmount)}
	if l.DeliveryFrom != "" {
		v.DeliveryFrom, v.OrderBy = catalogue.LongDate(l.DeliveryFrom), catalogue.LongDate(l.OrderBy)
	}
	return v
}

func (n Notices) view(o orders.Order) view {
	b, c := n.Shop.Business, n.Shop.Contact
	v := view{
		Shop: shopView{TradingName: b.TradingName, LegalName: b.LegalName, RegisteredIn: b.RegisteredIn, RegisteredAddress: b.RegisteredAddress,
			CompanyNumber: b.CompanyNumber, VATNumber: b.VATNumber, Address: c.Address, Phone: c.Phone, Email: c.Email, Hours: c.Hours},
		Order: o.ID, Date: orders.InvoiceDate(o.PlacedAt), BuyerEmail: o.Email,
		Goods: orders.Pounds(o.GoodsExVAT), NetExVAT: orders.Pounds(o.NetExVAT), VAT: orders.Pounds(o.VAT), Total: orders.Pounds(o.TotalIncVAT),
		DeliveryNote: o.DeliveryNote, ProForma: o.ProForma(), Paid: o.Paid(), CancelReason: strings.TrimSpace(o.CancelReason),
		PriceGroup:    o.PriceGroupName(),
		PaymentMethod: "on account",
	}
	card := o.Billing != nil && o.Billing.PaymentMethod == account.PayByCard
	switch {
	case card:
		v.PaymentMethod = "card"
	case v.ProForma:
		v.PaymentMethod = "pro-forma"
	}
	if o.CouponDiscount != 0 || o.CouponID != "" {
		v.CouponID = o.CouponID
		if v.CouponID == "" {
			v.CouponID = "coupon"
		}
		v.Coupon = orders.Pounds(-o.CouponDiscount)
	}
	v.DeliveryName = o.DeliveryOption
	if opt, ok := orders.Option(n.Shop, o.DeliveryOption); ok {
		v.DeliveryName = opt.Name
	}
	v.Delivery = orders.Pounds(o.DeliveryCharge)
	if o.DeliveryCharge == 0 {
		v.Delivery = "Free"
	}
	for _, l := range o.Lines {
		v.Lines = append(v.Lines, orderLineView(l))
	}
	if bl := o.Billing; bl != nil {
		v.Business, v.Contact, v.PORef = bl.Company, bl.Contact, bl.PORef
	}
	v.DeliverTo = addressLines(v.Business, v.Contact, o.DeliverTo)
	if inv := o.Invoice; inv != nil {
		v.Invoice, v.InvoiceDate = orders.InvoiceNumber(inv.Number), orders.InvoiceDate(inv.IssuedAt)
	}
	switch {
	case card:
		v.PaymentTerms = orders.CardTerms(o)
		if !v.Paid && n.SiteURL != "" {
			v.PayNowURL = n.SiteURL + "/account/orders/?id=" + url.QueryEscape(o.ID)
		}
	case v.ProForma:
		v.PaymentTerms = orders.ProFormaTerms(o, n.Shop.BankTransfer)
	case o.Invoice != nil:
		v.PaymentTerms = o.Invoice.PaymentTerms
	}
	if d := o.Dispatch; d != nil {
		v.Carrier, v.Tracking = d.Carrier, d.Tracking
	}
	if len(o.CreditNotes) > 0 {
		c := o.CreditNotes[len(o.CreditNotes)-1]
		v.CreditNote, v.CreditNoteDate = orders.CreditNoteNumber(c.Number), orders.InvoiceDate(c.IssuedAt)
		v.CreditNoteNet, v.CreditNoteVAT, v.CreditNoteTotal = orders.Pounds(c.NetExVAT()), orders.Pounds(c.VAT()), orders.Pounds(c.TotalIncVAT())
		v.Invoice, v.InvoiceDate = orders.InvoiceNumber(c.Invoice), orders.InvoiceDate(c.InvoiceDate)
		if on := c.OnAccount(); on > 0 {
			v.CreditOnAccount = orders.Pounds(on)
		}
	}
	v.CreditToCard = o.Card != nil && o.Paid()
	return v
}

// packs says how many packs a line is: "3 packs of 6".
func packs(l orders.Line) string {
	if l.PackSize <= 1 {
		if l.Quantity == 1 {
			return "1 unit"
		}
		return fmt.Sprintf("%d units", l.Quantity)
	}
	n := l.Quantity / l.PackSize
	s := fmt.Sprintf("%d packs of %d", n, l.PackSize)
	if n == 1 {
		s = fmt.Sprintf("1 pack of %d", l.PackSize)
	}
	if rest := l.Quantity % l.PackSize; rest != 0 {
		s += fmt.Sprintf(" and %d", rest)
	}
	return s
}

// addressLines is where the order goes, one line each, the empty parts left out.
func addressLines(company, contact string, a *account.Address) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	add(company)
	add(contact)
	if a != nil {
		add(a.Line1)
		add(a.Line2)
		add(a.Town)
		add(a.Postcode)
	}
	return out
}
