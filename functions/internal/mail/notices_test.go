package mail

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
)

func testShop(t *testing.T) config.Shop {
	t.Helper()
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	return shop
}

var placedAt = time.Date(2026, 11, 23, 23, 30, 0, 0, time.UTC) // 23 November in London

// order is a pro-forma order of two lines with a coupon, standard delivery and a PO ref.
func order() orders.Order {
	return orders.Order{
		ID: "TS-100042", UID: "u1", PlacedAt: placedAt, Email: "buyer@cards.test",
		Lines: []orders.Line{
			{SKU: "GC103-00001", Name: "Robin & Holly Christmas Cards", PackSize: 6, Quantity: 12, ListPrice: 55, UnitPrice: 55, LineAmount: 660, VATRate: 20, VAT: 120,
				BasePrice: 55, BreakPrice: 55},
			{SKU: "GW200-00002", Name: "Kraft Gift Wrap Roll", PackSize: 10, Quantity: 30, ListPrice: 125, UnitPrice: 125, LineAmount: 3750, VATRate: 20, VAT: 675,
				BasePrice: 125, BreakPrice: 125},
		},
		GoodsExVAT: 4410, CouponID: "TRADE10", CouponDiscount: 441, DeliveryOption: "standard", DeliveryCharge: 795, DeliveryVAT: 159,
		NetExVAT: 4764, VAT: 953, TotalIncVAT: 5717, Status: orders.StatusPlaced,
		Billing: &account.Billing{Company: "Cards & Co Ltd", Contact: "Pat Doe", PORef: "PO-7781", PaymentMethod: account.PayProForma,
			Address: account.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}},
		DeliverTo:    &account.Address{Line1: "Unit 9, Dock Road", Line2: "Harbour Estate", Town: "Portsea", Postcode: "PO1 3AA"},
		DeliveryNote: "Goods in at the back, before 4pm",
	}
}

var tags = regexp.MustCompile(`<[^>]*>`)

// shown is an HTML body as a reader sees it: no tags, entities decoded, spaces collapsed.
func shown(h string) string {
	return strings.Join(strings.Fields(html.UnescapeString(tags.ReplaceAllString(h, " "))), " ")
}

// flat is a text body with its spaces collapsed (columns are padded).
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// has fails the test for each fact missing from body.
func has(t *testing.T, what, body string, facts ...string) {
	t.Helper()
	for _, f := range facts {
		if !strings.Contains(body, flat(f)) {
			t.Errorf("%s lacks %q", what, f)
		}
	}
}

func lacks(t *testing.T, what, body string, facts ...string) {
	t.Helper()
	for _, f := range facts {
		if strings.Contains(body, f) {
			t.Errorf("%s has %q", what, f)
		}
	}
}

func byKind(t *testing.T, msgs []outbox.Message, kind string) outbox.Message {
	t.Helper()
	for _, m := range msgs {
		if strings.HasSuffix(m.ID, "/"+kind) {
			return m
		}
	}
	t.Fatalf("no %s message among %d", kind, len(msgs))
	return outbox.Message{}
}

// footer is what every email ends with: who the shop is and how to reach it.
func footer(shop config.Shop) []string {
	return []string{shop.Business.TradingName, shop.Contact.Address, shop.Contact.Phone, shop.Contact.Email,
		shop.Business.LegalName, shop.Business.CompanyNumber, shop.Business.VATNumber}
}

func TestPlacedProFormaConfirmationAndNewOrderNotice(t *testing.T) {
	t.Parallel()
	shop := testShop(t)
	o := order()
	msgs := Notices{Shop: shop}.Placed(o)
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want the confirmation and the new-order notice", len(msgs))
	}
	c := byKind(t, msgs, outbox.KindConfirmation)
	if c.ID != "TS-100042/confirmation" || c.To != "buyer@cards.test" || c.ReplyTo != shop.Contact.Email {
		t.Errorf("confirmation envelope %q to %q reply-to %q", c.ID, c.To, c.ReplyTo)
	}
	if !strings.Contains(c.Subject, "TS-100042") {
		t.Errorf("subject %q lacks the order number", c.Subject)
	}
	facts := []string{"TS-100042", "23 November 2026", "PO-7781",
		"Robin & Holly Christmas Cards", "GC103-00001", "2 packs of 6", "£0.55", "£6.60",
		"Kraft Gift Wrap Roll", "GW200-00002", "3 packs of 10", "£1.25", "£37.50",
		"£44.10", "TRADE10", "-£4.41", "£7.95", "Standard UK mainland delivery", "£47.64", "£9.53", "£57.17",
		"Cards & Co Ltd", "Pat Doe", "Unit 9, Dock Road", "Harbour Estate", "Portsea", "PO1 3AA", "Goods in at the back, before 4pm",
		// The pro-forma payment instructions, as the invoice words them.
		orders.ProFormaTerms(o, shop.BankTransfer), shop.BankTransfer.SortCode, shop.BankTransfer.AccountNumber,
	}
	facts = append(facts, footer(shop)...)
	has(t, "confirmation text", flat(c.Text), facts...)
	has(t, "confirmation HTML", shown(c.HTML), facts...)
	lacks(t, "confirmation text", c.Text, "VAT invoice:") // not issued yet
	for _, label := range []string{"Goods ex VAT", "Net ex VAT", "Total inc VAT", "Delivery ex VAT", "VAT"} {
		has(t, "confirmation text", flat(c.Text), label)
		has(t, "confirmation HTML", shown(c.HTML), label)
	}

	n := byKind(t, msgs, outbox.KindNewOrder)
	if n.ID != "TS-100042/new-order" || n.To != shop.Contact.Email || n.ReplyTo != "buyer@cards.test" {
		t.Errorf("new-order envelope %q to %q reply-to %q", n.ID, n.To, n.ReplyTo)
	}
	if !strings.Contains(n.Subject, "TS-100042") || !strings.Contains(n.Subject, "Cards & Co Ltd") || !strings.Contains(n.Subject, "£57.17") {
		t.Errorf("new-order subject %q", n.Subject)
	}
	nf := []string{"TS-100042", "Cards & Co Ltd", "Pat Doe", "buyer@cards.test", "PO-7781", "pro-forma", "GC103-00001", "£57.17", "PO1 3AA"}
	has(t, "new-order text", flat(n.Text), nf...)
	has(t, "new-order HTML", shown(n.HTML), nf...)
}

// A line priced at a break or a discount says how beside its unit price, and an order a
// price group priced names the group; a line at its list price explains nothing.
func TestConfirmationSaysHowEachLineWasPriced(t *testing.T) {
	t.Parallel()
	o := order()
	l := &o.Lines[1]
	l.BasePrice, l.BreakFrom, l.BreakPrice, l.DiscountPercent, l.UnitPrice = 120, 3, 110, 5, 105
	l.Group, l.GroupName = "independents", "Independents"
	c := byKind(t, Notices{Shop: testShop(t)}.Placed(o), outbox.KindConfirmation)
	for what, body := range map[string]string{"text": flat(c.Text), "HTML": shown(c.HTML)} {
		has(t, "confirmation "+what, body, "£1.05", "(list £1.25, group price £1.20, 3+ packs £1.10, 5% off)", "Prices: Independents")
		if strings.Count(body, "(list ") != 1 {
			t.Errorf("confirmation %s explains a line at its list price:\n%s", what, body)
		}
	}
	plain := byKind(t, Notices{Shop: testShop(t)}.Placed(order()), outbox.KindConfirmation)
	lacks(t, "confirmation text", plain.Text, "Prices:", "(list ")
}

func TestConfirmationOfAnInvoicedOrderOnAccount(t *testing.T) {
	t.Parallel()
	shop := testShop(t)
	o := order()
	o.Billing.PaymentMethod = account.PayOnAccount
	inv := orders.NewInvoice(o, shop, 7, placedAt)
	o.Invoice = &inv
	c := byKind(t, Notices{Shop: shop}.Placed(o), outbox.KindConfirmation)
	has(t, "confirmation text", flat(c.Text), "INV-000007", "on account", inv.PaymentTerms)
	has(t, "confirmation HTML", shown(c.HTML), "INV-000007", "on account", inv.PaymentTerms)
	for _, body := range []string{c.Text, shown(c.HTML)} {
		lacks(t, "an on-account confirmation", body, "How to pay", "sort code")
	}
}

func TestNoConfirmationWithoutTheBuyersAddress(t *testing.T) {
	t.Parallel()
	o := order()
	o.Email = ""
	msgs := Notices{Shop: testShop(t)}.Placed(o)
	if len(msgs) != 1 || msgs[0].ID != "TS-100042/new-order" {
		t.Fatalf("messages %+v, want the new-order notice only", msgs)
	}
	if n := (Notices{Shop: testShop(t)}); n.Dispatched(o) != nil || n.Cancelled(o) != nil {
		t.Error("a dispatch or cancellation notice without the buyer's address")
	}
}

func TestBuyerTypedTextIsEscapedInHTMLAndKeptOffHeaders(t *testing.T) {
	t.Parallel()
	o := order()
	o.Billing.Company = "Evil <script>alert(1)</script> Ltd\r\nBcc: victim@example.test"
	o.DeliveryNote = `<img src=x onerror="alert(2)">`
	o.Billing.PORef = "</td><b>PO</b>"
	o.Lines[0].Name = `Cards "quoted" <b>bold</b>`
	msgs := Notices{Shop: testShop(t)}.Placed(o)
	for _, m := range msgs {
		for _, bad := range []string{"<script>", "<img", "<b>", "</td><b>"} {
			if strings.Contains(m.HTML, bad) {
				t.Errorf("%s HTML holds %q unescaped", m.ID, bad)
			}
		}
		if strings.ContainsAny(m.Subject, "\r\n") {
			t.Errorf("%s subject %q spans lines", m.ID, m.Subject)
		}
		has(t, m.ID+" HTML as read", shown(m.HTML), `<img src=x onerror="alert(2)">`, `Cards "quoted" <b>bold</b>`)
		has(t, m.ID+" text", flat(m.Text), `<img src=x onerror="alert(2)">`)
	}
}

func TestDispatchNotice(t *testing.T) {
	t.Parallel()
	shop := testShop(t)
	o := order()
	o.Status, o.Dispatch = orders.StatusDispatched, &orders.Dispatch{Carrier: "Royal Mail Tracked 48", Tracking: "RM123456785GB"}
	msgs := Notices{Shop: shop}.Dispatched(o)
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	if m.ID != "TS-100042/dispatch" || m.To != "buyer@cards.test" || !strings.Contains(m.Subject, "dispatched") {
		t.Errorf("dispatch envelope %q to %q: %q", m.ID, m.To, m.Subject)
	}
	facts := append([]string{"TS-100042", "Royal Mail Tracked 48", "RM123456785GB", "PO1 3AA", "Robin & Holly Christmas Cards", "2 packs of 6"}, footer(shop)...)
	has(t, "dispatch text", flat(m.Text), facts...)
	has(t, "dispatch HTML", shown(m.HTML), facts...)
}

func TestCancellationNotice(t *testing.T) {
	t.Parallel()
	shop := testShop(t)
	o := order()
	o.Status, o.CancelReason = orders.StatusCancelled, "Out of stock at our supplier"
	m := Notices{Shop: shop}.Cancelled(o)[0]
	if m.ID != "TS-100042/cancellation" || !strings.Contains(m.Subject, "cancelled") {
		t.Errorf("cancellation envelope %q: %q", m.ID, m.Subject)
	}
	facts := append([]string{"TS-100042", "23 November 2026", "£57.17", "Reason: Out of stock at our supplier"}, footer(shop)...)
	has(t, "cancellation text", flat(m.Text), facts...)
	has(t, "cancellation HTML", shown(m.HTML), facts...)
	lacks(t, "an unpaid order's cancellation", m.Text, "refund")

	// With its credit note (the cancellation's last transaction issues it): the note's
	// number, date and amounts, and the invoice it credits.
	inv := orders.NewInvoice(o, shop, 42, placedAt)
	o.Invoice, o.CancelledAt = &inv, placedAt.Add(48*time.Hour)
	o.CreditNotes = []orders.CreditNote{orders.CancellationCreditNote(o, 7)}
	o.CreditNotes[0].Applied = o.CreditNotes[0].TotalIncVAT() // nothing was paid: the invoice takes it all
	m = Notices{Shop: shop}.Cancelled(o)[0]
	credit := []string{"VAT credit note CN-000007 of 25 November 2026 credits invoice INV-000042 of 23 November 2026: ",
		"£57.17 inc VAT", "Download it as a PDF"}
	has(t, "cancellation text with its credit note", flat(m.Text), credit...)
	has(t, "cancellation HTML with its credit note", shown(m.HTML), credit...)
	lacks(t, "a cancellation of an unpaid order", m.Text, "credit:")
	// Paid before the cancellation: the note's gross is credit on account.
	o.CreditNotes[0].Applied = 0
	m = Notices{Shop: shop}.Cancelled(o)[0]
	onAccount := orders.Pounds(o.CreditNotes[0].TotalIncVAT()) + " you paid stays on your account as credit"
	has(t, "a paid order's cancellation with its note", flat(m.Text), onAccount)
	has(t, "a paid order's cancellation with its note, HTML", shown(m.HTML), onAccount)
	lacks(t, "a paid order's cancellation with its note", m.Text, "We will refund the")
	// Paid by card (issue 36): what the note leaves goes back to the card, not on account.
	o.Card, o.PaidAt = &orders.CardState{Attempt: 1}, placedAt.Add(time.Hour)
	m = Notices{Shop: shop}.Cancelled(o)[0]
	toCard := orders.Pounds(o.CreditNotes[0].TotalIncVAT()) + " you paid goes back to the card you paid with"
	has(t, "a card-paid order's cancellation", flat(m.Text), toCard)
	has(t, "a card-paid order's cancellation, HTML", shown(m.HTML), toCard)
	lacks(t, "a card-paid order's cancellation", m.Text, "stays on your account")
	o.Card, o.PaidAt = nil, time.Time{}
	o.CreditNotes, o.Invoice = nil, nil

	o.CancelReason, o.PaidAt = "", placedAt.Add(time.Hour)
	m = Notices{Shop: shop}.Cancelled(o)[0]
	lacks(t, "a cancellation without a reason", m.Text, "Reason")
	has(t, "a paid order's cancellation", flat(m.Text), "We will refund the £57.17 you paid.")
	has(t, "a paid order's cancellation HTML", shown(m.HTML), "We will refund the £57.17 you paid.")
}

func TestEveryTemplateRendersWithoutTheFallback(t *testing.T) {
	t.Parallel()
	n := Notices{Shop: testShop(t)}
	o := order()
	o.Dispatch = &orders.Dispatch{Carrier: "DPD", Tracking: "1"}
	for _, kind := range []string{outbox.KindConfirmation, outbox.KindNewOrder, outbox.KindDispatch, outbox.KindCancellation} {
		if _, _, err := render(kind, n.view(o)); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
	var empty orders.Order // no billing, no lines, no address
	for _, kind := range []string{outbox.KindConfirmation, outbox.KindNewOrder, outbox.KindDispatch, outbox.KindCancellation} {
		if _, _, err := render(kind, n.view(empty)); err != nil {
			t.Errorf("%s of an empty order: %v", kind, err)
		}
	}
}

// A DynamoDB item holds at most 400 KB and the outbox record holds both bodies: a
// 500-line order's emails (long names, characters HTML escapes) stay under 300 KB.
func TestA500LineOrdersEmailsFitAnOutboxRecord(t *testing.T) {
	t.Parallel()
	o := order()
	o.Lines = nil
	for i := range 500 {
		o.Lines = append(o.Lines, orders.Line{SKU: fmt.Sprintf("GC103-%05d", i),
			Name:     fmt.Sprintf("Robin & Holly \"Luxury\" Christmas Cards <Assorted Designs> with Gold Foil, Pack %d of Twelve", i),
			PackSize: 12, Quantity: 1200, ListPrice: 999999, BasePrice: 999999, BreakFrom: 100, BreakPrice: 129954, DiscountPercent: 5,
			UnitPrice: 123456, LineAmount: 148147200, VATRate: 20, Group: "independents", GroupName: "Independent Card & Gift Shops Of Great Britain"})
	}
	o.Dispatch = &orders.Dispatch{Carrier: "DPD", Tracking: "15501234567890"}
	n := Notices{Shop: testShop(t)}
	all := append(n.Placed(o), append(n.Dispatched(o), n.Cancelled(o)...)...)
	for _, m := range all {
		size := len(m.ID) + len(m.To) + len(m.ReplyTo) + len(m.Subject) + len(m.Text) + len(m.HTML)
		t.Logf("%s: %d KB (text %d KB, HTML %d KB)", m.ID, size/1024, len(m.Text)/1024, len(m.HTML)/1024)
		if size > 300*1024 {
			t.Errorf("%s is %d KB, over 300 KB", m.ID, size/1024)
		}
	}
	c := byKind(t, all, outbox.KindConfirmation)
	if got := strings.Count(c.Text, "GC103-"); got != 500 {
		t.Errorf("the confirmation lists %d lines, want 500", got)
	}
}

func TestCreditedNotice(t *testing.T) {
	t.Parallel()
	shop := testShop(t)
	o := order()
	inv := orders.NewInvoice(o, shop, 42, placedAt)
	o.Invoice, o.Status, o.Version = &inv, orders.StatusConfirmed, 2
	c, err := orders.PartCreditNote(o, orders.CreditAction{Version: 2, Lines: []orders.CreditUnits{{Line: 0, Units: 6}}, Reason: "Two packs damaged"},
		7, placedAt.Add(48*time.Hour), 20)
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(o)
	m := Notices{Shop: shop}.Credited(o, c)[0]
	if m.ID != "TS-100042/credit-note-CN-000007" || m.Subject != "Credit note CN-000007 for your order TS-100042" {
		t.Errorf("credit note envelope %q: %q", m.ID, m.Subject)
	}
	facts := append([]string{"VAT credit note CN-000007 of 25 November 2026", "Lines removed before dispatch: 6 × GC103-00001. Two packs damaged",
		"6 units × Robin & Holly Christmas Cards (GC103-00001) at £0.55: £2.97 ex VAT",
		"credits invoice INV-000042 of 23 November 2026: £2.97 ex VAT, VAT £0.60, £3.57 inc VAT"}, footer(shop)...)
	has(t, "credit note text", flat(m.Text), facts...)
	has(t, "credit note HTML", shown(m.HTML), facts...)
	lacks(t, "a note the invoice takes in full", m.Text, "credit.")

	o.InvoicePaid = o.TotalIncVAT // paid in full: the whole note is credit on account
	c.Apply(o)
	m = Notices{Shop: shop}.Credited(o, c)[0]
	has(t, "credit on account", flat(m.Text), "£3.57 of it is more than the invoice still owed: it stays on your account as credit.")
}

func TestDispatchNoticeSendsWhatWasNotCredited(t *testing.T) {
	t.Parallel()
	shop := testShop(t)
	o := order()
	inv := orders.NewInvoice(o, shop, 42, placedAt)
	o.Invoice, o.Status, o.Dispatch = &inv, orders.StatusDispatched, &orders.Dispatch{Carrier: "DPD", Tracking: "DPD123"}
	// 6 of the 12 cards and every roll of wrap were taken off before dispatch.
	o.CreditNotes = []orders.CreditNote{{Number: 1, Lines: []orders.CreditLine{{Line: 0, Units: 6}, {Line: 1, Units: 30}}}}
	m := Notices{Shop: shop}.Dispatched(o)[0]
	has(t, "dispatch text", flat(m.Text), "- Robin & Holly Christmas Cards (GC103-00001): 1 pack of 6")
	lacks(t, "dispatch text", m.Text, "GW200-00002")
}
