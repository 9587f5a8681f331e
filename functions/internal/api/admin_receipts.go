package api

import (
	"context"
	"fmt"
	"net/http"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/receiving"
)

// Receiving deliveries of forward products (docs/forward-orders.md "Receiving and
// allocation"): the answers count packs, with each SKU's pack size; requests send units.

// receiptLineAnswer is one SKU of a delivery.
type receiptLineAnswer struct {
	SKU      string `json:"sku"`
	Name     string `json:"name"`
	PackSize int    `json:"pack_size"`
	Received int    `json:"received"` // packs
	Released int    `json:"released"` // packs allocated so far (applying, applied) or proposed (recorded)
	Leftover int    `json:"leftover"` // packs to stock
}

// proposalRowAnswer is one open forward line of a proposal.
type proposalRowAnswer struct {
	OrderID      string     `json:"order_id"`
	LineSK       string     `json:"line_sk"`
	UID          string     `json:"uid"`
	Email        string     `json:"email"`
	Company      string     `json:"company"`
	PlacedAt     unixMillis `json:"placed_at"`
	Want         int        `json:"want"`     // packs still open
	Proposed     int        `json:"proposed"` // packs the rule gives it
	Short        int        `json:"short"`    // packs it will still lack
	NoBackorders bool       `json:"no_backorders"`
}

// proposalSKUAnswer is the proposal for one SKU.
type proposalSKUAnswer struct {
	receiptLineAnswer
	Rows []proposalRowAnswer `json:"rows"`
}

// releaseLineAnswer is what applying did to one forward line (packs).
type releaseLineAnswer struct {
	SKU         string `json:"sku"`
	PackSize    int    `json:"pack_size"`
	Planned     int    `json:"planned"`
	Released    int    `json:"released"`
	Cancelled   int    `json:"cancelled"`
	Backordered int    `json:"backordered"`
}

// releaseAnswer is one forward order of an applying or applied delivery: its release
// order ("" when nothing ships) and, once done, what it got.
type releaseAnswer struct {
	ForwardOrderID string              `json:"forward_order_id"`
	UID            string              `json:"uid"`
	ReleaseID      string              `json:"release_id"`
	Done           bool                `json:"done"`
	Lines          []releaseLineAnswer `json:"lines"`
}

// adminReceiptPage is one delivery: recorded, it carries the proposal by the shop's rule;
// applying or applied, its plan's forward orders with what each got.
type adminReceiptPage struct {
	ID        string              `json:"id"`
	State     string              `json:"state"`
	CreatedAt unixMillis          `json:"created_at"`
	By        string              `json:"by"`
	Rule      string              `json:"rule"`
	AppliedBy string              `json:"applied_by"`
	AppliedAt *unixMillis         `json:"applied_at"`
	Lines     []receiptLineAnswer `json:"lines"`
	Proposal  []proposalSKUAnswer `json:"proposal"`
	Releases  []releaseAnswer     `json:"releases"`
	Released  int                 `json:"released"` // packs, all SKUs
	Leftover  int                 `json:"leftover"` // packs to stock, all SKUs
	MaxLines  int                 `json:"max_lines"`
}

// receiptSummary is a delivery in the list.
type receiptSummary struct {
	ID        string     `json:"id"`
	State     string     `json:"state"`
	CreatedAt unixMillis `json:"created_at"`
	By        string     `json:"by"`
	SKUs      int        `json:"skus"`
	Received  int        `json:"received"` // packs, all SKUs
}

// adminReceiptsPage is every delivery, newest first.
type adminReceiptsPage struct {
	Receipts []receiptSummary `json:"receipts"`
	Rule     string           `json:"rule"`
}

func receiptPageOf(r receiving.Receipt, p *receiving.Proposal, rule string) adminReceiptPage {
	out := adminReceiptPage{ID: r.ID, State: r.State, CreatedAt: unixMillisOf(r.CreatedAt), By: r.By, Rule: r.Rule, AppliedBy: r.AppliedBy,
		Lines: []receiptLineAnswer{}, Proposal: []proposalSKUAnswer{}, Releases: []releaseAnswer{}, MaxLines: receiving.MaxLines}
	if out.Rule == "" {
		out.Rule = rule
	}
	if !r.AppliedAt.IsZero() {
		at := unixMillisOf(r.AppliedAt)
		out.AppliedAt = &at
	}
	packSize := map[string]int{}
	for _, l := range r.Lines {
		packSize[l.SKU] = l.PackSize
	}
	if p != nil {
		for _, sp := range p.SKUs {
			pack := sp.PackSize
			a := proposalSKUAnswer{receiptLineAnswer: receiptLineAnswer{SKU: sp.SKU, Name: sp.Name, PackSize: pack, Received: packsOf(sp.Units, pack),
				Released: packsOf(sp.Allocated, pack), Leftover: packsOf(sp.Leftover, pack)}, Rows: []proposalRowAnswer{}}
			for _, row := range sp.Rows {
				a.Rows = append(a.Rows, proposalRowAnswer{OrderID: row.OrderID, LineSK: row.LineSK, UID: row.UID, Email: row.Email, Company: row.Company,
					PlacedAt: unixMillisOf(row.PlacedAt), Want: packsOf(row.Want, pack), Proposed: packsOf(row.Proposed, pack),
					Short: packsOf(row.Short(), pack), NoBackorders: row.NoBackorders})
			}
			out.Proposal = append(out.Proposal, a)
			out.Lines = append(out.Lines, a.receiptLineAnswer)
			out.Released += a.Released
			out.Leftover += a.Leftover
		}
	} else {
		for _, l := range r.Lines {
			a := receiptLineAnswer{SKU: l.SKU, Name: l.Name, PackSize: l.PackSize, Received: packsOf(l.Units, l.PackSize),
				Released: packsOf(r.Allocated[l.SKU], l.PackSize), Leftover: packsOf(l.Units-r.Allocated[l.SKU], l.PackSize)}
			out.Lines = append(out.Lines, a)
			out.Released += a.Released
			out.Leftover += a.Leftover
		}
	}
	for _, po := range r.Plan {
		ra := releaseAnswer{ForwardOrderID: po.OrderID, UID: po.UID, ReleaseID: po.ReleaseID, Done: r.IsDone(po.OrderID), Lines: []releaseLineAnswer{}}
		if oc, ok := r.Outcomes[po.OrderID]; ok {
			ra.ReleaseID = oc.ReleaseID
			for _, l := range oc.Lines {
				pack := packSize[l.SKU]
				ra.Lines = append(ra.Lines, releaseLineAnswer{SKU: l.SKU, PackSize: pack, Planned: packsOf(l.Planned, pack), Released: packsOf(l.Allocated, pack),
					Cancelled: packsOf(l.Cancelled, pack), Backordered: packsOf(l.Backordered, pack)})
			}
		} else {
			for _, l := range po.Lines {
				pack := packSize[l.SKU]
				ra.Lines = append(ra.Lines, releaseLineAnswer{SKU: l.SKU, PackSize: pack, Planned: packsOf(l.Units, pack)})
			}
		}
		out.Releases = append(out.Releases, ra)
	}
	return out
}

// receiptAnswerOf is r's page, with the proposal while it is recorded.
func receiptAnswerOf(ctx context.Context, svc receiving.Service, r receiving.Receipt) (adminReceiptPage, error) {
	if r.State != receiving.StateRecorded {
		return receiptPageOf(r, nil, svc.Rule()), nil
	}
	p, err := svc.Propose(ctx, r)
	if err != nil {
		return adminReceiptPage{}, err
	}
	return receiptPageOf(r, &p, svc.Rule()), nil
}

// handleAdminReceipts answers GET /api/admin/receipts: every delivery, newest first.
func handleAdminReceipts(g staffGate, svc receiving.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		all, err := svc.List(r.Context())
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		out := adminReceiptsPage{Receipts: []receiptSummary{}, Rule: svc.Rule()}
		for _, rc := range all {
			s := receiptSummary{ID: rc.ID, State: rc.State, CreatedAt: unixMillisOf(rc.CreatedAt), By: rc.By, SKUs: len(rc.Lines)}
			for _, l := range rc.Lines {
				s.Received += packsOf(l.Units, l.PackSize)
			}
			out.Receipts = append(out.Receipts, s)
		}
		encode(w, http.StatusOK, out)
	})
}

// handleAdminReceipt answers GET /api/admin/receipts/{id}: the delivery with its
// proposal (recorded) or what applying it released (applying, applied).
func handleAdminReceipt(g staffGate, svc receiving.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		rc, err := svc.Read(r.Context(), r.PathValue("id"))
		writeReceipt(w, r, g, svc, rc, err, http.StatusOK)
	})
}

// receiptLineRequest is one line of a delivery: units received (whole packs).
type receiptLineRequest struct {
	SKU   string `json:"sku"`
	Units int    `json:"units"`
}

// receiptRequest is POST /api/admin/receipts.
type receiptRequest struct {
	Token string               `json:"token"`
	Lines []receiptLineRequest `json:"lines"`
}

func (q receiptRequest) idToken() string { return q.Token }

// Valid checks the shape; the catalogue's checks (a forward product, whole packs) are
// receiving.Service.Record's.
func (q receiptRequest) Valid(context.Context) map[string]string {
	if len(q.Lines) > receiving.MaxLines {
		return map[string]string{"lines": fmt.Sprintf("A delivery holds at most %d SKUs: record the rest as a second delivery.", receiving.MaxLines)}
	}
	return nil
}

// handleAdminReceiptRecord answers POST /api/admin/receipts: the delivery recorded, with
// its proposal (201); 400 naming each line that is not whole packs of a forward product.
func handleAdminReceiptRecord(g staffGate, svc receiving.Service) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req receiptRequest) {
		lines := make([]receiving.LineRequest, len(req.Lines))
		for i, l := range req.Lines {
			lines[i] = receiving.LineRequest{SKU: l.SKU, Units: l.Units}
		}
		rc, err := svc.Record(r.Context(), lines, by)
		writeReceipt(w, r, g, svc, rc, err, http.StatusCreated)
	})
}

// allocationRequest is staff's units for one forward line.
type allocationRequest struct {
	SKU    string `json:"sku"`
	LineSK string `json:"line_sk"`
	Units  int    `json:"units"`
}

// applyRequest is POST /api/admin/receipts/{id}/apply.
type applyRequest struct {
	Token       string              `json:"token"`
	Allocations []allocationRequest `json:"allocations"`
}

func (q applyRequest) idToken() string { return q.Token }

func (q applyRequest) Valid(context.Context) map[string]string { return nil }

// handleAdminReceiptApply answers POST /api/admin/receipts/{id}/apply: the delivery
// applied (staff's allocations over the proposal; 400 saying what is wrong), or, for one
// applying or applied already, finished with its own plan: a retry never allocates twice.
func handleAdminReceiptApply(g staffGate, svc receiving.Service) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req applyRequest) {
		adjust := make([]receiving.Adjustment, len(req.Allocations))
		for i, a := range req.Allocations {
			adjust[i] = receiving.Adjustment{SKU: a.SKU, LineSK: a.LineSK, Units: a.Units}
		}
		rc, err := svc.Apply(r.Context(), r.PathValue("id"), adjust, by)
		writeReceipt(w, r, g, svc, rc, err, http.StatusOK)
	})
}

// writeReceipt answers receipt rc as its page with status, or err (the read, record or
// apply that made it failed), or the error of making its page.
func writeReceipt(w http.ResponseWriter, r *http.Request, g staffGate, svc receiving.Service, rc receiving.Receipt, err error, status int) {
	if err == nil {
		var page adminReceiptPage
		if page, err = receiptAnswerOf(r.Context(), svc, rc); err == nil {
			encode(w, status, page)
			return
		}
	}
	writeError(w, r, g.Log, err)
}

// receivingService is the receiving service over d's store.
func receivingService(d Deps) receiving.Service {
	svc := receiving.Service{Store: d.Store, Shop: d.Shop, Now: d.Now, Placed: d.Notify, Restock: AlertsOf(d)}
	if n, ok := d.Notify.(receiving.Notifier); ok {
		svc.Notify = n
	}
	return svc
}
