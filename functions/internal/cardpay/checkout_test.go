package cardpay

import (
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/orders"
)

// TestCanPayNow: Pay now is offered for a pro-forma or card order, invoiced, unpaid, not
// cancelled, owing something; never for one on account, paid, cancelled, not invoiced,
// or credited in full.
func TestCanPayNow(t *testing.T) {
	t.Parallel()
	base := func(method string) orders.Order {
		return orders.Order{ID: "TS-100001", Status: orders.StatusPlaced, TotalIncVAT: 1200, Billing: &account.Billing{PaymentMethod: method},
			Invoice: &orders.Invoice{Number: 7}}
	}
	cases := []struct {
		name string
		o    func() orders.Order
		want bool
	}{
		{"card", func() orders.Order { return base(account.PayByCard) }, true},
		{"pro-forma", func() orders.Order { return base(account.PayProForma) }, true},
		{"part paid", func() orders.Order { o := base(account.PayByCard); o.InvoicePaid = 200; return o }, true},
		{"on account", func() orders.Order { return base(account.PayOnAccount) }, false},
		{"paid", func() orders.Order { o := base(account.PayByCard); o.PaidAt = time.Now(); return o }, false},
		{"cancelling", func() orders.Order { o := base(account.PayByCard); o.Status = orders.StatusCancelling; return o }, false},
		{"cancelled", func() orders.Order { o := base(account.PayByCard); o.Status = orders.StatusCancelled; return o }, false},
		{"not invoiced", func() orders.Order { o := base(account.PayByCard); o.Invoice = nil; return o }, false},
		{"credited in full", func() orders.Order {
			o := base(account.PayByCard)
			o.CreditNotes = []orders.CreditNote{{Applied: 1200}}
			return o
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := CanPayNow(c.o()); got != c.want {
				t.Fatalf("CanPayNow %v, want %v", got, c.want)
			}
		})
	}
}

// TestSessionKeyAndRefundIDsAreDeterministic: a retry of the same attempt is the same
// Checkout Session key; the same refund asked twice is the same REF id, another amount
// another; a failed refund's money back has one id.
func TestSessionKeyAndRefundIDsAreDeterministic(t *testing.T) {
	t.Parallel()
	if SessionKey("TS-100001", 2) != "checkout-TS-100001-2" {
		t.Fatal(SessionKey("TS-100001", 2))
	}
	a, b, c := CardRefundID("CN-000001", "pi_1", 500), CardRefundID("CN-000001", "pi_1", 500), CardRefundID("CN-000001", "pi_1", 501)
	if a != b || a == c || len(a) != len("REF-")+12 {
		t.Fatalf("%s %s %s", a, b, c)
	}
	if ReturnedID(a) != ReturnedID(b) || ReturnedID(a) == ReturnedID(c) {
		t.Fatal("returned ids")
	}
}
