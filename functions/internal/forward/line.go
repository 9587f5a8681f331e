// Package forward holds the rules of forward orders (docs/forward-orders.md): the lines
// buyers order ahead of a delivery, and how a delivery is shared out among them. It
// imports no HTTP or AWS code.
package forward

import (
	"fmt"
	"slices"
	"time"

	"github.com/tradeshop/functions/internal/orders"
)

// Line is one line of a forward order as the allocation ledger holds it: its units
// (Ordered) are always in exactly one of three buckets, Open (on order, or backordered
// once a delivery has been applied to it), Allocated (sent out on a release order) and
// Cancelled (by the buyer, or by a short delivery when NoBackorders). So
// Open + Allocated + Cancelled = Ordered, and every write moves units between buckets in
// one update, on condition that Open holds what it takes.
type Line struct {
	SKU          string
	OrderID      string
	UID          string
	Email        string
	Name         string
	PlacedAt     time.Time
	PackSize     int
	Ordered      int
	Open         int
	Allocated    int
	Cancelled    int
	NoBackorders bool
	DeliveryFrom string
	OrderBy      string
	// Receipts are the deliveries applied to the line (their ids), oldest first.
	Receipts []string
	// UnitPrice is what the forward order charges a unit (pence ex VAT): a release bills
	// the units it sends at it.
	UnitPrice int64
}

// The states of a forward line, as buyers and staff see them.
const (
	StateOrdered     = "ordered"     // on order: no delivery of it has been applied yet
	StateAllocated   = "allocated"   // every unit not cancelled has been sent out
	StateBackordered = "backordered" // a delivery came short of it: the rest waits for the next
	StateCancelled   = "cancelled"   // every unit was cancelled
)

// State is the line's state.
func (l Line) State() string {
	switch {
	case l.Cancelled == l.Ordered:
		return StateCancelled
	case l.Open == 0:
		return StateAllocated
	case len(l.Receipts) > 0:
		return StateBackordered
	}
	return StateOrdered
}

// Backordered is the units a delivery came short of: the open units once a delivery has
// been applied to the line, else none (they are simply on order).
func (l Line) Backordered() int {
	if len(l.Receipts) > 0 {
		return l.Open
	}
	return 0
}

// Check says whether the line's buckets add up: Open + Allocated + Cancelled = Ordered,
// none negative.
func (l Line) Check() error {
	if l.Open < 0 || l.Allocated < 0 || l.Cancelled < 0 || l.Open+l.Allocated+l.Cancelled != l.Ordered {
		return fmt.Errorf("forward line %s/%s: open %d + allocated %d + cancelled %d != ordered %d",
			l.OrderID, l.SKU, l.Open, l.Allocated, l.Cancelled, l.Ordered)
	}
	return nil
}

// SK is the line's sort key under its SKU: placed time (Unix ms, 13 digits) then order
// number, so a Query of a SKU's lines answers them oldest first.
func (l Line) SK() string { return LineSK(l.PlacedAt, l.OrderID) }

// LineSK is the sort key of order orderID's line placed at placedAt.
func LineSK(placedAt time.Time, orderID string) string {
	return fmt.Sprintf("%013d#%s", placedAt.UnixMilli(), orderID)
}

// LinesOf are forward order o's ledger lines as placed: every unit open.
func LinesOf(o orders.Order) []Line {
	out := make([]Line, 0, len(o.Lines))
	for _, l := range o.Lines {
		out = append(out, Line{SKU: l.SKU, OrderID: o.ID, UID: o.UID, Email: o.Email, Name: l.Name, PlacedAt: o.PlacedAt,
			PackSize: l.PackSize, Ordered: l.Quantity, Open: l.Quantity, NoBackorders: o.NoBackorders,
			DeliveryFrom: l.DeliveryFrom, OrderBy: l.OrderBy, UnitPrice: l.UnitPrice})
	}
	return out
}

// SortOldestFirst orders lines by when they were placed (order number breaks a tie): the
// order in which a delivery's remainders, and first come first served, go.
func SortOldestFirst(lines []Line) {
	slices.SortStableFunc(lines, func(a, b Line) int {
		if c := a.PlacedAt.Compare(b.PlacedAt); c != 0 {
			return c
		}
		if a.OrderID != b.OrderID {
			if a.OrderID < b.OrderID {
				return -1
			}
			return 1
		}
		return 0
	})
}
