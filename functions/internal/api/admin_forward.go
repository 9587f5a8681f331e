package api

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/demand"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/stock"
)

// adminForwardAnswer is a product's forward marking as staff see it (docs/forward-orders.md
// "Marking a product forward"): the buyers' fields and the units expected from the
// supplier (0: not known).
type adminForwardAnswer struct {
	DeliveryFrom string `json:"delivery_from"`
	OrderBy      string `json:"order_by"`
	Expected     int    `json:"expected"`
}

// adminForwardOf is f as staff see it; nil for an ordinary product.
func adminForwardOf(f *catalogue.Forward) *adminForwardAnswer {
	if f == nil {
		return nil
	}
	return &adminForwardAnswer{DeliveryFrom: f.DeliveryFrom, OrderBy: f.OrderBy, Expected: f.Expected}
}

// forwardRequest is POST /api/admin/products/{sku}/forward: the marking to set, or Clear
// to end it (the other fields are then not read).
type forwardRequest struct {
	Token        string `json:"token"`
	DeliveryFrom string `json:"delivery_from"`
	OrderBy      string `json:"order_by"`
	Expected     int    `json:"expected"`
	Clear        bool   `json:"clear"`
}

func (f forwardRequest) idToken() string { return f.Token }

func (f forwardRequest) forward() *catalogue.Forward {
	if f.Clear {
		return nil
	}
	return &catalogue.Forward{DeliveryFrom: f.DeliveryFrom, OrderBy: f.OrderBy, Expected: f.Expected}
}

func (f forwardRequest) Valid(context.Context) map[string]string {
	if f.Clear {
		return nil
	}
	return stock.ForwardProblems(*f.forward())
}

// handleAdminForward answers POST /api/admin/products/{sku}/forward: the product marked
// forward (or its marking ended), with an entry in its audit trail; 400 naming each field
// that is wrong (stock.ForwardProblems).
func handleAdminForward(g staffGate, stocks stock.Service) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req forwardRequest) {
		rec, err := stocks.MarkForward(r.Context(), r.PathValue("sku"), req.forward(), by)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, productPageOf(rec))
	})
}

// forwardUnits are units (or packs) of a product's forward lines in each bucket: open is
// what is still on order, backordered the part of it a delivery came short of.
type forwardUnits struct {
	Ordered     int `json:"ordered"`
	Open        int `json:"open"`
	Allocated   int `json:"allocated"`
	Backordered int `json:"backordered"`
	Cancelled   int `json:"cancelled"`
}

func forwardUnitsOf(u demand.Units) forwardUnits {
	return forwardUnits{Ordered: u.Ordered, Open: u.Open, Allocated: u.Allocated, Backordered: u.Backordered, Cancelled: u.Cancelled}
}

// demandAccountAnswer is one account's lines of a forward product, summed.
type demandAccountAnswer struct {
	UID     string       `json:"uid"`
	Company string       `json:"company"`
	Email   string       `json:"email"`
	Orders  int          `json:"orders"`
	Units   forwardUnits `json:"units"`
	Packs   forwardUnits `json:"packs"`
}

// demandProductAnswer is one forward product's demand (docs/forward-orders.md "Demand"):
// forward is null for a product whose marking has ended; received is the units deliveries
// have brought in.
type demandProductAnswer struct {
	SKU      string                `json:"sku"`
	Name     string                `json:"name"`
	PackSize int                   `json:"pack_size"`
	Forward  *adminForwardAnswer   `json:"forward"`
	Received int                   `json:"received"`
	Units    forwardUnits          `json:"units"`
	Packs    forwardUnits          `json:"packs"`
	Accounts []demandAccountAnswer `json:"accounts"`
}

// rangeRef names a range.
type rangeRef struct {
	URLText string `json:"url_text"`
	Name    string `json:"name"`
}

// demandAnswer is GET /api/admin/forward/demand's answer: one product's demand (sku set)
// or every forward product's of a range.
type demandAnswer struct {
	SKU      string                `json:"sku"`
	Range    rangeRef              `json:"range"`
	Products []demandProductAnswer `json:"products"`
}

func demandAnswerOf(r demand.Report) demandAnswer {
	out := demandAnswer{SKU: r.SKU, Range: rangeRef{URLText: r.Range.URLText, Name: r.Range.Name}, Products: make([]demandProductAnswer, len(r.Products))}
	for i, d := range r.Products {
		p := d.Product
		pa := demandProductAnswer{SKU: p.SKU, Name: p.Name, PackSize: p.PackSize, Forward: adminForwardOf(p.Forward), Received: d.Received,
			Units: forwardUnitsOf(d.Units), Packs: forwardUnitsOf(d.Units.Packs(p.PackSize)), Accounts: make([]demandAccountAnswer, len(d.Accounts))}
		for j, a := range d.Accounts {
			pa.Accounts[j] = demandAccountAnswer{UID: a.UID, Company: a.Company, Email: a.Email, Orders: a.Orders,
				Units: forwardUnitsOf(a.Units), Packs: forwardUnitsOf(a.Units.Packs(p.PackSize))}
		}
		out.Products[i] = pa
	}
	return out
}

// forwardListAnswer is GET /api/admin/forward's answer: the forward products by range.
type forwardListAnswer struct {
	Ranges []forwardRangeAnswer `json:"ranges"`
}

// forwardRangeAnswer is one range's forward products, by order-by date.
type forwardRangeAnswer struct {
	Range    rangeRef               `json:"range"`
	Products []forwardProductAnswer `json:"products"`
}

// forwardProductAnswer is a forward product as the list shows it.
type forwardProductAnswer struct {
	SKU      string             `json:"sku"`
	Name     string             `json:"name"`
	PackSize int                `json:"pack_size"`
	Forward  adminForwardAnswer `json:"forward"`
}

// handleAdminForwardList answers GET /api/admin/forward: every product marked forward,
// grouped by range.
func handleAdminForwardList(g staffGate, demands demand.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		list, err := demands.List(r.Context())
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		out := forwardListAnswer{Ranges: make([]forwardRangeAnswer, len(list))}
		for i, l := range list {
			ra := forwardRangeAnswer{Range: rangeRef{URLText: l.Range.URLText, Name: l.Range.Name}, Products: make([]forwardProductAnswer, len(l.Products))}
			for j, p := range l.Products {
				ra.Products[j] = forwardProductAnswer{SKU: p.SKU, Name: p.Name, PackSize: p.PackSize, Forward: *adminForwardOf(p.Forward)}
			}
			out.Ranges[i] = ra
		}
		encode(w, http.StatusOK, out)
	})
}

// demandReport reads the demand a request asks for: ?sku= one product, ?range= a range's
// forward products; 400 for neither or both.
func demandReport(r *http.Request, demands demand.Service) (demand.Report, error) {
	sku, rg := r.URL.Query().Get("sku"), r.URL.Query().Get("range")
	switch {
	case sku != "" && rg == "":
		return demands.ForSKU(r.Context(), strings.ToUpper(sku))
	case rg != "" && sku == "":
		return demands.ForRange(r.Context(), rg)
	}
	return demand.Report{}, invalidField("sku", "Give either a product (?sku=) or a range (?range=), not both.")
}

// handleAdminDemand answers GET /api/admin/forward/demand?sku=… or ?range=…: units
// ordered, expected, received, allocated, backordered and cancelled, in all and by account.
func handleAdminDemand(g staffGate, demands demand.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		rep, err := demandReport(r, demands)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, demandAnswerOf(rep))
	})
}

// handleAdminDemandCSV answers GET /api/admin/forward/demand.csv?sku=… or ?range=…: the
// same demand as a CSV download (demand.CSV).
func handleAdminDemandCSV(g staffGate, demands demand.Service, now func() time.Time) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		rep, err := demandReport(r, demands)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		doc, err := demand.CSV(rep)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		name := rep.Range.URLText
		if rep.SKU != "" {
			name = rep.SKU
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="forward-demand-`+strings.ToLower(name)+`-`+now().In(london).Format(time.DateOnly)+`.csv"`)
		w.Header().Set("Cache-Control", "private, no-store")
		_, _ = w.Write(doc)
	})
}
