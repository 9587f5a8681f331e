package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// pagingShop places orders through the API for buyers of its own table.
type pagingShop struct {
	t  *testing.T
	st *store.Store
	h  http.Handler
	c  *client
	p  catalogue.Product
}

func newPagingShop(t *testing.T) *pagingShop {
	st := testenv.Store(t)
	h := NewHandler(testDeps(t, st, testenv.Verifier(t)))
	p := catalogue.Product{SKU: "PG001-00001", Slug: "paging-1", Name: "Paging product", CategoryID: 1, RangeURLText: "paging",
		PackSize: 1, UnitPrice: 20000, VATRate: 20, Stock: 1_000_000}
	if err := st.PutCatalogue(context.Background(), nil, nil, []catalogue.Product{p}, nil); err != nil {
		t.Fatal(err)
	}
	return &pagingShop{t: t, st: st, h: h, c: newClient(t, h), p: p}
}

// buyer is a new buyer with the billing step done and n orders placed (one line each).
func (s *pagingShop) buyer(n int) (testenv.User, []string) {
	s.t.Helper()
	ctx := context.Background()
	u := testenv.NewUser(s.t)
	if err := s.st.SaveBilling(ctx, u.UID, store.Billing{Company: "Pages Ltd", Contact: "Pat", PaymentMethod: "proforma",
		Address: store.Address{Line1: "1 High St", Town: "Exampleton", Postcode: "EX1 2AB"}}, time.Now()); err != nil {
		s.t.Fatal(err)
	}
	var ids []string
	for i := range n {
		if err := s.st.SetLine(ctx, u.UID, s.p.SKU, 1, time.Now()); err != nil {
			s.t.Fatal(err)
		}
		code, o := s.c.post("/api/orders", fmt.Sprintf(`{"token":%q,"idempotency_key":"paging-%s-%04d","delivery_option":"standard","same_as_billing":true}`,
			u.IDToken, u.UID, i), nil)
		if code != http.StatusCreated {
			s.t.Fatalf("order %d: %d %v", i, code, o)
		}
		ids = append(ids, o["id"].(string))
	}
	return u, ids
}

type historyPage struct {
	Orders []struct {
		ID string `json:"id"`
	} `json:"orders"`
	Next  *string           `json:"next"`
	Error string            `json:"error"`
	Probs map[string]string `json:"problems"`
}

func (s *pagingShop) history(u testenv.User, cursor *string) (int, historyPage, []byte) {
	path := "/api/orders"
	if cursor != nil {
		path += "?cursor=" + url.QueryEscape(*cursor)
	}
	r := httptest.NewRequest("GET", path, nil)
	r.Header.Set("Authorization", "Bearer "+u.IDToken)
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, r)
	var p historyPage
	_ = json.Unmarshal(rec.Body.Bytes(), &p)
	return rec.Code, p, rec.Body.Bytes()
}

func TestOrderHistoryIsPaged(t *testing.T) {
	t.Parallel()
	s := newPagingShop(t)
	alice, placed := s.buyer(45)
	bob, bobs := s.buyer(3)

	// Newest first: the reverse of the order they were placed in.
	want := make([]string, len(placed))
	for i, id := range placed {
		want[len(placed)-1-i] = id
	}

	t.Run("45 orders come as pages of 20, 20 and 5, newest first, with next null on the last", func(t *testing.T) {
		var got []string
		var sizes []int
		var cursor *string
		var lastCursor string
		for page := 0; ; page++ {
			if page > 5 {
				t.Fatal("too many pages")
			}
			code, p, raw := s.history(alice, cursor)
			if code != http.StatusOK {
				t.Fatalf("page %d: %d %s", page, code, raw)
			}
			if !json.Valid(raw) || (p.Next == nil) != (len(got)+len(p.Orders) == 45) {
				t.Fatalf("page %d: next %v after %d orders", page, p.Next, len(got)+len(p.Orders))
			}
			sizes = append(sizes, len(p.Orders))
			for _, o := range p.Orders {
				got = append(got, o.ID)
			}
			if p.Next == nil {
				break
			}
			cursor, lastCursor = p.Next, *p.Next
		}
		if fmt.Sprint(sizes) != "[20 20 5]" || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("pages %v, orders %v, want %v", sizes, got, want)
		}

		// Another buyer's cursor only says where to start, in the token's own orders: bob,
		// whose orders are all newer than alice's, gets none after it, and never hers.
		code, p, raw := s.history(bob, &lastCursor)
		if code != http.StatusOK {
			t.Fatalf("bob with alice's cursor: %d %s", code, raw)
		}
		for _, o := range p.Orders {
			for _, a := range placed {
				if o.ID == a {
					t.Fatalf("bob read alice's order %s with her cursor", a)
				}
			}
		}
		// A cursor naming one of alice's orders, given by bob, reads bob's orders older than
		// that number: none of hers.
		first := base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + placed[44]))
		_, p, _ = s.history(bob, &first)
		for _, o := range p.Orders {
			if o.ID != bobs[0] && o.ID != bobs[1] && o.ID != bobs[2] {
				t.Fatalf("bob's history holds %s, not his", o.ID)
			}
		}
	})

	t.Run("a bad cursor is a 400 naming it, never a 500", func(t *testing.T) {
		long := base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + string(make([]byte, 2000))))
		for _, c := range []string{"", "%%%", "not base64!", base64.RawURLEncoding.EncodeToString([]byte("TS-100001")),
			base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + "TS-1#PROFILE")), base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix)),
			base64.StdEncoding.EncodeToString([]byte(cursorPrefix + "TS-100001?")), long} {
			code, p, raw := s.history(alice, &c)
			if code != http.StatusBadRequest || p.Probs["cursor"] == "" || p.Error == "" {
				t.Fatalf("cursor %q: %d %s", c, code, raw)
			}
		}
	})

	t.Run("a buyer with no orders gets an empty page and next null", func(t *testing.T) {
		code, _, raw := s.history(testenv.NewUser(t), nil)
		if code != http.StatusOK || string(raw) != "{\"orders\":[],\"next\":null}\n" {
			t.Fatalf("%d %s", code, raw)
		}
	})
}
