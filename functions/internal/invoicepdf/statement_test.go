package invoicepdf

import (
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/statements"
)

func TestRenderStatementHoldsItsFigures(t *testing.T) {
	t.Parallel()
	today := payments.Day(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	docs := payments.Documents{Invoices: []payments.Invoice{
		{Number: 41, OrderID: "TS-100041", IssuedAt: time.Date(2026, 8, 3, 10, 0, 0, 0, time.UTC), Gross: 12000, TermsDays: 30, Paid: 2000},
		{Number: 42, OrderID: "TS-100042", IssuedAt: time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC), Gross: 24567, TermsDays: 30},
	}, Payments: []payments.Payment{{ID: "PAY-1", Date: "2026-09-01", Amount: 2000, Allocated: 2000, RecordedAt: today}}}
	st := statements.Of(statements.Account{UID: "u1", Business: "Corner Cards Ltd",
		Buyer: []string{"Corner Cards Ltd", "Ann Example", "2 Market St, Leeds, LS1 1AA"}}, payments.Build(docs, today), today)
	shop := config.Shop{Business: config.Business{TradingName: "TradeShop Wholesale", LegalName: "TradeShop Wholesale Limited",
		RegisteredIn: "England and Wales", RegisteredAddress: "Unit 4, Meadow Lane, Exampleton, EX1 2AB", CompanyNumber: "01234567",
		VATNumber: "GB987654321"}, Contact: config.Contact{Email: "trade@tradeshop.example", Phone: "01632 960 123"}}
	doc, err := RenderStatement(st, shop)
	text := pdfWords(t, doc, err)
	holds(t, text,
		"Statement of account", "TradeShop Wholesale Limited", "VAT registration number GB987654321",
		"Statement date 1 December 2026", "Account Corner Cards Ltd", "Ann Example", "2 Market St, Leeds, LS1 1AA",
		"INV-000041", "3 August 2026", "TS-100041", "2 September 2026", "£120.00", "£100.00", "90 days",
		"INV-000042", "24 December 2026", "£245.67",
		"Due on open invoices £345.67", "Overdue £100.00", "Balance £345.67",
		"Current £245.67", "1–30 days £0.00", "61–90 days £100.00", "Over 90 days £0.00",
		"Account activity from 1 November 2026", "Brought forward £100.00", "Invoice, order TS-100042", "£245.67 £345.67",
	)
}
