package receiving

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
)

// A receipt's states: recorded (its proposal still follows the open lines), applying
// (its plan is fixed and being carried out) and applied (done: the leftover is in stock).
const (
	StateRecorded = "recorded"
	StateApplying = "applying"
	StateApplied  = "applied"
)

// MaxLines is the most SKUs one receipt may hold: applying allocates one forward order
// in one transaction, which holds one item per line of it, and a transaction holds at
// most 100 items.
const MaxLines = 90

// Line is one SKU of a delivery: Units received, whole packs of PackSize.
type Line struct {
	SKU      string
	Name     string
	PackSize int
	Units    int
}

// PlanLine is what the plan gives one forward line (LineSK in the FWD#{sku} partition).
type PlanLine struct {
	SKU    string
	LineSK string
	Units  int
}

// PlanOrder is the plan for one forward order: its lines and the number its release
// order will have (taken before anything is allocated, so a re-run uses the same one).
type PlanOrder struct {
	OrderID   string
	UID       string
	ReleaseID string
	Lines     []PlanLine
}

// OutcomeLine is what applying did to one forward line: Allocated units released,
// Cancelled units cancelled (a buyer who chose no backorders), Backordered units still
// open after it.
type OutcomeLine struct {
	SKU         string
	Planned     int
	Allocated   int
	Cancelled   int
	Backordered int
}

// Outcome is what applying did to one forward order; ReleaseID is "" when nothing shipped.
type Outcome struct {
	OrderID   string
	ReleaseID string
	Lines     []OutcomeLine
}

// Receipt is a delivery as recorded, with its plan and what applying it did.
type Receipt struct {
	ID        string
	State     string
	CreatedAt time.Time
	By        string // the email of the member of staff who recorded it
	Lines     []Line
	// Set when applying starts.
	Rule      string
	Plan      []PlanOrder
	AppliedBy string
	StartedAt time.Time
	// Done are the forward orders allocated so far; Allocated the units allocated so far
	// by SKU; Outcomes what each allocation did, by forward order.
	Done      []string
	Allocated map[string]int
	Outcomes  map[string]Outcome
	AppliedAt time.Time
}

// IsDone says the forward order's allocation of this receipt is written.
func (r Receipt) IsDone(orderID string) bool { return slices.Contains(r.Done, orderID) }

// Received is the units of sku the receipt holds (0 for a SKU it does not).
func (r Receipt) Received(sku string) int {
	for _, l := range r.Lines {
		if l.SKU == sku {
			return l.Units
		}
	}
	return 0
}

// Leftover is what goes to stock of each SKU: received less allocated.
func (r Receipt) Leftover() map[string]int {
	out := make(map[string]int, len(r.Lines))
	for _, l := range r.Lines {
		out[l.SKU] = l.Units - r.Allocated[l.SKU]
	}
	return out
}

// Step is one forward order's allocation, written in one transaction: each line's units
// moved (open to allocated, and for no backorders the rest of open to cancelled, on
// condition open is still what was read), the release order with its to-invoice marker,
// what it adds to the account's owed (on account), the email, and on the receipt the
// order marked done (on condition it was not) with its units counted.
type Step struct {
	ReceiptID string
	Forward   orders.Order
	Release   *orders.Order
	Lines     []StepLine
	Owe       int64
	Email     *outbox.Message
	Outcome   Outcome
	At        time.Time
}

// StepLine moves Units of a forward line from open to allocated and Cancel from open to
// cancelled; OpenWas is its open as read (the condition when Cancel > 0).
type StepLine struct {
	SKU     string
	LineSK  string
	Units   int
	Cancel  int
	OpenWas int
}

// Store is what receiving needs of the store. A write that loses a race (a condition
// failed) answers an *orders.Refused.
type Store interface {
	// ProductsBySKU reads the products of skus, by SKU; one not in the catalogue is not in
	// the answer.
	ProductsBySKU(ctx context.Context, skus []string) (map[string]catalogue.Product, error)
	// ForwardLines reads sku's forward lines, oldest first.
	ForwardLines(ctx context.Context, sku string) ([]forward.Line, error)
	// ForwardLine reads one forward line as it is now.
	ForwardLine(ctx context.Context, sku, lineSK string) (forward.Line, error)
	Order(ctx context.Context, uid, id string) (orders.Order, error)
	NextOrderNumber(ctx context.Context) (string, error)
	// CreateReceipt writes a new receipt with the next receipt number and answers it.
	CreateReceipt(ctx context.Context, r Receipt) (Receipt, error)
	// Receipt reads receipt id: a *shoperr.NotFoundError naming it when there is none.
	Receipt(ctx context.Context, id string) (Receipt, error)
	// Receipts answers every receipt, newest first.
	Receipts(ctx context.Context) ([]Receipt, error)
	// StartApply stores r's plan and moves it to applying, on condition it is recorded.
	StartApply(ctx context.Context, r Receipt) error
	// AllocateOrder writes one Step in one transaction.
	AllocateOrder(ctx context.Context, s Step) error
	// CloseReceipt adds each SKU's leftover to its stock and sets the receipt applied,
	// in one transaction, on condition it is applying.
	CloseReceipt(ctx context.Context, id string, leftover map[string]int, at time.Time) error
	orders.Invoicer
}

// Notifier makes the allocation email to a forward order's buyer (package mail).
type Notifier interface {
	Allocated(a Allocation) outbox.Message
}

// Allocation is what one receipt did to one forward order, for its email.
type Allocation struct {
	ID        string // the outbox id
	ReceiptID string
	Forward   orders.Order
	ReleaseID string
	Lines     []AllocatedLine
}

// AllocatedLine is one forward line after the allocation: Now and CancelledNow are this
// delivery's, the rest the line's totals (units).
type AllocatedLine struct {
	SKU          string
	Name         string
	PackSize     int
	Ordered      int
	Allocated    int
	Now          int
	Backordered  int
	Cancelled    int
	CancelledNow int
}

// Service records receipts, proposes their allocation and applies it.
type Service struct {
	Store  Store
	Shop   config.Shop
	Now    func() time.Time
	Notify Notifier // nil: no allocation emails
	// Placed makes a release order's own emails, written with its invoice as for any
	// order (the confirmation with how to pay, the shop's new-order notice); nil: none.
	Placed orders.Notifier
	// Restock is told the SKUs whose stock a receipt's leftover raised (the back-in-stock
	// alerts, docs/alerts.md); nil for none.
	Restock orders.Restocker
}

// Rule is the shop's allocation rule.
func (s Service) Rule() string {
	if s.Shop.ForwardAllocation == forward.RuleFirstCome {
		return forward.RuleFirstCome
	}
	return forward.RuleProRata
}

// LineRequest is one line of a delivery as staff enter it.
type LineRequest struct {
	SKU   string
	Units int
}

// Record writes a delivery's receipt after checking each line: a forward product of
// the catalogue, whole packs, each SKU once, at most MaxLines. Problems are a
// *shoperr.FieldsError naming each line ("lines.2.units").
func (s Service) Record(ctx context.Context, lines []LineRequest, by orders.Staff) (Receipt, error) {
	problems := map[string]string{}
	switch {
	case len(lines) == 0:
		problems["lines"] = "Enter at least one line: a SKU and the units received."
	case len(lines) > MaxLines:
		problems["lines"] = fmt.Sprintf("A delivery holds at most %d SKUs: record the rest as a second delivery.", MaxLines)
	}
	if len(problems) > 0 {
		return Receipt{}, &shoperr.FieldsError{Problems: problems}
	}
	skus := make([]string, 0, len(lines))
	for _, l := range lines {
		if l.SKU != "" {
			skus = append(skus, l.SKU)
		}
	}
	products, err := s.Store.ProductsBySKU(ctx, skus)
	if err != nil {
		return Receipt{}, err
	}
	r := Receipt{State: StateRecorded, CreatedAt: s.Now(), By: by.Email}
	seen := map[string]int{}
	for i, l := range lines {
		at := fmt.Sprintf("lines.%d", i)
		if l.SKU == "" {
			problems[at+".sku"] = fmt.Sprintf("Line %d: enter the SKU.", i+1)
			continue
		}
		if j, dup := seen[l.SKU]; dup {
			problems[at+".sku"] = fmt.Sprintf("Line %d: %s is on line %d already; put its units on one line.", i+1, l.SKU, j+1)
			continue
		}
		seen[l.SKU] = i
		p, ok := products[l.SKU]
		if !ok {
			problems[at+".sku"] = fmt.Sprintf("Line %d: there is no product %s in the catalogue.", i+1, l.SKU)
			continue
		}
		pack := max(p.PackSize, 1)
		forwardLines := p.Forward != nil
		if !forwardLines {
			// Staff may have ended the pre-order before the goods came: a product with
			// forward lines still open is received all the same.
			open, err := s.openLines(ctx, l.SKU)
			if err != nil {
				return Receipt{}, err
			}
			forwardLines = len(open) > 0
		}
		switch {
		case !forwardLines:
			problems[at+".sku"] = fmt.Sprintf("Line %d: %s is not a forward product and has no forward orders open; record its stock on its product page.", i+1, l.SKU)
		case l.Units <= 0:
			problems[at+".units"] = fmt.Sprintf("Line %d (%s): enter the units received, more than none.", i+1, l.SKU)
		case l.Units%pack != 0:
			problems[at+".units"] = fmt.Sprintf("Line %d (%s): %d units is not whole packs of %d.", i+1, l.SKU, l.Units, pack)
		default:
			r.Lines = append(r.Lines, Line{SKU: l.SKU, Name: p.Name, PackSize: pack, Units: l.Units})
		}
	}
	if len(problems) > 0 {
		return Receipt{}, &shoperr.FieldsError{Problems: problems}
	}
	return s.Store.CreateReceipt(ctx, r)
}

// Read answers receipt id: a *shoperr.NotFoundError when there is none.
func (s Service) Read(ctx context.Context, id string) (Receipt, error) {
	return s.Store.Receipt(ctx, id)
}

// List answers every receipt, newest first.
func (s Service) List(ctx context.Context) ([]Receipt, error) { return s.Store.Receipts(ctx) }

// Row is one open forward line in a proposal (units).
type Row struct {
	OrderID      string
	LineSK       string
	UID          string
	Email        string
	Company      string
	PlacedAt     time.Time
	Want         int
	Proposed     int
	NoBackorders bool
}

// Short is what the line will still lack after the proposal.
func (r Row) Short() int { return r.Want - r.Proposed }

// SKUProposal is the proposal for one SKU of a receipt.
type SKUProposal struct {
	Line
	Rows      []Row
	Allocated int
	Leftover  int
}

// Proposal is how the shop's rule would share a receipt among the open forward lines.
type Proposal struct {
	Rule      string
	SKUs      []SKUProposal
	Allocated int
	Leftover  int
}

// Propose shares each SKU of r among its open forward lines as they are now by the
// shop's rule.
func (s Service) Propose(ctx context.Context, r Receipt) (Proposal, error) {
	out := Proposal{Rule: s.Rule()}
	companies := map[string]string{}
	for _, l := range r.Lines {
		lines, err := s.openLines(ctx, l.SKU)
		if err != nil {
			return Proposal{}, err
		}
		shares := forward.Propose(out.Rule, l.Units, l.PackSize, lines)
		sp := SKUProposal{Line: l}
		for i, sh := range shares {
			fl := lines[i]
			company, ok := companies[fl.OrderID]
			if !ok {
				company = s.company(ctx, fl.UID, fl.OrderID)
				companies[fl.OrderID] = company
			}
			sp.Rows = append(sp.Rows, Row{OrderID: sh.OrderID, LineSK: sh.LineSK, UID: fl.UID, Email: fl.Email, Company: company,
				PlacedAt: fl.PlacedAt, Want: sh.Want, Proposed: sh.Units, NoBackorders: fl.NoBackorders})
			sp.Allocated += sh.Units
		}
		sp.Leftover = l.Units - sp.Allocated
		out.Allocated += sp.Allocated
		out.Leftover += sp.Leftover
		out.SKUs = append(out.SKUs, sp)
	}
	return out, nil
}

// openLines are sku's forward lines with whole packs open, oldest first (the order
// Propose answers its shares in).
func (s Service) openLines(ctx context.Context, sku string) ([]forward.Line, error) {
	all, err := s.Store.ForwardLines(ctx, sku)
	if err != nil {
		return nil, err
	}
	var out []forward.Line
	for _, l := range all {
		if l.Open >= max(l.PackSize, 1) {
			out = append(out, l)
		}
	}
	forward.SortOldestFirst(out)
	return out, nil
}

// company is the buyer's company on forward order id ("" when it cannot be read: the
// proposal still stands without it).
func (s Service) company(ctx context.Context, uid, id string) string {
	o, err := s.Store.Order(ctx, uid, id)
	if err != nil || o.Billing == nil {
		return ""
	}
	return o.Billing.Company
}

// Adjustment is staff's units for one forward line, replacing the proposal's.
type Adjustment struct {
	SKU    string
	LineSK string
	Units  int
}

// Apply applies receipt id: the proposal with staff's adjustments (lines they do not
// name keep the proposal's units) when it is still recorded, then every step not done.
// A receipt applying or applied already is finished with its own plan, whatever is
// asked: so a retry, a second member of staff or the sweep never allocates twice.
func (s Service) Apply(ctx context.Context, id string, adjust []Adjustment, by orders.Staff) (Receipt, error) {
	r, err := s.Read(ctx, id)
	if err != nil {
		return Receipt{}, err
	}
	if r.State == StateRecorded {
		plan, err := s.plan(ctx, r, adjust)
		if err != nil {
			return Receipt{}, err
		}
		r.Plan, r.Rule, r.AppliedBy, r.StartedAt, r.State = plan, s.Rule(), by.Email, s.Now(), StateApplying
		if err := s.Store.StartApply(ctx, r); err != nil {
			var refused *orders.Refused
			if !errors.As(err, &refused) {
				return Receipt{}, err
			}
			// Another member of staff started it first: theirs is the plan.
		}
	}
	return s.Finish(ctx, id)
}

// plan checks staff's adjustments against the proposal and answers the plan, with a
// release order number for each forward order that gets units.
func (s Service) plan(ctx context.Context, r Receipt, adjust []Adjustment) ([]PlanOrder, error) {
	prop, err := s.Propose(ctx, r)
	if err != nil {
		return nil, err
	}
	type at struct{ sku, lineSK string }
	rows := map[at]*Row{}
	packs := map[string]int{}
	for i := range prop.SKUs {
		sp := &prop.SKUs[i]
		packs[sp.SKU] = sp.PackSize
		for j := range sp.Rows {
			rows[at{sp.SKU, sp.Rows[j].LineSK}] = &sp.Rows[j]
		}
	}
	problems := map[string]string{}
	seen := map[at]bool{}
	for i, a := range adjust {
		key := fmt.Sprintf("allocations.%d", i)
		pack, ok := packs[a.SKU]
		if !ok {
			problems[key+".sku"] = fmt.Sprintf("Allocation %d: %s is not on this delivery.", i+1, a.SKU)
			continue
		}
		row := rows[at{a.SKU, a.LineSK}]
		switch {
		case row == nil:
			problems[key+".line_sk"] = fmt.Sprintf("Allocation %d (%s): that forward line is not open any more; reload the proposal.", i+1, a.SKU)
		case seen[at{a.SKU, a.LineSK}]:
			problems[key+".line_sk"] = fmt.Sprintf("Allocation %d (%s, order %s): the line is named twice.", i+1, a.SKU, row.OrderID)
		case a.Units < 0 || a.Units%pack != 0:
			problems[key+".units"] = fmt.Sprintf("Allocation %d (%s, order %s): %d units is not whole packs of %d.", i+1, a.SKU, row.OrderID, a.Units, pack)
		case a.Units > row.Want:
			problems[key+".units"] = fmt.Sprintf("Allocation %d (%s, order %s): %d packs is more than the %d packs the order still wants.", i+1, a.SKU, row.OrderID, a.Units/pack, row.Want/pack)
		default:
			row.Proposed = a.Units
		}
		seen[at{a.SKU, a.LineSK}] = true
	}
	byOrder := map[string]*PlanOrder{}
	var order []string
	for i, sp := range prop.SKUs {
		sum := 0
		for _, row := range sp.Rows {
			sum += row.Proposed
			p := byOrder[row.OrderID]
			if p == nil {
				p = &PlanOrder{OrderID: row.OrderID, UID: row.UID}
				byOrder[row.OrderID] = p
				order = append(order, row.OrderID)
			}
			p.Lines = append(p.Lines, PlanLine{SKU: sp.SKU, LineSK: row.LineSK, Units: row.Proposed})
		}
		if sum > sp.Units {
			problems[fmt.Sprintf("lines.%d.units", i)] = fmt.Sprintf("%s: %d packs are allocated but %d were received.", sp.SKU, sum/sp.PackSize, sp.Units/sp.PackSize)
		}
	}
	if len(problems) > 0 {
		return nil, &shoperr.FieldsError{Problems: problems}
	}
	out := make([]PlanOrder, 0, len(order))
	for _, id := range order {
		p := *byOrder[id]
		units := 0
		for _, l := range p.Lines {
			units += l.Units
		}
		if units > 0 {
			n, err := s.Store.NextOrderNumber(ctx)
			if err != nil {
				return nil, err
			}
			p.ReleaseID = n
		}
		out = append(out, p)
	}
	return out, nil
}

// stepAttempts bounds the tries of one forward order's allocation: each is lost only to
// a buyer changing a line meanwhile or another run of the same receipt.
const stepAttempts = 20

// Finish carries out the plan of a receipt being applied: every forward order not done,
// then the close. It is what Apply, a retry and the sweep all run; it answers the
// receipt as it is at the end.
func (s Service) Finish(ctx context.Context, id string) (Receipt, error) {
	r, err := s.Read(ctx, id)
	if err != nil {
		return Receipt{}, err
	}
	if r.State != StateApplying {
		return r, nil
	}
	for _, p := range r.Plan {
		if r.IsDone(p.OrderID) {
			continue
		}
		if err := s.allocate(ctx, r, p); err != nil {
			return Receipt{}, fmt.Errorf("allocate %s of %s: %w", p.OrderID, id, err)
		}
	}
	if r, err = s.Read(ctx, id); err != nil || r.State != StateApplying {
		return r, err
	}
	for _, p := range r.Plan {
		if !r.IsDone(p.OrderID) {
			return Receipt{}, fmt.Errorf("receipt %s: order %s is not allocated after its step", id, p.OrderID)
		}
	}
	leftover := r.Leftover()
	if err := s.Store.CloseReceipt(ctx, id, leftover, s.Now()); err != nil {
		var refused *orders.Refused
		if !errors.As(err, &refused) {
			return Receipt{}, err
		}
		// Closed by another run meanwhile: read below.
	}
	if r, err = s.Read(ctx, id); err != nil {
		return Receipt{}, err
	}
	if s.Restock != nil {
		var skus []string
		for _, l := range r.Lines {
			if leftover[l.SKU] > 0 {
				skus = append(skus, l.SKU)
			}
		}
		s.Restock.Restocked(ctx, skus)
	}
	return r, nil
}

// allocate writes p's step, reading its lines again after each race lost: a buyer who
// reduced or cancelled a line meanwhile gets at most what is still open.
func (s Service) allocate(ctx context.Context, r Receipt, p PlanOrder) error {
	for attempt := 0; attempt < stepAttempts; attempt++ {
		st, err := s.step(ctx, r, p)
		if err != nil {
			return err
		}
		err = s.Store.AllocateOrder(ctx, st)
		if err == nil {
			if st.Release != nil {
				// The release stands whether or not this works: its to-invoice marker
				// has the sweep issue it otherwise.
				_, _ = s.Store.IssueInvoice(ctx, *st.Release, s.newInvoice, s.placedNotices())
			}
			return nil
		}
		var refused *orders.Refused
		if !errors.As(err, &refused) {
			return err
		}
		now, rerr := s.Read(ctx, r.ID)
		if rerr != nil {
			return rerr
		}
		if now.IsDone(p.OrderID) || now.State != StateApplying {
			return nil // another run wrote it
		}
		time.Sleep(time.Duration(5*(attempt+1)) * time.Millisecond)
	}
	return &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s kept changing while its allocation was applied: apply the delivery again to finish it.", p.OrderID)}
}

// placedNotices are the release's emails written with its invoice (as the invoice sweep
// writes them when it issues it instead).
func (s Service) placedNotices() func(o orders.Order) []outbox.Message {
	if s.Placed == nil {
		return nil
	}
	return s.Placed.Placed
}

func (s Service) newInvoice(o orders.Order, n int64) orders.Invoice {
	return orders.NewInvoice(o, s.Shop, n, s.Now())
}

// step builds p's allocation from its lines as they are now: each line gets
// min(planned, open) in whole packs; a buyer's line with no backorders has the rest of
// its open cancelled.
func (s Service) step(ctx context.Context, r Receipt, p PlanOrder) (Step, error) {
	fo, err := s.Store.Order(ctx, p.UID, p.OrderID)
	if err != nil {
		return Step{}, err
	}
	now := s.Now()
	st := Step{ReceiptID: r.ID, Forward: fo, At: now, Outcome: Outcome{OrderID: p.OrderID}}
	var mailLines []AllocatedLine
	var released []orders.Line
	stillOpen := false // a line was open as read: a buyer who cancelled everything meanwhile gets no email
	for _, pl := range p.Lines {
		l, err := s.Store.ForwardLine(ctx, pl.SKU, pl.LineSK)
		if err != nil {
			return Step{}, err
		}
		pack := max(l.PackSize, 1)
		stillOpen = stillOpen || l.Open > 0
		n := min(pl.Units, l.Open) / pack * pack
		cancel := 0
		if l.NoBackorders {
			cancel = l.Open - n
		}
		st.Lines = append(st.Lines, StepLine{SKU: pl.SKU, LineSK: pl.LineSK, Units: n, Cancel: cancel, OpenWas: l.Open})
		st.Outcome.Lines = append(st.Outcome.Lines, OutcomeLine{SKU: pl.SKU, Planned: pl.Units, Allocated: n, Cancelled: cancel, Backordered: l.Open - n - cancel})
		mailLines = append(mailLines, AllocatedLine{SKU: pl.SKU, Name: l.Name, PackSize: pack, Ordered: l.Ordered, Allocated: l.Allocated + n, Now: n,
			Backordered: l.Open - n - cancel, Cancelled: l.Cancelled + cancel, CancelledNow: cancel})
		if n > 0 {
			released = append(released, releaseLine(fo, l, n, s.Shop.DefaultVATRate))
		}
	}
	if len(released) > 0 {
		rel := release(fo, p.ReleaseID, r.ID, released, now)
		st.Release = &rel
		st.Outcome.ReleaseID = rel.ID
		if !rel.ProForma() {
			st.Owe = rel.TotalIncVAT
		}
	}
	if s.Notify != nil && fo.Email != "" && stillOpen {
		id := st.Outcome.ReleaseID + "/allocation"
		if st.Release == nil {
			id = fo.ID + "/allocation/" + r.ID // nothing ships: no release to name it by
		}
		m := s.Notify.Allocated(Allocation{ID: id, ReceiptID: r.ID, Forward: fo, ReleaseID: st.Outcome.ReleaseID, Lines: mailLines})
		st.Email = &m
	}
	return st, nil
}

// releaseLine is forward line l's n units as a line of its release: the forward order's
// line of the SKU at its unit price and VAT rate (l's unit price and the shop's rate if
// the order has none, which placing never leaves), VAT on the line as pricing takes it.
func releaseLine(fo orders.Order, l forward.Line, n int, defaultRate int) orders.Line {
	out := orders.Line{SKU: l.SKU, Name: l.Name, PackSize: l.PackSize, UnitPrice: l.UnitPrice, ListPrice: l.UnitPrice,
		BasePrice: l.UnitPrice, BreakPrice: l.UnitPrice, VATRate: defaultRate}
	for _, ol := range fo.Lines {
		if ol.SKU == l.SKU {
			out = ol
			break
		}
	}
	out.DeliveryFrom = ""
	out.Quantity = n
	out.LineAmount = int64(n) * out.UnitPrice
	out.VAT = pricing.RoundPercent(out.LineAmount, out.VATRate)
	return out
}

// release is the ordinary order that ships lines of forward order fo: placed now, billed
// and delivered as fo, no delivery charge (forward deliveries are carriage paid).
func release(fo orders.Order, id, receiptID string, lines []orders.Line, now time.Time) orders.Order {
	o := orders.Order{ID: id, UID: fo.UID, PlacedAt: now, Lines: lines, DeliveryOption: fo.DeliveryOption, Status: orders.StatusPlaced,
		DeliveryNote: fo.DeliveryNote, Email: fo.Email, Version: 1, ForwardOf: fo.ID, Receipt: receiptID}
	if fo.Billing != nil {
		b := *fo.Billing
		o.Billing = &b
	}
	if fo.DeliverTo != nil {
		a := *fo.DeliverTo
		o.DeliverTo = &a
	}
	for _, l := range lines {
		o.GoodsExVAT += l.LineAmount
		o.VAT += l.VAT
	}
	o.NetExVAT = o.GoodsExVAT
	o.TotalIncVAT = o.NetExVAT + o.VAT
	return o
}

// SweepAfter is how long a receipt may be applying before the sweep finishes it: a
// request applying one ends well within it.
const SweepAfter = time.Minute

// Sweep finishes every receipt left applying for longer than after (its request died
// part-way: a crash, a timeout). It answers how many it finished.
func (s Service) Sweep(ctx context.Context, after time.Duration) (int, error) {
	all, err := s.Store.Receipts(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, r := range all {
		if r.State != StateApplying || r.StartedAt.After(s.Now().Add(-after)) {
			continue
		}
		if _, err := s.Finish(ctx, r.ID); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}
