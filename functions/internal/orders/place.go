package orders

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/shoperr"
)

// MaxOneTransaction is the most lines an order placed in one transaction may have: a
// transaction holds 100 items, and besides a stock decrement per line it writes the
// order, the idempotency key, the basket, the coupon, the account's use of the coupon,
// the account and the order's to-invoice marker (seven).
const MaxOneTransaction = 93

// ChunkLines is how many lines one reservation step of a large order reserves: 99 stock
// decrements and the pending record.
const ChunkLines = 99

// Placement is an order ready to be written, with what it claims.
type Placement struct {
	Order Order
	// Key is the buyer's idempotency key; Token is the transaction's ClientRequestToken
	// for this attempt (the store's own retries of one call reuse it).
	Key, Token string
	// BasketVersion is the basket's version when it was priced: the order claims that
	// basket and no other.
	BasketVersion int64
	// Coupon is the coupon whose use the order counts, nil for none; ClearCoupon says the
	// account's active coupon is cleared with the order (it could not be used again).
	Coupon      *basket.Coupon
	ClearCoupon bool
	// Chunks splits a large order's lines into reservation steps; empty when the order
	// is placed in one transaction.
	Chunks [][]Line
	// StartedAt is when a large order began to be placed (its pending record's age).
	StartedAt time.Time
	// Credit is what an order paid on account adds to what the account owes; nil for a
	// pro-forma order.
	Credit *Credit
	// Forward is the checkout's forward order written with Order (nil for none), and
	// ForwardEmails its emails. When the checkout has only forward lines, Order is the
	// forward order itself and Forward is nil.
	Forward       *Order
	ForwardEmails []outbox.Message
}

// forwardItems is how many transaction items a forward order of n lines with emails
// adds: the order, a ledger line each, and two per email (the outbox record and the
// check that it was not sent before).
func forwardItems(n, emails int) int { return 1 + n + 2*emails }

// inOne says whether placement pm fits one transaction of 100 items: besides a line's
// stock each (today's order), seven items (MaxOneTransaction), and the forward order's.
func inOne(pm Placement) bool {
	today, fwd := pm.Order, pm.Forward
	if today.Forward() {
		return true // at most MaxForwardLines: 1 + 90 + 4 items, the key and the basket
	}
	n := len(today.Lines)
	if fwd != nil {
		n += forwardItems(len(fwd.Lines), len(pm.ForwardEmails))
	}
	return n <= MaxOneTransaction
}

// Credit is an order's claim on its account's credit: Amount is added to what the
// account owes on condition the result stays within Limit (nil: no limit set; the
// account must then still have none).
type Credit struct {
	Amount int64
	Limit  *int64
}

// Refusal kinds: which claim of a placement failed.
const (
	RefusedStock  = "stock"  // a line's stock is short: SKU, Stock say what is left
	RefusedCoupon = "coupon" // the coupon's overall or per-account limit is reached
	RefusedBasket = "basket" // the basket is not the one priced: Basket is it now
	RefusedKey    = "key"    // the idempotency key was used: OrderID is its order
	RefusedBusy   = "busy"   // another write to the same items raced this one: try again
	RefusedCredit = "credit" // the account's credit would be exceeded (or its limit changed): Owed is what it owes
	// RefusedDiscontinued: a line's product was discontinued after the basket was priced
	// (its stock condition failed on the status, not the stock): SKU names it.
	RefusedDiscontinued = "discontinued"
)

// Refused says why the store did not place an order; nothing of it was written.
type Refused struct {
	Kind    string
	SKU     string
	Stock   int
	Basket  basket.Basket
	OrderID string
	Owed    int64
	Limit   *int64
}

func (r *Refused) Error() string { return "order refused: " + r.Kind }

// Store is what placing an order reads and writes.
type Store interface {
	basket.Reader
	// NextOrderNumber hands out the next order number.
	NextOrderNumber(ctx context.Context) (string, error)
	// Order reads uid's order id (an error wrapping a not-found when there is none).
	Order(ctx context.Context, uid, id string) (Order, error)
	// OrderIDForKey answers the order number uid's idempotency key was used for, "" when
	// it was not used.
	OrderIDForKey(ctx context.Context, uid, key string) (string, error)
	// PlaceInOne writes the order, the key, the emptied basket (at BasketVersion), every
	// line's stock decrement, the coupon's use and the account's coupon in one
	// transaction; a failed claim is a *Refused and writes nothing.
	PlaceInOne(ctx context.Context, p Placement) error
	// StartLarge writes the pending record, the key and the coupon's use, and locks the
	// basket (at BasketVersion), in one transaction (*Refused as PlaceInOne).
	StartLarge(ctx context.Context, p Placement) error
	// ReserveChunk decrements the stock of chunk i and records it on the pending record,
	// in one transaction; a chunk already reserved is not reserved twice.
	ReserveChunk(ctx context.Context, p Placement, i int) error
	// CommitLarge writes the order, deletes the pending record (every chunk reserved),
	// empties and unlocks the basket and clears the account's coupon, in one transaction.
	CommitLarge(ctx context.Context, p Placement) error
	// Undo gives back what a pending order reserved (stock, the coupon's use, the key,
	// the basket lock) and deletes its record. It is safe to repeat and to run after a
	// crash at any step.
	Undo(ctx context.Context, orderID string) error
	Invoicer
}

// Invoicer issues VAT invoices.
type Invoicer interface {
	// IssueInvoice gives order o (as stored) its invoice, build making it with the next
	// number of the invoice sequence, and answers the order with it; an order invoiced
	// already keeps its own.
	// notices makes the order's emails, written with the invoice (nil for none).
	IssueInvoice(ctx context.Context, o Order, build func(o Order, number int64) Invoice, notices func(o Order) []outbox.Message) (Order, error)
}

// OrderRef names one order.
type OrderRef struct{ UID, ID string }

// IssuedNumber is an invoice number issued and the order it was issued to.
type IssuedNumber struct {
	Number int64
	Order  OrderRef
}

// Placer places orders.
type Placer struct {
	Store Store
	Shop  config.Shop
	Now   func() time.Time
	// StaleAfter is how old a pending large order must be before a new Place Order from
	// the same basket undoes it (its request died); the sweeper uses the same age.
	StaleAfter time.Duration
	// Notify makes the order's emails (nil: none).
	Notify Notifier
	// Hold refuses an order on account from an account on credit hold (nil: no hold).
	Hold CreditHold
}

// CreditHold is the credit hold's check at placing (payments.Holds).
type CreditHold interface {
	// CheckOrder answers the 409 refusing account uid an order on account now, nil when
	// it may place one.
	CheckOrder(ctx context.Context, uid string) error
}

// placedNotices is notify's emails of a placed order, nil when there is no notifier.
func placedNotices(notify Notifier) func(o Order) []outbox.Message {
	if notify == nil {
		return nil
	}
	return notify.Placed
}

// attempts bounds the retries of one Place Order when the basket or a product is
// written while it is being placed.
const attempts = 4

// ErrChanged is the answer when the basket kept changing while the order was placed.
var ErrChanged = &shoperr.ConflictError{Msg: "Your basket, or the stock of a product in it, changed while the order was being placed: check your basket and place the order again."}

// Place places req's order: exactly one order per basket and per key, whatever races
// it. created is false when the key's order was placed before (a retry): the same
// order is answered.
func (pl Placer) Place(ctx context.Context, req Request) (o Order, created bool, err error) {
	option, ok := Option(pl.Shop, req.DeliveryOption)
	if !ok {
		return Order{}, false, &shoperr.FieldError{Field: "delivery_option", Problem: "That is not one of the shop's delivery options: choose one of them."}
	}
	number, forwardNumber := "", ""
	holdChecked := false
	for attempt := 0; attempt < attempts; attempt++ {
		if attempt > 0 {
			sleep(ctx, attempt)
		}
		p, acct, err := basket.PriceFor(ctx, pl.Store, pl.Shop, req.UID, pl.Now())
		if err != nil {
			return Order{}, false, err
		}
		if b := p.Basket; b.PendingOrderID != "" {
			if err := pl.pendingInTheWay(ctx, req, b); err != nil {
				return Order{}, false, err
			}
			continue
		}
		if len(p.Lines) == 0 {
			return pl.emptyBasket(ctx, req, p.Basket)
		}
		if number == "" {
			if number, err = pl.Store.NextOrderNumber(ctx); err != nil {
				return Order{}, false, err
			}
		}
		if forwardNumber == "" && len(p.Today()) > 0 && len(p.ForwardLines()) > 0 {
			if forwardNumber, err = pl.Store.NextOrderNumber(ctx); err != nil {
				return Order{}, false, err
			}
		}
		c, err := BuildCheckout(p, acct, QuoteOf(p, option, pl.Shop), req, number, forwardNumber, pl.Now())
		if err != nil {
			// A retry after the order was placed finds the basket changed, not this.
			return Order{}, false, err
		}
		o := c.Primary()
		pm := Placement{Order: o, Key: req.IdempotencyKey, Token: fmt.Sprintf("%s|%s|%d", req.IdempotencyKey, number, attempt),
			BasketVersion: p.Basket.Version, StartedAt: pl.Now()}
		if c.Today != nil {
			pm.Forward = c.Forward
		}
		if c.Forward != nil && pl.Notify != nil {
			pm.ForwardEmails = pl.Notify.ForwardPlaced(*c.Forward)
		}
		if o.CouponID != "" {
			pm.Coupon, pm.ClearCoupon = p.Coupon, !p.Coupon.UsableAgain()
		}
		if !o.ProForma() && !o.Forward() {
			// The account's owed (what its invoices on account still owe) is held in
			// the transaction against its limit; the credit hold is a read (time, not
			// a write, makes an invoice overdue: docs/back-office.md "Credit hold").
			pm.Credit = &Credit{Amount: o.TotalIncVAT, Limit: acct.CreditLimit}
			if pl.Hold != nil && !holdChecked {
				if err := pl.Hold.CheckOrder(ctx, req.UID); err != nil {
					return Order{}, false, err
				}
				holdChecked = true
			}
		}
		if inOne(pm) {
			err = pl.Store.PlaceInOne(ctx, pm)
		} else {
			err = pl.placeLarge(ctx, pm)
		}
		if err == nil {
			return pl.invoiced(ctx, o), true, nil
		}
		var refused *Refused
		if !errors.As(err, &refused) {
			return Order{}, false, err
		}
		switch refused.Kind {
		case RefusedKey:
			return pl.keyUsed(ctx, req, refused.OrderID)
		case RefusedStock:
			l := o.line(refused.SKU)
			return Order{}, false, ShortError(l.Name, refused.Stock, l.PackSize)
		case RefusedDiscontinued:
			return Order{}, false, DiscontinuedError(o.line(refused.SKU).Name)
		case RefusedCoupon:
			return Order{}, false, couponUsedUp(o.CouponID)
		case RefusedCredit:
			if refused.Limit != nil && refused.Owed+o.TotalIncVAT > *refused.Limit {
				return Order{}, false, OverCredit(*refused.Limit, refused.Owed)
			}
		case RefusedBasket:
			if id, ok := refused.Basket.JustOrdered(pl.Now()); ok {
				return pl.justOrdered(ctx, req, id)
			}
		}
		// The basket, a product or the coupon was written meanwhile: price it again.
	}
	return Order{}, false, ErrChanged
}

// placeLarge reserves a large order's lines chunk by chunk under its pending record,
// then commits; on any failure it undoes what it reserved.
func (pl Placer) placeLarge(ctx context.Context, pm Placement) error {
	for i := 0; i < len(pm.Order.Lines); i += ChunkLines {
		pm.Chunks = append(pm.Chunks, pm.Order.Lines[i:min(i+ChunkLines, len(pm.Order.Lines))])
	}
	if err := pl.Store.StartLarge(ctx, pm); err != nil {
		return err
	}
	err := func() error {
		for i := range pm.Chunks {
			if err := pl.Store.ReserveChunk(ctx, pm, i); err != nil {
				return err
			}
		}
		return pl.Store.CommitLarge(ctx, pm)
	}()
	if err != nil {
		// Give back what was reserved. If this fails too (the store is down), the
		// pending record stays for the sweeper, and the basket stays locked until then.
		undoCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if uerr := pl.Store.Undo(undoCtx, pm.Order.ID); uerr != nil {
			return errors.Join(err, fmt.Errorf("undo %s: %w", pm.Order.ID, uerr))
		}
	}
	return err
}

// pendingInTheWay handles a basket locked by a pending large order: a stale one (its
// request died) is undone so this Place Order can go on; a live one is the buyer's own
// order still being placed.
func (pl Placer) pendingInTheWay(ctx context.Context, req Request, b basket.Basket) error {
	if pl.Now().Sub(b.PendingSince) >= pl.StaleAfter {
		return pl.Store.Undo(ctx, b.PendingOrderID)
	}
	return &shoperr.ConflictError{Msg: fmt.Sprintf("Your order %s is still being placed: wait a few seconds, then check your orders.", b.PendingOrderID),
		OrderID: b.PendingOrderID, Reason: shoperr.ReasonBasketClaimed}
}

// emptyBasket answers Place Order on an empty basket: the key's own order when this is
// a retry, else the order that just emptied the basket, else "empty".
func (pl Placer) emptyBasket(ctx context.Context, req Request, b basket.Basket) (Order, bool, error) {
	if id, err := pl.Store.OrderIDForKey(ctx, req.UID, req.IdempotencyKey); err != nil {
		return Order{}, false, err
	} else if id != "" {
		return pl.keyUsed(ctx, req, id)
	}
	if id, ok := b.JustOrdered(pl.Now()); ok {
		return Order{}, false, justOrderedError(id)
	}
	return Order{}, false, &shoperr.ConflictError{Msg: "Your basket is empty."}
}

// justOrdered answers a Place Order that lost the basket to an order placed from it
// meanwhile: its own order if that was its key, else a 409 naming that order.
func (pl Placer) justOrdered(ctx context.Context, req Request, id string) (Order, bool, error) {
	if mine, err := pl.Store.OrderIDForKey(ctx, req.UID, req.IdempotencyKey); err == nil && mine == id {
		return pl.keyUsed(ctx, req, id)
	}
	return Order{}, false, justOrderedError(id)
}

func justOrderedError(id string) error {
	return &shoperr.ConflictError{Msg: fmt.Sprintf("This basket was just ordered: see order %s.", id), OrderID: id,
		Reason: shoperr.ReasonBasketClaimed}
}

// keyUsed answers the order an idempotency key was used for.
func (pl Placer) keyUsed(ctx context.Context, req Request, id string) (Order, bool, error) {
	o, err := pl.Store.Order(ctx, req.UID, id)
	if err != nil {
		// The key's large order is still being placed (or is being undone).
		return Order{}, false, &shoperr.ConflictError{Msg: fmt.Sprintf("Your order %s is still being placed: wait a few seconds, then check your orders.", id), OrderID: id,
			Reason: shoperr.ReasonBasketClaimed}
	}
	return pl.invoiced(ctx, o), false, nil
}

// invoiced answers o with its VAT invoice, issuing it if it has none. The order stands
// whether or not that works: if the store fails now, o is answered without its invoice
// and the sweep (SweepInvoices) issues it.
func (pl Placer) invoiced(ctx context.Context, o Order) Order {
	if o.Invoice != nil || o.Forward() {
		return o // a forward order is invoiced release by release, as its goods are allocated
	}
	inv, err := pl.Store.IssueInvoice(ctx, o, pl.newInvoice, placedNotices(pl.Notify))
	if err != nil {
		return o
	}
	return inv
}

// newInvoice is o's invoice with number n, issued now.
func (pl Placer) newInvoice(o Order, n int64) Invoice { return NewInvoice(o, pl.Shop, n, pl.Now()) }

// line is the order's line of sku; a SKU not on the order (which a refusal never names)
// is a line of one unit named by its SKU.
func (o Order) line(sku string) Line {
	for _, l := range o.Lines {
		if l.SKU == sku {
			return l
		}
	}
	return Line{SKU: sku, Name: sku, PackSize: 1}
}

// sleep waits a little before another attempt (jittered, growing), or until ctx ends.
func sleep(ctx context.Context, attempt int) {
	d := time.Duration(10*attempt+rand.IntN(20*attempt)) * time.Millisecond
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// Sweeper is what recovering pending large orders needs.
type Sweeper interface {
	// PendingOrders answers the large orders pending since before.
	PendingOrders(ctx context.Context, before time.Time) ([]string, error)
	Undo(ctx context.Context, orderID string) error
}

// Sweep undoes every large order pending for longer than staleAfter: its request died
// between steps (a crash, a timeout), so it was never acknowledged, and undoing it gives
// back its stock, its coupon use, its key and its basket. It answers how many it undid.
func Sweep(ctx context.Context, s Sweeper, now time.Time, staleAfter time.Duration) (int, error) {
	ids, err := s.PendingOrders(ctx, now.Add(-staleAfter))
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, id := range ids {
		if err := s.Undo(ctx, id); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// InvoiceSweeper is what issuing the invoices a crash left unissued needs.
type InvoiceSweeper interface {
	Invoicer
	// Order reads uid's order id.
	Order(ctx context.Context, uid, id string) (Order, error)
	// ToInvoice answers the orders placed before before that have no invoice yet.
	ToInvoice(ctx context.Context, before time.Time) ([]OrderRef, error)
}

// SweepInvoices issues the invoice of every order placed more than after ago that has
// none: its request ended (a crash, a timeout) between placing the order and invoicing
// it. It answers how many it issued.
func SweepInvoices(ctx context.Context, s InvoiceSweeper, shop config.Shop, notify Notifier, now time.Time, after time.Duration) (int, error) {
	refs, err := s.ToInvoice(ctx, now.Add(-after))
	if err != nil {
		return 0, err
	}
	build := func(o Order, n int64) Invoice { return NewInvoice(o, shop, n, now) }
	n := 0
	var errs []error
	for _, r := range refs {
		o, err := s.Order(ctx, r.UID, r.ID)
		if err == nil {
			_, err = s.IssueInvoice(ctx, o, build, placedNotices(notify))
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// Recovery is what recovering from crashed placements and cancellations needs.
type Recovery interface {
	Sweeper
	InvoiceSweeper
	CancelSweeper
}

// Recovered counts what one Recover did.
type Recovered struct {
	Undone    int // large orders pending too long, undone
	Invoiced  int // missing invoices issued (with the order's emails)
	Cancelled int // interrupted cancellations finished
}

// Recover undoes the large orders pending for longer than staleAfter (Sweep), issues
// the invoices missing for longer than after (SweepInvoices) and finishes the
// cancellations begun more than after ago (SweepCancels): the sweep the local edge, the
// sweepOrders Lambda and the recover command run.
func Recover(ctx context.Context, s Recovery, shop config.Shop, notify Notifier, now time.Time, staleAfter, after time.Duration) (Recovered, error) {
	var r Recovered
	var uerr, ierr, cerr error
	r.Undone, uerr = Sweep(ctx, s, now, staleAfter)
	r.Invoiced, ierr = SweepInvoices(ctx, s, shop, notify, now, after)
	r.Cancelled, cerr = SweepCancels(ctx, s, notify, now, after)
	return r, errors.Join(uerr, ierr, cerr)
}

// InvoiceAfter is how old an order without its invoice must be before the sweep issues
// it: the placing request issues it within a second or two.
const InvoiceAfter = 30 * time.Second

// DefaultStaleAfter is how long a large order may stay pending before it is taken for
// dead: far longer than placing one takes (a few store calls of a few seconds at most).
const DefaultStaleAfter = 2 * time.Minute

// Notifier makes the emails of an order's events (package mail): each is written to the
// outbox in the same transaction as the event, and sent from there.
type Notifier interface {
	// Placed is the confirmation to the buyer and the new-order notice to the shop; o
	// carries its VAT invoice.
	Placed(o Order) []outbox.Message
	// ForwardPlaced is the confirmation of forward order o to the buyer (no invoice yet:
	// it is issued when the goods are allocated).
	ForwardPlaced(o Order) []outbox.Message
	// Dispatched is the dispatch notice, with carrier and tracking reference.
	Dispatched(o Order) []outbox.Message
	// Cancelled is the cancellation notice.
	Cancelled(o Order) []outbox.Message
	// Credited is the notice of part credit note c of o (lines taken off, a return, the
	// delivery credited).
	Credited(o Order, c CreditNote) []outbox.Message
}
