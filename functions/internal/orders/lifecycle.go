package orders

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/text"
)

// The staff actions on an order (docs/back-office.md "Order lifecycle").
const (
	ActionConfirm  = "confirm"
	ActionPay      = "pay"
	ActionDispatch = "dispatch"
	ActionComplete = "complete"
	ActionCancel   = "cancel"
)

// Actions lists every action, in the order a page offers them.
var Actions = []string{ActionConfirm, ActionPay, ActionDispatch, ActionComplete, ActionCancel}

// The free text of the actions, under the one text rule.
var (
	Carrier      = text.Field{Name: "carrier", Label: "Carrier", Min: 2, Max: 60}
	Tracking     = text.Field{Name: "tracking", Label: "Tracking reference", Min: 3, Max: 60}
	CancelReason = text.Field{Name: "reason", Label: "Reason", Max: 200}
)

// Staff is who did something: from the verified token.
type Staff struct {
	UID   string
	Email string
}

// Action is one staff action on one order, on the version the member of staff saw.
type Action struct {
	Name     string
	Version  int64
	Carrier  string // dispatch
	Tracking string // dispatch
	Reason   string // cancel, optional
	By       Staff
}

// ErrStale refuses an action on a version of the order that is no longer current.
func ErrStale(o Order) error {
	return &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s was changed by someone else (now %s): reload it and try again.", o.ID, o.Status)}
}

// ChangedMeanwhile refuses a staff write on something that changed since the page read
// it; what is the sentence's subject ("The coupon TRADE10"). The back office's services
// (coupons, trade accounts, stock) answer it when the store's conditional write lost.
func ChangedMeanwhile(what string) error {
	return &shoperr.ConflictError{Msg: what + " was changed by someone else since you opened it: reload it and try again."}
}

// Allowed answers whether action name may be taken on o now, and if not, why (a
// sentence naming the order).
func Allowed(o Order, name string) error {
	refuse := func(why string) error {
		return &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s is %s: %s", o.ID, o.Status, why)}
	}
	if o.Forward() {
		// Its goods do not exist yet: a delivery's allocation makes them orders of their
		// own (releases), which take the staff actions (docs/forward-orders.md).
		return &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s is a forward order: it is confirmed, invoiced and dispatched release by release, as deliveries are allocated on the receiving page.", o.ID)}
	}
	switch name {
	case ActionConfirm:
		if o.Status != StatusPlaced {
			return refuse("only a placed order can be confirmed.")
		}
	case ActionPay:
		if o.Paid() {
			return &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s is marked paid already.", o.ID)}
		}
		if o.Status == StatusCancelled || o.Status == StatusCancelling {
			return refuse("a cancelled order cannot be marked paid.")
		}
	case ActionDispatch:
		if o.Status != StatusConfirmed {
			return refuse("only a confirmed order can be dispatched.")
		}
		if o.ProForma() && !o.Paid() {
			return &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s is pro-forma and not paid yet: mark it paid before dispatching it.", o.ID)}
		}
	case ActionComplete:
		if o.Status != StatusDispatched {
			return refuse("only a dispatched order can be completed.")
		}
	case ActionCancel:
		if o.Status != StatusPlaced && o.Status != StatusConfirmed {
			return refuse("it can no longer be cancelled.")
		}
		if o.Invoice == nil {
			// Its credit note credits the invoice: the sweep issues it within a minute.
			return &shoperr.ConflictError{Msg: fmt.Sprintf("Order %s's VAT invoice is still being issued: try the cancellation again in a minute.", o.ID)}
		}
	default:
		return &shoperr.FieldError{Field: "action", Problem: "The action must be one of confirm, pay, dispatch, complete, cancel."}
	}
	return nil
}

// Apply is o after action a at now, or why a may not be taken (Allowed, or a stale
// version). Cancel answers o cancelling: giving back what it holds comes after.
func Apply(o Order, a Action, now time.Time) (Order, error) {
	if a.Version != o.Version {
		return Order{}, ErrStale(o)
	}
	if err := Allowed(o, a.Name); err != nil {
		return Order{}, err
	}
	after := o
	after.Version = o.Version + 1
	switch a.Name {
	case ActionConfirm:
		after.Status, after.ConfirmedAt = StatusConfirmed, now
	case ActionPay:
		after.PaidAt = now
	case ActionDispatch:
		after.Status, after.DispatchedAt = StatusDispatched, now
		after.Dispatch = &Dispatch{Carrier: a.Carrier, Tracking: a.Tracking}
	case ActionComplete:
		after.Status, after.CompletedAt = StatusCompleted, now
	case ActionCancel:
		after.Status, after.CancelledAt, after.CancelReason = StatusCancelling, now, a.Reason
	}
	return after, nil
}

// Owes says the order counts towards its account's owed balance: paid on account,
// not paid and not cancelled.
func (o Order) Owes() bool {
	return !o.ProForma() && !o.Paid() && o.Status != StatusCancelled && o.Status != StatusCancelling
}

// Change is one staff action as the store writes it: the order before (its version the
// condition) and after, what the account owes moves by OwedDelta, the audit entry and
// the emails, all in one transaction.
type Change struct {
	Before, After Order
	OwedDelta     int64
	Audit         AuditEntry
	Emails        []outbox.Message
}

// AuditEntry is one line of an audit trail: who did what when, and the fields it
// changed before and after.
type AuditEntry struct {
	At     time.Time
	By     Staff
	Action string
	Before map[string]any
	After  map[string]any
}

// LifecycleStore is what the staff actions on orders need.
type LifecycleStore interface {
	// Order reads uid's order id.
	Order(ctx context.Context, uid, id string) (Order, error)
	// ApplyChange writes c on condition the order is still c.Before (its version and
	// status); ErrChanged-like *Refused{Kind: RefusedBusy} when it is not.
	ApplyChange(ctx context.Context, c Change) error
	// FinishCancel gives back what a cancelling order holds (stock, in steps recorded
	// on the order; then the coupon's use and the credit, with the emails) and sets it
	// cancelled. Safe to repeat and to run after a crash at any step.
	FinishCancel(ctx context.Context, uid, id string, emails func(o Order) []outbox.Message) (Order, error)
}

// InvoicePayer settles an order's invoice with a payment recorded and allocated to it
// (package payments): what "Mark paid" does since payments are recorded.
type InvoicePayer interface {
	// PayInvoice records a payment of what o's invoice still owes and allocates it to
	// the invoice, setting o paid (its version moved on); ErrStale-like when o moved.
	PayInvoice(ctx context.Context, o Order, by Staff) (Order, error)
}

// Lifecycle carries out staff actions.
type Lifecycle struct {
	Store  LifecycleStore
	Notify Notifier // nil: no emails
	Now    func() time.Time
	// Payer settles an invoice for the pay action; nil marks the order paid with no
	// payment (as before payments were recorded: tests of the lifecycle alone).
	Payer InvoicePayer
	// DeliveryVATRate is the delivery's VAT rate for a part credit of an order whose
	// invoice does not show it (the shop's rate).
	DeliveryVATRate int
	// CardRefunds refunds to the card the credit on account a cancellation or a part
	// credit leaves on an order paid by card, after the credit note is issued (package
	// cardpay); nil: none.
	CardRefunds CardRefunder
	// Restock hears of the stock a cancellation gave back (package alerts: the
	// back-in-stock emails); nil: no one.
	Restock Restocker
}

// Restocker hears of products whose stock a write gave back or added (package alerts
// emails the buyers waiting for them). It logs its own failures: the write stands, and
// the sweep sends what it missed.
type Restocker interface {
	Restocked(ctx context.Context, skus []string)
}

// SKUs answers the SKUs of o's lines.
func (o Order) SKUs() []string {
	out := make([]string, len(o.Lines))
	for i, l := range o.Lines {
		out[i] = l.SKU
	}
	return out
}

// CardRefunder refunds an order's credit on account to the card that paid it.
type CardRefunder interface {
	// RefundCredit refunds what o's credit notes left on account, when o was paid by
	// card; nothing otherwise. Safe to repeat. It logs its own failures: the caller's
	// cancellation or credit stands, and the sweep asks again.
	RefundCredit(ctx context.Context, o Order) error
}

// Act takes action a on uid's order id: the order after it, or a refusal (a
// *shoperr.ConflictError saying why; ErrStale when someone else acted first).
func (l Lifecycle) Act(ctx context.Context, uid, id string, a Action) (Order, error) {
	o, err := l.Store.Order(ctx, uid, id)
	if err != nil {
		return Order{}, err
	}
	now := l.Now()
	after, err := Apply(o, a, now)
	if err != nil {
		return Order{}, err
	}
	if a.Name == ActionPay && l.Payer != nil {
		return l.Payer.PayInvoice(ctx, o, a.By)
	}
	c := Change{Before: o, After: after, Audit: AuditEntry{At: now, By: a.By, Action: a.Name, Before: auditFields(o, a.Name), After: auditFields(after, a.Name)}}
	if a.Name == ActionPay && o.Owes() {
		c.OwedDelta = -o.TotalIncVAT
	}
	if a.Name == ActionDispatch && l.Notify != nil {
		c.Emails = l.Notify.Dispatched(after)
	}
	if err := l.Store.ApplyChange(ctx, c); err != nil {
		var refused *Refused
		if errors.As(err, &refused) {
			// Someone acted first: answer with the order as it is now.
			if now, rerr := l.Store.Order(ctx, uid, id); rerr == nil {
				return Order{}, ErrStale(now)
			}
			return Order{}, ErrStale(o)
		}
		return Order{}, err
	}
	if a.Name == ActionCancel {
		done, err := l.Store.FinishCancel(ctx, uid, id, l.cancelled)
		if err == nil && l.CardRefunds != nil {
			_ = l.CardRefunds.RefundCredit(ctx, done)
		}
		if err == nil && l.Restock != nil {
			l.Restock.Restocked(ctx, done.SKUs())
		}
		return done, err
	}
	return after, nil
}

func (l Lifecycle) cancelled(o Order) []outbox.Message {
	if l.Notify == nil {
		return nil
	}
	return l.Notify.Cancelled(o)
}

// auditFields are the fields action name changes, as an audit entry keeps them.
func auditFields(o Order, name string) map[string]any {
	ms := func(t time.Time) any {
		if t.IsZero() {
			return nil
		}
		return t.UnixMilli()
	}
	f := map[string]any{"status": o.Status, "version": o.Version}
	switch name {
	case ActionPay:
		f["paid_at"] = ms(o.PaidAt)
	case ActionDispatch:
		if o.Dispatch != nil {
			f["carrier"], f["tracking"] = o.Dispatch.Carrier, o.Dispatch.Tracking
		} else {
			f["carrier"], f["tracking"] = nil, nil
		}
	case ActionCancel:
		f["cancel_reason"] = o.CancelReason
	}
	return f
}

// CancelSweeper is what finishing the cancellations a crash interrupted needs.
type CancelSweeper interface {
	// Cancelling answers the orders left cancelling since before.
	Cancelling(ctx context.Context, before time.Time) ([]OrderRef, error)
	FinishCancel(ctx context.Context, uid, id string, emails func(o Order) []outbox.Message) (Order, error)
}

// SweepCancels finishes every cancellation started more than after ago: its request
// ended between the steps. It answers how many it finished.
func SweepCancels(ctx context.Context, s CancelSweeper, notify Notifier, now time.Time, after time.Duration) (int, error) {
	refs, err := s.Cancelling(ctx, now.Add(-after))
	if err != nil {
		return 0, err
	}
	l := Lifecycle{Notify: notify}
	n := 0
	var errs []error
	for _, r := range refs {
		if _, err := s.FinishCancel(ctx, r.UID, r.ID, l.cancelled); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}
