package apicalls

import (
	"fmt"
	"time"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/callcount"
)

// GrowthRow is the calls of one request at one basket size.
type GrowthRow struct {
	Endpoint   string
	What       string
	Lines      int // the lines of the basket (or order) it works on
	Categories int // the categories those lines are in
	Count      callcount.Count
}

// Growth makes, for each size n, the requests whose calls could grow with the basket:
// for a buyer of its own with the coupon TRADE10, an add of n lines to the empty basket,
// then on that n-line basket a basket add, set, read (the header's and the page's),
// recommended, remove, then the order of the n lines and Order again of it.
func (b *Bench) Growth(sizes []int) ([]GrowthRow, error) {
	var rows []GrowthRow
	for _, n := range sizes {
		if n < 1 || n > len(b.products) {
			return rows, fmt.Errorf("a basket of %d lines: the bench has %d products for baskets", n, len(b.products))
		}
		u, err := b.newBuyer(fmt.Sprintf("Growth %d Cards", n))
		if err != nil {
			return rows, err
		}
		p := b.products[0]
		var orderID string
		steps := []struct {
			endpoint, route, what string
			request               func() answer
			after                 func(answer) error
		}{
			{"basketAddMany", "POST /api/basket/addMany", "add n lines to an empty basket", func() answer {
				return b.post("/api/basket/addMany", map[string]any{"token": u.IDToken, "lines": b.lines(n)})
			}, nil},
			{"basketAdd", "POST /api/basket/add", "a pack more of a line", func() answer {
				return b.post("/api/basket/add", map[string]any{"token": u.IDToken, "sku": p.SKU, "quantity": p.PackSize})
			}, nil},
			{"basketSet", "POST /api/basket/set", "set a line", func() answer {
				return b.post("/api/basket/set", map[string]any{"token": u.IDToken, "sku": p.SKU, "quantity": units(p, n) + 2*p.PackSize})
			}, nil},
			{"shoppingCartSmall", "POST /api/shoppingCartSmall", "the header's basket", func() answer { return b.post("/api/shoppingCartSmall", u.tok) }, nil},
			{"basket", "POST /api/basket", "the basket page", func() answer { return b.post("/api/basket", u.tok) }, nil},
			{"recommended", "POST /api/recommended", "from the basket's categories", func() answer { return b.post("/api/recommended", u.tok) }, nil},
			{"basketRemove", "POST /api/basket/remove", "remove a line (put back, not counted)", func() answer {
				return b.post("/api/basket/remove", map[string]any{"token": u.IDToken, "sku": p.SKU})
			}, func(answer) error {
				return b.st.AddLines(b.ctx, u.UID, []basket.Add{{SKU: p.SKU, Quantity: units(p, n), Limit: basket.LineLimit(p, time.Now())}}, time.Now())
			}},
			{"orders", "POST /api/orders", "place the n-line order, with the coupon", func() answer {
				return b.post("/api/orders", map[string]any{"token": u.IDToken, "idempotency_key": fmt.Sprintf("bench-growth-%04d", n),
					"delivery_option": "standard", "same_as_billing": true})
			}, func(a answer) error {
				var o struct{ ID string }
				if err := a.json(&o); err != nil || o.ID == "" {
					return fmt.Errorf("no order in %s", a.body)
				}
				orderID = o.ID
				return nil
			}},
			{"reorder", "POST /api/orders/{id}/reorder", "Order again: the n lines into the emptied basket", func() answer {
				return b.post("/api/orders/"+orderID+"/reorder", u.tok)
			}, nil},
		}
		for _, s := range steps {
			row, a, err := b.count(s.endpoint, s.route, s.what, s.request)
			if err != nil {
				return rows, fmt.Errorf("%d lines: %w", n, err)
			}
			if s.after != nil {
				if err := s.after(a); err != nil {
					return rows, fmt.Errorf("%d lines, %s: %w", n, s.route, err)
				}
			}
			rows = append(rows, GrowthRow{Endpoint: s.endpoint, What: s.what, Lines: n, Categories: b.categories(n), Count: row.Count})
		}
	}
	return rows, nil
}
