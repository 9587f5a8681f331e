package api

import (
	"context"
	"net/http"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/stock"
	"github.com/tradeshop/functions/internal/text"
)

func productPageOf(rec stock.Record) adminProductPage {
	return adminProductPage{Product: adminProductOf(rec.Product), Audit: auditAnswers(rec.Audit)}
}

// handleAdminProduct answers GET /api/admin/products/{sku}: its stock and audit trail.
func handleAdminProduct(g staffGate, stocks stock.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		rec, err := stocks.Read(r.Context(), r.PathValue("sku"))
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, productPageOf(rec))
	})
}

// stockRequest is POST /api/admin/products/{sku}/stock.
type stockRequest struct {
	Token    string `json:"token"`
	Mode     string `json:"mode"`
	Quantity int    `json:"quantity"`
	Expected *int   `json:"expected"`
	Reason   string `json:"reason"`
}

func (s stockRequest) idToken() string { return s.Token }

func (s *stockRequest) clean() map[string]string {
	var c text.Cleaner
	c.Clean(stock.Reason, &s.Reason)
	return c.Problems
}

func (s stockRequest) change(by orders.Staff) stock.Change {
	return stock.Change{Mode: s.Mode, Quantity: s.Quantity, Expected: s.Expected, Reason: s.Reason, By: by}
}

func (s stockRequest) Valid(context.Context) map[string]string {
	return stock.Problems(s.change(orders.Staff{}))
}

// handleAdminStock answers POST /api/admin/products/{sku}/stock: the stock set (on
// condition it is still what the page showed) or adjusted by a number of units, with the
// reason in the audit trail (stock.Service.Change holds the rules); 409 when it moved or
// would go below none.
func handleAdminStock(g staffGate, stocks stock.Service) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req stockRequest) {
		rec, err := stocks.Change(r.Context(), r.PathValue("sku"), req.change(by))
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, productPageOf(rec))
	})
}
