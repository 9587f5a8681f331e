package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/receiving"
	"github.com/tradeshop/functions/internal/shoperr"
)

// Receipts of forward deliveries (docs/forward-orders.md "Receiving and allocation") are
// items of one partition (pk RECEIPT, sk the receipt id, RCV-000001 from the counter
// COUNTER#RECEIPT). Applying one writes its plan on it (state applying), then one
// transaction per forward order marks the order done on it (condition: not done yet) and
// counts the units by SKU (alloc, a map) with the order's outcome (outcomes, a map), and
// last one transaction adds each SKU's leftover to stock and sets it applied (condition:
// applying). Each condition makes its step happen once, whoever runs it.
const (
	pkReceipt        = "RECEIPT"
	pkReceiptCounter = "COUNTER#RECEIPT"
)

var _ receiving.Store = (*Store)(nil)

type receiptLineItem struct {
	SKU      string `dynamodbav:"sku"`
	Name     string `dynamodbav:"name"`
	PackSize int    `dynamodbav:"packSize"`
	Units    int    `dynamodbav:"units"`
}

type planLineItem struct {
	SKU    string `dynamodbav:"sku"`
	LineSK string `dynamodbav:"lineSk"`
	Units  int    `dynamodbav:"units"`
}

type planOrderItem struct {
	OrderID   string         `dynamodbav:"orderId"`
	UID       string         `dynamodbav:"uid"`
	ReleaseID string         `dynamodbav:"releaseId,omitempty"`
	Lines     []planLineItem `dynamodbav:"lines"`
}

type outcomeLineItem struct {
	SKU         string `dynamodbav:"sku"`
	Planned     int    `dynamodbav:"planned"`
	Allocated   int    `dynamodbav:"allocated"`
	Cancelled   int    `dynamodbav:"cancelled"`
	Backordered int    `dynamodbav:"backordered"`
}

type outcomeItem struct {
	ReleaseID string            `dynamodbav:"releaseId,omitempty"`
	Lines     []outcomeLineItem `dynamodbav:"lines"`
}

// receiptItem is a receipt as stored.
type receiptItem struct {
	PK        string            `dynamodbav:"pk"`
	SK        string            `dynamodbav:"sk"`
	State     string            `dynamodbav:"state"`
	CreatedAt int64             `dynamodbav:"createdAt"`
	By        string            `dynamodbav:"by"`
	Lines     []receiptLineItem `dynamodbav:"lines"`
	Rule      string            `dynamodbav:"rule,omitempty"`
	Plan      []planOrderItem   `dynamodbav:"plan,omitempty"`
	AppliedBy string            `dynamodbav:"appliedBy,omitempty"`
	StartedAt int64             `dynamodbav:"startedAt,omitempty"`
	Done      []string          `dynamodbav:"done,stringset,omitempty"`
	// Alloc is the units allocated by SKU; Outcomes what each forward order's step did.
	Alloc     map[string]int         `dynamodbav:"alloc,omitempty"`
	Outcomes  map[string]outcomeItem `dynamodbav:"outcomes,omitempty"`
	AppliedAt int64                  `dynamodbav:"appliedAt,omitempty"`
}

func receiptToItem(r receiving.Receipt) receiptItem {
	it := receiptItem{PK: pkReceipt, SK: r.ID, State: r.State, CreatedAt: r.CreatedAt.UnixMilli(), By: r.By, Rule: r.Rule, AppliedBy: r.AppliedBy}
	for _, l := range r.Lines {
		it.Lines = append(it.Lines, receiptLineItem(l))
	}
	for _, p := range r.Plan {
		pi := planOrderItem{OrderID: p.OrderID, UID: p.UID, ReleaseID: p.ReleaseID}
		for _, l := range p.Lines {
			pi.Lines = append(pi.Lines, planLineItem(l))
		}
		it.Plan = append(it.Plan, pi)
	}
	if !r.StartedAt.IsZero() {
		it.StartedAt = r.StartedAt.UnixMilli()
	}
	return it
}

func outcomeToItem(o receiving.Outcome) outcomeItem {
	it := outcomeItem{ReleaseID: o.ReleaseID}
	for _, l := range o.Lines {
		it.Lines = append(it.Lines, outcomeLineItem(l))
	}
	return it
}

func (it receiptItem) toReceipt() receiving.Receipt {
	r := receiving.Receipt{ID: it.SK, State: it.State, CreatedAt: timeOfMs(it.CreatedAt), By: it.By, Rule: it.Rule, AppliedBy: it.AppliedBy,
		StartedAt: timeOfMs(it.StartedAt), Done: it.Done, Allocated: map[string]int{}, Outcomes: map[string]receiving.Outcome{}, AppliedAt: timeOfMs(it.AppliedAt)}
	for _, l := range it.Lines {
		r.Lines = append(r.Lines, receiving.Line(l))
	}
	for _, p := range it.Plan {
		po := receiving.PlanOrder{OrderID: p.OrderID, UID: p.UID, ReleaseID: p.ReleaseID}
		for _, l := range p.Lines {
			po.Lines = append(po.Lines, receiving.PlanLine(l))
		}
		r.Plan = append(r.Plan, po)
	}
	for sku, n := range it.Alloc {
		r.Allocated[sku] = n
	}
	for id, o := range it.Outcomes {
		out := receiving.Outcome{OrderID: id, ReleaseID: o.ReleaseID}
		for _, l := range o.Lines {
			out.Lines = append(out.Lines, receiving.OutcomeLine(l))
		}
		r.Outcomes[id] = out
	}
	slices.Sort(r.Done)
	return r
}

func receiptKey(id string) map[string]types.AttributeValue { return key(pkReceipt, id) }

// CreateReceipt writes r as a new receipt with the next receipt number (RCV-000001, …).
func (s *Store) CreateReceipt(ctx context.Context, r receiving.Receipt) (receiving.Receipt, error) {
	n, err := s.nextNumber(ctx, pkReceiptCounter, "receipt")
	if err != nil {
		return receiving.Receipt{}, err
	}
	r.ID = fmt.Sprintf("RCV-%06d", n)
	av, err := attributevalue.MarshalMap(receiptToItem(r))
	if err != nil {
		return receiving.Receipt{}, err
	}
	if err := s.putIf(ctx, av, notThere); err != nil {
		return receiving.Receipt{}, fmt.Errorf("put receipt %s: %w", r.ID, err)
	}
	return r, nil
}

// Receipt reads receipt id (strongly consistent).
func (s *Store) Receipt(ctx context.Context, id string) (receiving.Receipt, error) {
	it, err := getItem[receiptItem](ctx, s, pkReceipt, id)
	if errors.Is(err, ErrNotFound) {
		return receiving.Receipt{}, &shoperr.NotFoundError{Msg: fmt.Sprintf("There is no delivery %s.", id)}
	}
	if err != nil {
		return receiving.Receipt{}, fmt.Errorf("receipt %s: %w", id, err)
	}
	return it.toReceipt(), nil
}

// Receipts reads every receipt, newest first.
func (s *Store) Receipts(ctx context.Context) ([]receiving.Receipt, error) {
	items, err := partition[receiptItem](ctx, s, pkReceipt)
	if err != nil {
		return nil, fmt.Errorf("receipts: %w", err)
	}
	out := make([]receiving.Receipt, len(items))
	for i, it := range items {
		out[len(items)-1-i] = it.toReceipt()
	}
	return out, nil
}

// StartApply writes r's plan, rule and start and sets it applying, on condition it is
// recorded; its allocation and outcome maps start empty.
func (s *Store) StartApply(ctx context.Context, r receiving.Receipt) error {
	it := receiptToItem(r)
	plan, err := attributevalue.Marshal(it.Plan)
	if err != nil {
		return err
	}
	state := expression.Name("state")
	upd := expression.Set(state, expression.Value(receiving.StateApplying)).
		Set(expression.Name("plan"), expression.Value(plan)).
		Set(expression.Name("rule"), expression.Value(it.Rule)).
		Set(expression.Name("appliedBy"), expression.Value(it.AppliedBy)).
		Set(expression.Name("startedAt"), expression.Value(it.StartedAt)).
		Set(expression.Name("alloc"), expression.Value(map[string]int{})).
		Set(expression.Name("outcomes"), expression.Value(map[string]outcomeItem{}))
	t := &txn{}
	if err := t.update(role{}, receiptKey(r.ID), s.table, upd, ptr(state.Equal(expression.Value(receiving.StateRecorded)))); err != nil {
		return err
	}
	return s.run(ctx, t, "")
}

// ForwardLine reads one forward line as it is now (strongly consistent).
func (s *Store) ForwardLine(ctx context.Context, sku, lineSK string) (forward.Line, error) {
	it, err := getItem[forwardLineItem](ctx, s, prefixForward+sku, lineSK)
	if err != nil {
		return forward.Line{}, fmt.Errorf("forward line %s %s: %w", sku, lineSK, err)
	}
	return it.toLine(), nil
}

// AllocateOrder writes one forward order's allocation step in one transaction (see
// receiving.Step): any condition failing (a line changed, the order done by another run,
// the receipt no longer applying) writes nothing and answers an *orders.Refused.
func (s *Store) AllocateOrder(ctx context.Context, st receiving.Step) error {
	t := &txn{}
	var errs []error
	open, allocated, cancelled, receipts := expression.Name("open"), expression.Name("allocated"), expression.Name("cancelled"), expression.Name("receipts")
	bySKU := map[string]int{}
	for _, l := range st.Lines {
		upd := expression.Add(open, expression.Value(-(l.Units+l.Cancel))).
			Add(allocated, expression.Value(l.Units)).
			Add(receipts, expression.Value(&types.AttributeValueMemberSS{Value: []string{st.ReceiptID}}))
		cond := open.GreaterThanEqual(expression.Value(l.Units))
		if l.Cancel > 0 {
			upd = upd.Add(cancelled, expression.Value(l.Cancel))
			cond = open.Equal(expression.Value(l.OpenWas))
		}
		errs = append(errs, t.update(role{}, ForwardLineKey(l.SKU, l.LineSK), s.table, upd, &cond))
		bySKU[l.SKU] += l.Units
	}
	if st.Release != nil {
		errs = append(errs, t.put(role{}, s.table, orderToItem(*st.Release), notThere), s.markToInvoice(t, *st.Release))
	}
	if st.Owe != 0 {
		errs = append(errs, s.owe(t, st.Forward.UID, st.Owe))
	}
	if st.Email != nil {
		errs = append(errs, s.putOutbox(t, *st.Email, st.At))
	}
	state, done := expression.Name("state"), expression.Name("done")
	upd := expression.Add(done, expression.Value(&types.AttributeValueMemberSS{Value: []string{st.Forward.ID}})).
		Set(expression.Name("outcomes").AppendName(expression.NameNoDotSplit(st.Forward.ID)), expression.Value(outcomeToItem(st.Outcome)))
	for _, sku := range slices.Sorted(maps.Keys(bySKU)) {
		if n := bySKU[sku]; n > 0 {
			at := expression.Name("alloc").AppendName(expression.NameNoDotSplit(sku))
			upd = upd.Set(at, expression.Plus(expression.IfNotExists(at, expression.Value(0)), expression.Value(n)))
		}
	}
	cond := state.Equal(expression.Value(receiving.StateApplying)).And(expression.Not(expression.Contains(done, st.Forward.ID)))
	errs = append(errs, t.update(role{}, receiptKey(st.ReceiptID), s.table, upd, &cond))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("build allocation of %s to %s: %w", st.ReceiptID, st.Forward.ID, err)
	}
	return s.run(ctx, t, "")
}

// CloseReceipt adds each SKU's leftover units to its product's stock and sets receipt id
// applied, in one transaction, on condition it is applying: the leftover goes to stock
// once.
func (s *Store) CloseReceipt(ctx context.Context, id string, leftover map[string]int, at time.Time) error {
	t := &txn{}
	var errs []error
	stock := expression.Name("stock")
	for _, sku := range slices.Sorted(maps.Keys(leftover)) {
		if n := leftover[sku]; n > 0 {
			errs = append(errs, t.update(role{}, productKey(sku), s.table, expression.Add(stock, expression.Value(n)),
				ptr(expression.AttributeExists(expression.Name("pk")))))
		}
	}
	state := expression.Name("state")
	errs = append(errs, t.update(role{}, receiptKey(id), s.table,
		expression.Set(state, expression.Value(receiving.StateApplied)).Set(expression.Name("appliedAt"), expression.Value(at.UnixMilli())),
		ptr(state.Equal(expression.Value(receiving.StateApplying)))))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("build close of %s: %w", id, err)
	}
	return s.run(ctx, t, "")
}
