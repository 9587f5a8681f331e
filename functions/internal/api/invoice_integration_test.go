package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pdftext"
	"github.com/tradeshop/functions/internal/testenv"
)

// getPDF asks for order id's invoice as the order page does (bearer token) and answers
// the status, the headers and the body.
func getPDF(t *testing.T, h http.Handler, token, id string) (int, http.Header, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/api/orders/"+id+"/invoice", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, rec.Result().Header, body
}

// The invoice invariant (docs/invoices.md): the numbers issued are 1 to N with no gap
// and no repeat, N is the counter, and each names one order that carries it; and every
// acknowledged order has its invoice.
func TestInvoiceNumbersStayGapFreeUnder50ConcurrentOrders(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	const buyers = 50
	p := s.product(1_000_000, 6, 1000)
	us := make([]testenv.User, buyers)
	for i := range us {
		us[i] = s.buyer()
		s.set(us[i], p, 120) // £120: above the minimum order
	}
	ids := make([]string, buyers)
	fns := make([]func(), buyers)
	for i := range fns {
		fns[i] = func() {
			status, body := s.place(us[i], fmt.Sprintf("invoice-race-key-%02d", i))
			if status != http.StatusCreated {
				t.Errorf("buyer %d: %d %v", i, status, body)
				return
			}
			ids[i], _ = body["id"].(string)
			if body["invoice"] == nil {
				t.Errorf("buyer %d: order %s was answered without its invoice", i, ids[i])
			}
		}
	}
	together(fns...)

	issued, err := s.st.InvoiceNumbers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	last, err := s.st.InvoiceCounter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(issued) != buyers || last != buyers {
		t.Fatalf("%d numbers issued, counter %d, for %d orders", len(issued), last, buyers)
	}
	seen := map[string]int64{}
	for i, n := range issued {
		if n.Number != int64(i+1) {
			t.Fatalf("number %d is at place %d: a gap or a repeat", n.Number, i+1)
		}
		o, err := s.st.Order(ctx, n.Order.UID, n.Order.ID)
		if err != nil || o.Invoice == nil || o.Invoice.Number != n.Number {
			t.Fatalf("number %d names order %s, which carries %+v (%v)", n.Number, n.Order.ID, o.Invoice, err)
		}
		if other, dup := seen[o.ID]; dup {
			t.Fatalf("order %s has numbers %d and %d", o.ID, other, n.Number)
		}
		seen[o.ID] = n.Number
	}
	for _, id := range ids {
		if _, ok := seen[id]; id != "" && !ok {
			t.Errorf("order %s has no invoice number", id)
		}
	}
	if left, err := s.st.ToInvoice(ctx, time.Now().Add(time.Hour)); err != nil || len(left) != 0 {
		t.Errorf("orders still marked to invoice: %v %v", left, err)
	}
}

func TestInvoicePDFOfAPlacedOrder(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := NewHandler(testDeps(t, s.st, testenv.Verifier(t)))
	// Two VAT rates: the invoice sums each.
	five := s.product(10_000, 6, 1500)
	five.VATRate = 5
	if err := s.st.PutCatalogue(context.Background(), nil, nil, []catalogue.Product{five}, nil); err != nil {
		t.Fatal(err)
	}
	u := s.buyer()
	s.set(u, s.product(10_000, 6, 1000), 120)
	s.set(u, five, 12)
	status, body := s.place(u, "invoice-pdf-key-0001")
	if status != http.StatusCreated {
		t.Fatalf("%d %v", status, body)
	}
	id := body["id"].(string)
	inv, _ := body["invoice"].(map[string]any)
	number, _ := inv["number"].(string)
	if !strings.HasPrefix(number, "INV-") {
		t.Fatalf("invoice answered: %v", body["invoice"])
	}

	code, hdr, doc := getPDF(t, h, u.IDToken, id)
	if code != http.StatusOK || hdr.Get("Content-Type") != "application/pdf" ||
		hdr.Get("Content-Disposition") != fmt.Sprintf(`attachment; filename="%s.pdf"`, number) {
		t.Fatalf("%d %v", code, hdr)
	}
	text, err := pdftext.Of(doc)
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(text), " ")
	rates, _ := inv["vat_rates"].([]any)
	if len(rates) != 2 {
		t.Fatalf("no VAT rates in %v", inv)
	}
	want := []string{"VAT invoice", "VAT registration number " + shop.Business.VATNumber, "Invoice number " + number, "Order number " + id, "VAT summary"}
	for _, r := range rates {
		r := r.(map[string]any)
		want = append(want, fmt.Sprintf("%v%% %s %s", r["rate"], orders.Pounds(int64(r["net_ex_vat"].(float64))), orders.Pounds(int64(r["vat"].(float64)))))
	}
	for _, w := range want {
		if !strings.Contains(flat, w) {
			t.Errorf("the invoice PDF lacks %q:\n%s", w, text)
		}
	}

	// Someone else's order, an order that does not exist and a malformed id: 404.
	other := s.buyer()
	for _, tc := range []struct{ token, id string }{{other.IDToken, id}, {u.IDToken, "TS-999999"}, {u.IDToken, "x" + strings.Repeat("9", 2000)}} {
		if code, _, body := getPDF(t, h, tc.token, tc.id); code != http.StatusNotFound {
			t.Errorf("%.20s: %d %s", tc.id, code, body)
		}
	}
	if code, _, _ := getPDF(t, h, "not-a-token", id); code != http.StatusUnauthorized {
		t.Errorf("no token: %d", code)
	}
}
