package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/pdftext"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/testenv"
)

// credit posts a part credit of order id at version.
func (s *raceShop) credit(staff testenv.User, id string, version int64, body string) (int, map[string]any) {
	return s.c.post("/api/admin/orders/"+id+"/credit", fmt.Sprintf(`{"token":%q,"version":%d,%s}`, staff.IDToken, version, body), nil)
}

// placedLines places u's basket of units of each product and answers the order number.
func (s *raceShop) placedLines(u testenv.User, units int, ps ...catalogue.Product) string {
	s.t.Helper()
	for _, p := range ps {
		s.set(u, p, units)
	}
	code, body := s.place(u, fmt.Sprintf("credit-test-%d-%d", time.Now().UnixNano(), s.seq.Add(1)))
	if code != http.StatusCreated {
		s.t.Fatalf("place: %d %v", code, body)
	}
	return body["id"].(string)
}

// stockProblems holds the products to the stock invariant over the buyers' orders.
func stockProblems(t *testing.T, s *raceShop, initial map[string]int, buyers ...testenv.User) []string {
	t.Helper()
	stock := map[string]int{}
	for sku := range initial {
		stock[sku] = s.stock(catalogue.Product{SKU: sku})
	}
	var all []orders.Order
	for _, u := range buyers {
		list, err := s.st.Orders(context.Background(), u.UID)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range list {
			full, err := s.st.Order(context.Background(), u.UID, o.ID)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, full)
		}
	}
	return orders.StockProblems(initial, stock, all)
}

// Staff take one line off a confirmed order: the note credits exactly that line, its
// stock comes back, the order shows the line ordered, credited and none to send; a stale
// version is 409, taking every unit left is refused (cancel instead). After dispatch a
// return of one unit not restocked and part of the delivery is a second note; the stock
// stays. The order paid in full leaves each note on account.
func TestPartCreditsOfAnOrder(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	staff := testenv.Staff(t, testenv.NewUser(t))
	u := s.buyer()
	a, b := s.product(100, 1, 2500), s.product(100, 1, 1000)
	id := s.placedLines(u, 4, a, b)
	if code, out := s.act(staff, id, 1, "confirm", ""); code != 200 {
		t.Fatalf("confirm: %d %v", code, out)
	}
	placed, err := s.st.Order(ctx, u.UID, id)
	if err != nil {
		t.Fatal(err)
	}
	la, lb := 0, 1 // the lines of a and b
	if placed.Lines[0].SKU != a.SKU {
		la, lb = 1, 0
	}
	if code, out := s.credit(staff, id, 1, `"lines":[{"line":0,"units":1}],"reason":"Damaged"`); code != http.StatusConflict ||
		!strings.Contains(fmt.Sprint(out), "changed by someone else") {
		t.Errorf("a stale version: %d %v", code, out)
	}
	if code, out := s.credit(staff, id, 2, `"lines":[{"line":0,"units":4},{"line":1,"units":4}],"reason":"Out of stock"`); code != http.StatusConflict ||
		!strings.Contains(fmt.Sprint(out), "cancel the order instead") {
		t.Errorf("every unit: %d %v", code, out)
	}
	if code, out := s.credit(staff, id, 2, `"lines":[{"line":0,"units":1}],"reason":""`); code != http.StatusBadRequest {
		t.Errorf("no reason: %d %v", code, out)
	}
	code, out := s.credit(staff, id, 2, fmt.Sprintf(`"lines":[{"line":%d,"units":4}],"reason":"Short of stock"`, la))
	if code != 200 {
		t.Fatalf("credit line 1: %d %v", code, out)
	}
	o := orderOf(t, out)
	notes := o["credit_notes"].([]any)
	note := notes[0].(map[string]any)
	lines := o["lines"].([]any)
	first := lines[la].(map[string]any)
	if len(notes) != 1 || note["net_ex_vat"] != float64(10000) || note["vat"] != float64(2000) || len(note["lines"].([]any)) != 1 ||
		first["credited"] != float64(4) || first["to_send"] != float64(0) || lines[lb].(map[string]any)["to_send"] != float64(4) {
		t.Fatalf("after crediting line 1: %v", o)
	}
	if !strings.HasPrefix(note["reason"].(string), "Lines removed before dispatch: 4 × "+a.SKU) || o["version"] != float64(3) {
		t.Errorf("reason %q, version %v", note["reason"], o["version"])
	}
	if got := s.stock(a); got != 100 {
		t.Errorf("stock of the credited line %d, want 100 back", got)
	}
	// Its PDF, read back: the line credited and why.
	code, _, doc := s.c.get("/api/orders/"+id+"/creditNotes/"+note["number"].(string), u.IDToken)
	if code != 200 {
		t.Fatalf("the credit note's PDF: %d", code)
	}
	text, err := pdftext.Of(doc)
	if err != nil {
		t.Fatal(err)
	}
	if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, a.SKU) || !strings.Contains(flat, "Lines removed before dispatch") ||
		strings.Contains(flat, b.SKU) {
		t.Errorf("the part credit note's PDF:\n%s", flat)
	}

	// Paid, dispatched, then a return of one unit not restocked, and £1 of delivery.
	svc := payments.Service{Store: s.st, Now: time.Now}
	now, _ := s.st.Order(ctx, u.UID, id)
	if _, err := svc.PayInvoice(ctx, now, orders.Staff{UID: "s", Email: "s@example.com"}); err != nil {
		t.Fatal(err)
	}
	now, _ = s.st.Order(ctx, u.UID, id)
	if !now.Paid() || now.InvoicePaid != now.TotalIncVAT-12000 {
		t.Fatalf("paid %v with %d of %d", now.Paid(), now.InvoicePaid, now.TotalIncVAT)
	}
	if code, out := s.act(staff, id, now.Version, "dispatch", `,"carrier":"Royal Mail","tracking":"RM123"`); code != 200 {
		t.Fatalf("dispatch: %d %v", code, out)
	}
	code, out = s.credit(staff, id, now.Version+1, fmt.Sprintf(`"lines":[{"line":%d,"units":1,"restock":false}],"delivery":100,"reason":"Crushed in transit"`, lb))
	if code != 200 {
		t.Fatalf("return: %d %v", code, out)
	}
	note = orderOf(t, out)["credit_notes"].([]any)[1].(map[string]any)
	if note["net_ex_vat"] != float64(1100) || note["applied_amount"] != float64(0) || note["on_account_amount"] != note["total_inc_vat"] ||
		!strings.HasPrefix(note["reason"].(string), "Returned: 1 × "+b.SKU+", delivery £1.00. Crushed in transit") {
		t.Errorf("the return's note %v", note)
	}
	if got := s.stock(b); got != 96 {
		t.Errorf("stock of a return not restocked %d, want 96", got)
	}
	credit, err := s.st.Payment(ctx, u.UID, note["number"].(string))
	if err != nil || credit.Method != payments.MethodCreditNote || credit.Amount != int64(note["total_inc_vat"].(float64)) {
		t.Errorf("credit on account %+v: %v", credit, err)
	}
	all, problems := creditNoteProblems(t, s, u)
	problems = append(problems, stockProblems(t, s, map[string]int{a.SKU: 100, b.SKU: 100}, u)...)
	for _, p := range problems {
		t.Error(p)
	}
	if len(all) != 1 {
		t.Errorf("%d orders", len(all))
	}
	checkPaymentInvariants(t, s, svc, u.UID)
}

// 50 writes at once on the same 10 orders, mixing part credits (27), cancellations of 3
// orders and payment allocations (20): every invariant holds (credit note numbers, units credited,
// invoiced − credited = supplied, stock, allocations ≤ what each invoice owes after its
// notes' applied parts, the ledger's balance).
func TestPartCreditsCancellationsAndAllocationsStayExactUnder50ConcurrentWrites(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	svc := payments.Service{Store: s.st, Now: time.Now}
	staff := testenv.Staff(t, testenv.NewUser(t))
	by := orders.Staff{UID: "staff-race", Email: "staff@example.com"}
	u := s.buyer()
	a, b := s.product(1000, 1, 1000), s.product(1000, 1, 500)
	ids := make([]string, 10)
	var gross int64
	for i := range ids {
		ids[i] = s.placedLines(u, 10, a, b)
		o, err := s.st.Order(ctx, u.UID, ids[i])
		if err != nil || o.Invoice == nil {
			t.Fatalf("order %s: %v", ids[i], err)
		}
		gross += o.TotalIncVAT
	}
	today := time.Now().In(london).Format(time.DateOnly)
	p, err := svc.Record(ctx, u.UID, payments.Recording{Method: payments.MethodBankTransfer, Date: today, Amount: gross,
		Reference: "RACE MIX", Allocate: payments.AllocateNone, By: by})
	if err != nil {
		t.Fatal(err)
	}
	var credits, cancels, allocations, refused atomic.Int64
	fns := make([]func(), 50)
	for i := range fns {
		id := ids[i%10]
		fns[i] = func() {
			o, err := s.st.Order(ctx, u.UID, id)
			if err != nil {
				t.Error(err)
				return
			}
			var code int
			var out map[string]any
			switch {
			case i < 10 && i%10 < 3:
				// Told the order changed (a part credit first), staff reload and cancel again.
				for try := 0; try < 5; try++ {
					code, out = s.act(staff, id, o.Version, "cancel", `,"reason":"Race"`)
					if code != http.StatusConflict {
						break
					}
					if o, err = s.st.Order(ctx, u.UID, id); err != nil {
						t.Error(err)
						return
					}
				}
				if code == 200 {
					cancels.Add(1)
				}
			case i < 30:
				// A member of staff told the order changed reloads it and tries again.
				for try := 0; try < 5; try++ {
					code, out = s.credit(staff, id, o.Version, fmt.Sprintf(`"lines":[{"line":%d,"units":1}],"delivery":%d,"reason":"Race credit"`, i%2, i%3))
					if code != http.StatusConflict {
						break
					}
					if o, err = s.st.Order(ctx, u.UID, id); err != nil {
						t.Error(err)
						return
					}
				}
				if code == 200 {
					credits.Add(1)
				}
			default:
				_, err := svc.Allocate(ctx, u.UID, p.ID, []payments.Line{{Invoice: o.Invoice.Number, Amount: 1700}}, by)
				var c *shoperr.ConflictError
				switch {
				case err == nil:
					allocations.Add(1)
				case errors.As(err, &c):
					refused.Add(1)
				default:
					t.Errorf("allocate: %v", err)
				}
				return
			}
			if code != 200 && code != http.StatusConflict {
				t.Errorf("order %s: %d %v", id, code, out)
			}
			if code == http.StatusConflict {
				refused.Add(1)
			}
		}
	}
	together(fns...)
	t.Logf("%d part credits, %d cancellations, %d allocations, %d refused", credits.Load(), cancels.Load(), allocations.Load(), refused.Load())
	if credits.Load() == 0 || cancels.Load() == 0 || allocations.Load() == 0 {
		t.Errorf("each kind of write should win at least once")
	}
	all, problems := creditNoteProblems(t, s, u)
	problems = append(problems, stockProblems(t, s, map[string]int{a.SKU: 1000, b.SKU: 1000}, u)...)
	for _, p := range problems {
		t.Error(p)
	}
	notes := 0
	for _, o := range all {
		notes += len(o.CreditNotes)
	}
	if last, _ := s.st.CreditNoteCounter(ctx); int64(notes) != last || int64(notes) != credits.Load()+cancels.Load() {
		t.Errorf("%d notes on the orders, counter %d, %d credits and %d cancellations answered", notes, last, credits.Load(), cancels.Load())
	}
	checkPaymentInvariants(t, s, svc, u.UID)
}
