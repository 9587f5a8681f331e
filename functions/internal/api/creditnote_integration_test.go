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

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pdftext"
	"github.com/tradeshop/functions/internal/testenv"
)

// creditNoteProblems reads the credit note numbers, the counter and the orders of the
// buyers, and answers the invariants they break (orders.CreditNoteProblems).
func creditNoteProblems(t *testing.T, s *raceShop, buyers ...testenv.User) ([]orders.Order, []string) {
	t.Helper()
	ctx := context.Background()
	issued, err := s.st.CreditNoteNumbers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	last, err := s.st.CreditNoteCounter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var all []orders.Order
	for _, u := range buyers {
		list, err := s.st.Orders(ctx, u.UID)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range list {
			// The list may leave out what the order page shows: read each one whole.
			full, err := s.st.Order(ctx, u.UID, o.ID)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, full)
		}
	}
	return all, orders.CreditNoteProblems(issued, last, all)
}

// The credit note invariants (docs/invoices.md "Credit notes") under 50 cancellations at
// once: 40 orders cancelled by one member of staff each, and 5 more each cancelled by two
// at once (one wins, the other is refused). The numbers are 1 to 40 + 5, each on the order
// it names, one note per cancelled order crediting it in full, and no marker is left.
func TestCreditNotesStayGapFreeUnder50ConcurrentCancellations(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	const single, doubled = 40, 5
	p := s.product(1_000_000, 6, 1000)
	staff := testenv.Staff(t, testenv.NewUser(t))
	buyers := make([]testenv.User, single+doubled)
	ids := make([]string, len(buyers))
	for i := range buyers {
		buyers[i] = s.buyer()
		ids[i] = s.placed(buyers[i], p, 120)
	}
	codes := make([]int, single+2*doubled)
	var fns []func()
	for i := range single + 2*doubled {
		id := ids[min(i, single+(i-single)/2)]
		fns = append(fns, func() { codes[i], _ = s.act(staff, id, 1, "cancel", `,"reason":"Short of stock"`) })
	}
	together(fns...)
	for i := range single {
		if codes[i] != http.StatusOK {
			t.Errorf("cancel %d: %d", i, codes[i])
		}
	}
	for k := range doubled {
		a, b := codes[single+2*k], codes[single+2*k+1]
		if !(a == 200 && b == 409 || a == 409 && b == 200) {
			t.Errorf("two staff cancelling %s: %d and %d, want one 200 and one 409", ids[single+k], a, b)
		}
	}
	all, problems := creditNoteProblems(t, s, buyers...)
	for _, p := range problems {
		t.Error(p)
	}
	notes := 0
	for _, o := range all {
		if o.Status != orders.StatusCancelled || len(o.CreditNotes) != 1 {
			t.Errorf("order %s is %s with %d credit notes, want cancelled with one", o.ID, o.Status, len(o.CreditNotes))
		}
		notes += len(o.CreditNotes)
	}
	if last, _ := s.st.CreditNoteCounter(context.Background()); notes != single+doubled || last != single+doubled {
		t.Errorf("%d credit notes, counter %d, for %d cancelled orders", notes, last, single+doubled)
	}
	if refs, err := s.st.Cancelling(context.Background(), time.Now().Add(time.Hour)); err != nil || len(refs) != 0 {
		t.Errorf("cancellations left unfinished: %v %v", refs, err)
	}
}

// A cancelled order's credit note reaches the buyer: in the order answer, as a PDF that
// holds what HMRC asks, and named in the cancellation email; anyone else's or a number
// not on the order is a 404.
func TestCreditNoteOfACancelledOrder(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	h := NewHandler(testDeps(t, s.st, testenv.Verifier(t)))
	staff := testenv.Staff(t, testenv.NewUser(t))
	u, other := s.buyer(), s.buyer()
	id := s.placed(u, s.product(10_000, 6, 1000), 120)
	code, body := s.act(staff, id, 1, "cancel", `,"reason":"Customer asked to cancel"`)
	if code != http.StatusOK {
		t.Fatalf("cancel: %d %v", code, body)
	}
	o := orderOf(t, body)
	notes, _ := o["credit_notes"].([]any)
	if len(notes) != 1 {
		t.Fatalf("credit notes answered: %v", o["credit_notes"])
	}
	note := notes[0].(map[string]any)
	number, _ := note["number"].(string)
	inv := o["invoice"].(map[string]any)
	if !strings.HasPrefix(number, "CN-") || note["invoice"] != inv["number"] || note["total_inc_vat"] != o["total_inc_vat"] {
		t.Fatalf("credit note %v of order %v", note, o)
	}
	get := func(token, path string) (int, http.Header, []byte) {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		b, _ := io.ReadAll(rec.Result().Body)
		return rec.Code, rec.Result().Header, b
	}
	path := fmt.Sprintf("/api/orders/%s/creditNotes/%s", id, number)
	code, hdr, doc := get(u.IDToken, path)
	if code != http.StatusOK || hdr.Get("Content-Type") != "application/pdf" ||
		hdr.Get("Content-Disposition") != fmt.Sprintf(`attachment; filename="%s.pdf"`, number) {
		t.Fatalf("%d %v", code, hdr)
	}
	text, err := pdftext.Of(doc)
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{"VAT credit note", "Credit note number " + number, "Credits invoice " + inv["number"].(string),
		"Order number " + id, "Race Cards Ltd", "VAT credited", "Reason: Order cancelled: Customer asked to cancel"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the credit note PDF lacks %q:\n%s", want, flat)
		}
	}
	if code, _, _ := get(other.IDToken, path); code != http.StatusNotFound {
		t.Errorf("another buyer's credit note: %d", code)
	}
	if code, _, _ := get(u.IDToken, fmt.Sprintf("/api/orders/%s/creditNotes/CN-999999", id)); code != http.StatusNotFound {
		t.Errorf("a number not on the order: %d", code)
	}
	// The buyer's answer carries the note too.
	code, _, mine := get(u.IDToken, "/api/orders/"+id)
	if code != http.StatusOK || !strings.Contains(string(mine), number) {
		t.Errorf("the buyer's order answer lacks %s: %d %s", number, code, mine)
	}
}
