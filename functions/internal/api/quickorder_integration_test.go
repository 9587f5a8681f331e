package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

// many writes n products of one pack size with stock units each, in one catalogue write.
func (s *raceShop) many(n, stock, pack int) []catalogue.Product {
	s.t.Helper()
	out := make([]catalogue.Product, n)
	for i := range out {
		k := s.seq.Add(1)
		out[i] = catalogue.Product{SKU: fmt.Sprintf("QO%03d-%05d", k%1000, k), Slug: fmt.Sprintf("quick-%d", k), Name: fmt.Sprintf("Quick product %d", k),
			CategoryID: 1, RangeURLText: "race", PackSize: pack, UnitPrice: 50, VATRate: 20, Stock: stock}
	}
	if err := s.st.PutCatalogue(context.Background(), nil, nil, out, nil); err != nil {
		s.t.Fatal(err)
	}
	return out
}

// linesJSON is {"sku","quantity"} lines of packs packs of each product.
func linesJSON(ps []catalogue.Product, packs int) string {
	lines := make([]map[string]any, len(ps))
	for i, p := range ps {
		lines[i] = map[string]any{"sku": p.SKU, "quantity": packs * p.PackSize}
	}
	b, _ := json.Marshal(lines)
	return string(b)
}

// held answers uid's basket as units by SKU.
func (s *raceShop) held(uid string) map[string]int {
	s.t.Helper()
	b, err := s.st.Basket(context.Background(), uid)
	if err != nil {
		s.t.Fatal(err)
	}
	out := map[string]int{}
	for _, l := range b.Lines {
		out[l.SKU] = l.Quantity
	}
	return out
}

func TestSKUsChecksEveryLineAsTheBasketWill(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	u := s.buyer()
	ok := s.product(600, 6, 100)
	low := s.product(18, 6, 100) // 3 packs
	out := s.product(5, 6, 100)  // less than a pack
	gone := s.discontinue(s.product(600, 6, 100))
	big := s.product(100_000, 10, 100)
	s.set(u, big, pricing.MaxLineUnits-20) // 2 packs of room left
	// Each SKU once: the page merges duplicates before asking.
	body := fmt.Sprintf(`{"token":%q,"lines":[{"sku":%q,"quantity":12},{"sku":"ZZ000-00000","quantity":6},{"sku":"hello world","quantity":6},
		{"sku":%q,"quantity":6},{"sku":%q,"quantity":6},{"sku":%q,"quantity":24},{"sku":%q,"quantity":30}]}`,
		u.IDToken, ok.SKU, gone.SKU, out.SKU, low.SKU, big.SKU)
	code, got := s.c.post("/api/skus", body, nil)
	if code != http.StatusOK {
		t.Fatalf("skus: %d %v", code, got)
	}
	var answer struct {
		Lines []struct {
			SKU        string
			LineAmount *int64 `json:"line_amount"`
			Product    *struct {
				Name      string
				PackSize  int `json:"pack_size"`
				PackPrice int `json:"pack_price"`
				LineLimit int `json:"line_limit"`
				InBasket  int `json:"in_basket"`
			}
			Problem *struct {
				Code      string
				Message   string
				Nearest   []int
				Available *int
			}
		}
	}
	b, _ := json.Marshal(got)
	if err := json.Unmarshal(b, &answer); err != nil || len(answer.Lines) != 7 {
		t.Fatalf("answer %s: %v", b, err)
	}
	want := []struct {
		code      string
		available int
	}{{"", 0}, {"unknown", 0}, {"unknown", 0}, {"discontinued", 0}, {"out_of_stock", 0}, {"short", 18}, {"over_limit", 20}}
	for i, w := range want {
		l := answer.Lines[i]
		switch {
		case w.code == "" && l.Problem != nil:
			t.Errorf("line %d (%s): problem %+v", i, l.SKU, *l.Problem)
		case w.code != "" && (l.Problem == nil || l.Problem.Code != w.code):
			t.Errorf("line %d (%s): problem %+v, want %s", i, l.SKU, l.Problem, w.code)
		case w.available > 0 && (l.Problem.Available == nil || *l.Problem.Available != w.available):
			t.Errorf("line %d (%s): available %v, want %d", i, l.SKU, l.Problem.Available, w.available)
		}
	}
	if p := answer.Lines[0].Product; p == nil || p.PackSize != 6 || p.PackPrice != 600 || p.LineLimit != 600 {
		t.Errorf("product of an available line: %+v", p)
	}
	if a := answer.Lines[0].LineAmount; a == nil || *a != 1200 || answer.Lines[1].LineAmount != nil {
		t.Errorf("line amounts: %v (12 units at 100p), %v (no product)", a, answer.Lines[1].LineAmount)
	}
	if p := answer.Lines[6].Product; p == nil || p.InBasket != pricing.MaxLineUnits-20 {
		t.Errorf("a line the basket holds: %+v", p)
	}
	if answer.Lines[1].Product != nil || answer.Lines[3].Product == nil {
		t.Error("an unknown SKU has no product; a discontinued one keeps its name")
	}

	// Not whole packs: the whole packs either side, the lower left out when it is 0.
	code, got = s.c.post("/api/skus", fmt.Sprintf(`{"token":%q,"lines":[{"sku":%q,"quantity":10},{"sku":%q,"quantity":4}]}`, u.IDToken, ok.SKU, low.SKU), nil)
	b, _ = json.Marshal(got)
	answer.Lines = nil
	_ = json.Unmarshal(b, &answer)
	if code != 200 || len(answer.Lines) != 2 || answer.Lines[0].Problem == nil || !slices.Equal(answer.Lines[0].Problem.Nearest, []int{6, 12}) ||
		answer.Lines[1].Problem == nil || !slices.Equal(answer.Lines[1].Problem.Nearest, []int{6}) {
		t.Errorf("not whole packs: %d %s", code, b)
	}

	// Bad requests: a 400 naming the problem, for every bound.
	tooMany := make([]map[string]any, basket.MaxAddLines+1)
	for i := range tooMany {
		tooMany[i] = map[string]any{"sku": fmt.Sprintf("ZZ%03d-%05d", i%1000, i), "quantity": 6}
	}
	many, _ := json.Marshal(tooMany)
	for name, lines := range map[string]string{
		"no lines":    `[]`,
		"501 lines":   string(many),
		"a duplicate": fmt.Sprintf(`[{"sku":%q,"quantity":6},{"sku":%q,"quantity":12}]`, ok.SKU, ok.SKU),
		"negative":    fmt.Sprintf(`[{"sku":%q,"quantity":-6}]`, ok.SKU),
		"empty SKU":   `[{"sku":"","quantity":6}]`,
	} {
		if code, got := s.c.post("/api/skus", fmt.Sprintf(`{"token":%q,"lines":%s}`, u.IDToken, lines), nil); code != http.StatusBadRequest || got["problems"] == nil {
			t.Errorf("%s: %d %v", name, code, got)
		}
	}
	if code, _ := s.c.post("/api/skus", fmt.Sprintf(`{"token":"not-a-token","lines":[{"sku":%q,"quantity":6}]}`, ok.SKU), nil); code != http.StatusUnauthorized {
		t.Errorf("without a sign-in: %d", code)
	}
}

func TestAddManyIsAllOrNothingAndListsEveryBadLine(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	u := s.buyer()
	ps := s.many(200, 60, 6)
	// 200 lines in one call: more than one UpdateItem holds, so one conditional put.
	code, got := s.c.post("/api/basket/addMany", fmt.Sprintf(`{"token":%q,"lines":%s}`, u.IDToken, linesJSON(ps, 2)), nil)
	if code != http.StatusOK {
		t.Fatalf("200 lines: %d %v", code, got)
	}
	held := s.held(u.UID)
	changed, _ := got["changed"].([]any)
	if len(held) != 200 || got["lines"] != float64(200) || len(changed) != 200 {
		t.Fatalf("basket holds %d lines, answer %v lines and %d changed", len(held), got["lines"], len(changed))
	}
	// The answer is what changed: each line as the basket holds it now, in the order asked.
	for i, c := range changed {
		if l := c.(map[string]any); l["sku"] != ps[i].SKU || l["quantity"] != float64(held[ps[i].SKU]) || held[ps[i].SKU] != 2*ps[i].PackSize {
			t.Fatalf("changed[%d] = %v, the basket holds %d", i, l, held[ps[i].SKU])
		}
	}
	// Again with 3 bad lines among 100: a 409 naming exactly those, and nothing added.
	again := slices.Clone(ps[:100])
	gone := s.discontinue(s.product(600, 6, 100))
	again[10] = catalogue.Product{SKU: "ZZ999-99999", PackSize: 6}
	again[40] = gone
	lines := linesJSON(again, 1)
	var asked []map[string]any
	_ = json.Unmarshal([]byte(lines), &asked)
	asked[70]["quantity"] = 9 // not whole packs
	b, _ := json.Marshal(asked)
	code, got = s.c.post("/api/basket/addMany", fmt.Sprintf(`{"token":%q,"lines":%s}`, u.IDToken, b), nil)
	if code != http.StatusConflict {
		t.Fatalf("3 bad lines: %d %v", code, got)
	}
	var refused []struct {
		Index int
		SKU   string
		Code  string
	}
	r, _ := json.Marshal(got["lines"])
	_ = json.Unmarshal(r, &refused)
	want := []string{"10:unknown", "40:discontinued", "70:packs"}
	var have []string
	for _, l := range refused {
		have = append(have, fmt.Sprintf("%d:%s", l.Index, l.Code))
	}
	if !slices.Equal(have, want) {
		t.Errorf("refused %v, want %v (%v)", have, want, got["error"])
	}
	if after := s.held(u.UID); fmt.Sprint(after) != fmt.Sprint(held) {
		t.Error("a refused add changed the basket")
	}
	// A line the basket already holds to its stock: refused with what can still be added.
	code, got = s.c.post("/api/basket/addMany", fmt.Sprintf(`{"token":%q,"lines":%s}`, u.IDToken, linesJSON(ps[:90], 9)), nil)
	if code != http.StatusConflict || len(got["lines"].([]any)) != 90 {
		t.Fatalf("past the stock: %d %v", code, got)
	}
	first := got["lines"].([]any)[0].(map[string]any)
	if first["code"] != "short" || first["available"] != float64(48) {
		t.Errorf("past the stock: %v", first)
	}
}

// TestConcurrentAddsAllCount: large adds (a conditional put of the whole basket) and
// small ones (one UpdateItem) from many requests at once. The invariant: each line holds
// exactly the sum of the adds acknowledged with 200, and the kept line count is the
// number of lines.
func TestConcurrentAddsAllCount(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	u := s.buyer()
	ps := s.many(120, 6000, 6)
	const rounds = 6
	var mu sync.Mutex
	acked := map[string]int{}
	var wg sync.WaitGroup
	for w := range rounds {
		big := ps[(w*17)%30 : (w*17)%30+90]
		small := ps[w*10 : w*10+10]
		for _, lines := range [][]catalogue.Product{big, small, small[:3]} {
			wg.Go(func() {
				code, got := s.c.post("/api/basket/addMany", fmt.Sprintf(`{"token":%q,"lines":%s}`, u.IDToken, linesJSON(lines, 1)), nil)
				if code != http.StatusOK {
					if code != http.StatusConflict {
						t.Errorf("add of %d lines: %d %v", len(lines), code, got)
					}
					return // a refusal (the basket kept moving): nothing of it may be there
				}
				mu.Lock()
				defer mu.Unlock()
				for _, p := range lines {
					acked[p.SKU] += p.PackSize
				}
			})
		}
	}
	wg.Wait()
	held := s.held(u.UID)
	for sku, n := range acked {
		if held[sku] != n {
			t.Errorf("%s: the basket holds %d units, %d were acknowledged", sku, held[sku], n)
		}
	}
	if len(held) != len(acked) {
		t.Errorf("the basket holds %d lines, %d were acknowledged", len(held), len(acked))
	}
	if len(acked) == 0 {
		t.Fatal("no add was acknowledged")
	}
}

// TestListsAreTheirAccountsOnly: another account gets the same 404 as a list that does
// not exist from every list endpoint, and changes nothing.
func TestListsAreTheirAccountsOnly(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	alice, mallory := s.buyer(), s.buyer()
	p := s.product(600, 6, 100)
	code, got := s.c.post("/api/lists", fmt.Sprintf(`{"token":%q,"name":"Weekly cards","lines":[{"sku":%q,"quantity":12}]}`, alice.IDToken, p.SKU), nil)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, got)
	}
	id := got["list"].(map[string]any)["id"].(string)
	before, _, _ := s.c.get("/api/lists/"+id, alice.IDToken)
	for _, call := range []struct {
		name string
		do   func() (int, map[string]any)
	}{
		{"GET /api/lists/{id}", func() (int, map[string]any) { c, b, _ := s.c.get("/api/lists/"+id, mallory.IDToken); return c, b }},
		{"POST /api/lists/{id} rename", func() (int, map[string]any) {
			return s.c.post("/api/lists/"+id, fmt.Sprintf(`{"token":%q,"name":"Mine now"}`, mallory.IDToken), nil)
		}},
		{"POST /api/lists/{id} add", func() (int, map[string]any) {
			return s.c.post("/api/lists/"+id, fmt.Sprintf(`{"token":%q,"add":[{"sku":%q,"quantity":6}]}`, mallory.IDToken, p.SKU), nil)
		}},
		{"POST /api/lists/{id} set", func() (int, map[string]any) {
			return s.c.post("/api/lists/"+id, fmt.Sprintf(`{"token":%q,"set":[{"sku":%q,"quantity":0}]}`, mallory.IDToken, p.SKU), nil)
		}},
		{"DELETE /api/lists/{id}", func() (int, map[string]any) {
			c, b, _ := s.c.bearer("DELETE", "/api/lists/"+id, mallory.IDToken, nil, "")
			return c, b
		}},
		{"POST /api/lists/{id}/basket", func() (int, map[string]any) {
			return s.c.post("/api/lists/"+id+"/basket", fmt.Sprintf(`{"token":%q}`, mallory.IDToken), nil)
		}},
	} {
		if code, body := call.do(); code != http.StatusNotFound || body["error"] != msgNotFound {
			t.Errorf("%s by another account: %d %v", call.name, code, body)
		}
	}
	if c, body, _ := s.c.get("/api/lists", mallory.IDToken); c != 200 || len(body["lists"].([]any)) != 0 {
		t.Errorf("another account's index: %d %v", c, body)
	}
	if held := s.held(mallory.UID); len(held) != 0 {
		t.Errorf("another account's basket got %v", held)
	}
	after, _, _ := s.c.get("/api/lists/"+id, alice.IDToken)
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("the list changed: %v\nwas %v", after, before)
	}
	// Not a list id: the same 404, never looked up.
	if c, body, _ := s.c.get("/api/lists/..%2Forders", alice.IDToken); c != http.StatusNotFound {
		t.Errorf("a bad id: %d %v", c, body)
	}
}

func TestListLifecycle(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	u := s.buyer()
	ps := s.many(3, 600, 6)
	gone := s.discontinue(s.product(600, 6, 100))
	post := func(path, body string) (int, map[string]any) {
		return s.c.post(path, fmt.Sprintf(`{"token":%q,%s}`, u.IDToken, body), nil)
	}
	// From an empty basket: refused, with the reason.
	if code, got := post("/api/lists", `"name":"Nothing","from_basket":true`); code != http.StatusConflict {
		t.Errorf("an empty basket saved: %d %v", code, got)
	}
	s.set(u, ps[0], 12)
	s.set(u, ps[1], 6)
	code, got := post("/api/lists", `"name":"  Christmas counter ","from_basket":true`)
	if code != http.StatusCreated {
		t.Fatalf("from the basket: %d %v", code, got)
	}
	list := got["list"].(map[string]any)
	id := list["id"].(string)
	if list["name"] != "Christmas counter" || len(list["lines"].([]any)) != 2 {
		t.Fatalf("saved basket: %v", list)
	}
	code, got = post("/api/lists/"+id, fmt.Sprintf(`"name":"Counter","add":[{"sku":%q,"quantity":6},{"sku":%q,"quantity":6}],"set":[{"sku":%q,"quantity":0}]`,
		ps[0].SKU, gone.SKU, ps[1].SKU))
	if code != http.StatusOK {
		t.Fatalf("change: %d %v", code, got)
	}
	list = got["list"].(map[string]any)
	var lines []string
	for _, l := range list["lines"].([]any) {
		line := l.(map[string]any)
		problem := ""
		if pr, ok := line["problem"].(map[string]any); ok {
			problem = pr["code"].(string)
		}
		lines = append(lines, fmt.Sprintf("%s:%v:%s", line["sku"], line["quantity"], problem))
	}
	if want := []string{ps[0].SKU + ":18:", gone.SKU + ":6:discontinued"}; list["name"] != "Counter" || !slices.Equal(lines, want) {
		t.Errorf("after the change: %v %v, want %v", list["name"], lines, want)
	}
	if code, got := post("/api/lists/"+id, `"add":[{"sku":"ZZ999-99999","quantity":6}]`); code != http.StatusBadRequest {
		t.Errorf("an unknown SKU added: %d %v", code, got)
	}
	if code, got := post("/api/lists/"+id, `"name":""`); code != http.StatusBadRequest {
		t.Errorf("an empty name: %d %v", code, got)
	}
	// Add all to basket: the good line goes in, the discontinued one is told.
	if code, got := post("/api/lists/"+id+"/basket", `"x":1`); code != http.StatusBadRequest {
		t.Errorf("an unknown field: %d %v", code, got)
	}
	code, got = s.c.post("/api/lists/"+id+"/basket", fmt.Sprintf(`{"token":%q}`, u.IDToken), nil)
	if code != http.StatusOK || len(got["added"].([]any)) != 1 || len(got["unavailable"].([]any)) != 1 ||
		got["unavailable"].([]any)[0].(map[string]any)["code"] != "discontinued" {
		t.Fatalf("add all: %d %v", code, got)
	}
	if held := s.held(u.UID); held[ps[0].SKU] != 12+18 {
		t.Errorf("basket after add all: %v", held)
	}
	// At most lists.MaxPerAccount lists, under concurrent creates: exactly 50 exist.
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for range 55 {
		wg.Go(func() {
			code, _ := post("/api/lists", fmt.Sprintf(`"name":"Many","lines":[{"sku":%q,"quantity":6}]`, ps[2].SKU))
			mu.Lock()
			codes[code]++
			mu.Unlock()
		})
	}
	wg.Wait()
	c, index, _ := s.c.get("/api/lists", u.IDToken)
	if c != 200 || len(index["lists"].([]any)) != 50 || codes[http.StatusCreated] != 49 || codes[http.StatusConflict] != 6 {
		t.Errorf("55 creates beside 1 list: %v; %d lists", codes, len(index["lists"].([]any)))
	}
	// Deleting one makes room for one.
	if c, body, _ := s.c.bearer("DELETE", "/api/lists/"+id, u.IDToken, nil, ""); c != 200 || body["deleted"] != id {
		t.Fatalf("delete: %d %v", c, body)
	}
	if c, _, _ := s.c.bearer("DELETE", "/api/lists/"+id, u.IDToken, nil, ""); c != http.StatusNotFound {
		t.Errorf("deleted twice: %d", c)
	}
	if code, got := post("/api/lists", `"name":"After a delete"`); code != http.StatusCreated {
		t.Errorf("a list after a delete: %d %v", code, got)
	}
	if code, _ := post("/api/lists", `"name":"One too many"`); code != http.StatusConflict {
		t.Errorf("list 51: %d", code)
	}
}

func TestOrderAgainForChosenLines(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	u := s.buyer()
	a, b, gone := s.product(600, 6, 2000), s.product(600, 6, 2000), s.product(600, 6, 2000)
	s.set(u, a, 12)
	s.set(u, b, 18)
	s.set(u, gone, 6)
	code, placed := s.place(u, fmt.Sprintf("chosen-%d", time.Now().UnixNano()))
	if code != http.StatusCreated {
		t.Fatalf("place: %d %v", code, placed)
	}
	id := placed["id"].(string)
	s.discontinue(gone)
	reorder := func(skus string) (int, map[string]any) {
		return s.c.post("/api/orders/"+id+"/reorder", fmt.Sprintf(`{"token":%q%s}`, u.IDToken, skus), nil)
	}
	code, got := reorder(fmt.Sprintf(`,"skus":[%q,%q]`, b.SKU, gone.SKU))
	if code != http.StatusOK || len(got["added"].([]any)) != 1 || len(got["unavailable"].([]any)) != 1 {
		t.Fatalf("chosen lines: %d %v", code, got)
	}
	if held := s.held(u.UID); len(held) != 1 || held[b.SKU] != 18 {
		t.Errorf("basket after the chosen lines: %v", held)
	}
	if code, got := reorder(`,"skus":["ZZ999-99999"]`); code != http.StatusBadRequest {
		t.Errorf("a SKU not in the order: %d %v", code, got)
	}
	if code, got := reorder(`,"skus":[]`); code != http.StatusBadRequest {
		t.Errorf("no SKUs: %d %v", code, got)
	}
	// The whole order, as before.
	if code, got := reorder(""); code != http.StatusOK || len(got["added"].([]any)) != 2 {
		t.Errorf("whole order: %d %v", code, got)
	}
	if held := s.held(u.UID); held[a.SKU] != 12 || held[b.SKU] != 36 {
		t.Errorf("basket after the whole order: %v", held)
	}
}
