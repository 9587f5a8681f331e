package shoperr

import (
	"fmt"
	"strings"
)

// ConflictError is a request the shop refuses as things stand (out of stock, a basket
// just ordered): its message is for the buyer. OrderID names an order the buyer should
// see instead, if there is one. Reason says why in one word for the shop's metrics (an
// order refused: one of the Reason constants; "" is another reason). The API answers it
// 409.
type ConflictError struct {
	Msg     string
	OrderID string
	Reason  string
}

// Reasons an order is refused, as the metrics count them (docs/operations.md).
const (
	ReasonShortStock    = "short_stock"    // a line the stock cannot fill
	ReasonCouponUsedUp  = "coupon_used_up" // the coupon was used as often as it allows
	ReasonMinimumOrder  = "minimum_order"  // below the minimum order
	ReasonBasketClaimed = "basket_claimed" // the basket was just ordered, or is being
	ReasonCreditLimit   = "credit_limit"   // over the account's credit limit
	ReasonCreditHold    = "credit_hold"    // an invoice on account overdue past the grace (answered as the 409's code)
)

func (e *ConflictError) Error() string { return e.Msg }

// NotFoundError is something asked for that does not exist; its message is for the
// buyer. The API answers it 404.
type NotFoundError struct{ Msg string }

func (e *NotFoundError) Error() string { return e.Msg }

// FieldError is a field of a request that breaks a rule. Problem is a whole sentence that
// names the field as the buyer knows it. The API answers it 400 with the problem under
// the field's name.
type FieldError struct{ Field, Problem string }

func (e *FieldError) Error() string { return e.Problem }

// ProblemCode says what is wrong with one line a buyer asks for (a quick order's row, a
// saved list's line, a line of an add of many): the page shows it on that line.
type ProblemCode string

// The line problems (docs/quick-order.md).
const (
	ProblemUnknown      ProblemCode = "unknown"
	ProblemDiscontinued ProblemCode = "discontinued"
	ProblemOutOfStock   ProblemCode = "out_of_stock"
	ProblemPacks        ProblemCode = "packs"
	ProblemShort        ProblemCode = "short"
	ProblemOverLimit    ProblemCode = "over_limit"
	ProblemBasketFull   ProblemCode = "basket_full"
)

// LineProblem is why one line cannot go in the basket as asked. Msg is a sentence for the
// buyer.
type LineProblem struct {
	Code ProblemCode
	Msg  string
	// Nearest (ProblemPacks) are the whole packs either side of the quantity, in units;
	// a lower of 0 is left out.
	Nearest []int
	// Available (ProblemShort, ProblemOverLimit) is how many units, whole packs, can
	// still be added to the line.
	Available int
}

func (p *LineProblem) Error() string { return p.Msg }

// LineRefusal is a line of a request that cannot be added, at Index (0-based) in it.
type LineRefusal struct {
	Index int
	SKU   string
	*LineProblem
}

// LinesError refuses an add of several lines because of some of them: every one is
// listed, and nothing was written. The API answers it 409 with the lines.
type LinesError struct{ Lines []LineRefusal }

func (e *LinesError) Error() string {
	parts := make([]string, len(e.Lines))
	for i, l := range e.Lines {
		parts[i] = fmt.Sprintf("Line %d (%s): %s", l.Index+1, l.SKU, l.Msg)
	}
	lines := "1 line"
	if len(e.Lines) != 1 {
		lines = fmt.Sprintf("%d lines", len(e.Lines))
	}
	return fmt.Sprintf("%s cannot be added, so nothing was added. %s", lines, strings.Join(parts, " "))
}
