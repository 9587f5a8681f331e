package catalogue

import (
	"errors"
	"time"
)

// Forward marks a product sold ahead of its delivery (docs/forward-orders.md): buyers may
// pre-order it up to and including OrderBy, for delivery from DeliveryFrom, beyond the
// stock on hand; Expected is the units the shop expects from its supplier (0: not known),
// shown to staff only. Dates are ISO dates ("2027-09-01") in London.
type Forward struct {
	DeliveryFrom string `json:"deliveryFrom"`
	OrderBy      string `json:"orderBy"`
	Expected     int    `json:"expected,omitempty"`
}

const isoDate = "2006-01-02"

// ErrForwardDates refuses a forward marking whose dates are not ISO dates or whose
// order-by date falls after the delivery date; ErrForwardExpected one with negative units.
var (
	ErrForwardDates    = errors.New("give the delivery and order-by dates as YYYY-MM-DD, with the order-by date on or before the delivery date")
	ErrForwardExpected = errors.New("expected units must be a whole number, 0 or more")
)

// Check says what is wrong with f, nil when nothing is.
func (f Forward) Check() error {
	from, ferr := time.Parse(isoDate, f.DeliveryFrom)
	by, berr := time.Parse(isoDate, f.OrderBy)
	switch {
	case ferr != nil || berr != nil || by.After(from):
		return ErrForwardDates
	case f.Expected < 0:
		return ErrForwardExpected
	}
	return nil
}

var london = func() *time.Location {
	l, err := time.LoadLocation("Europe/London")
	if err != nil {
		panic(err)
	}
	return l
}()

// LondonDate is the ISO date of t in London: the day a buyer in the UK sees.
func LondonDate(t time.Time) string { return t.In(london).Format(isoDate) }

// LongDate writes an ISO date as a sentence does ("1 September 2027"); anything else is
// answered as it is.
func LongDate(iso string) string {
	d, err := time.Parse(isoDate, iso)
	if err != nil {
		return iso
	}
	return d.Format("2 January 2006")
}

// PreOrderOpen says p may be pre-ordered at now: it is forward and London's date is on or
// before its order-by date. While it is open a basket line of p is a forward line: it has
// no stock limit and never takes physical stock. After it p is an ordinary product again.
func (p Product) PreOrderOpen(now time.Time) bool {
	return p.Forward != nil && LondonDate(now) <= p.Forward.OrderBy
}
