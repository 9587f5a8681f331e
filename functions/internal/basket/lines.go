package basket

import (
	"fmt"
	"strings"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

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

// LineProblem is why one line cannot go in the basket as asked. Msg is for the buyer.
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

// asError is the problem as the single-line basket writes have always answered it: an
// unknown SKU a 404, anything else a 409.
func (p *LineProblem) asError() error {
	if p.Code == ProblemUnknown {
		return &NotFoundError{Msg: p.Msg}
	}
	return &ConflictError{Msg: p.Msg}
}

// CheckLine checks adding quantity units of product p (found false: no product has the
// SKU) to a basket whose line of it holds inBasket units: it exists, is not
// discontinued, is in stock, quantity is whole packs, and the line would stay within
// LineLimit. Quantity 0 checks only that the product can be bought. Nil: it can.
func CheckLine(p catalogue.Product, found bool, sku string, quantity, inBasket int) *LineProblem {
	switch {
	case !found:
		return &LineProblem{Code: ProblemUnknown, Msg: "no product with SKU " + sku}
	case p.Discontinued():
		return &LineProblem{Code: ProblemDiscontinued, Msg: p.Name + " is no longer available"}
	case AvailabilityOf(p.Stock, p.PackSize).Status == OutOfStock:
		return &LineProblem{Code: ProblemOutOfStock, Msg: p.Name + " is out of stock"}
	case quantity == 0:
		return nil
	}
	pack := p.PackSize
	if quantity%pack != 0 {
		lower := quantity / pack * pack
		nearest := []int{lower + pack}
		if lower > 0 {
			nearest = []int{lower, lower + pack}
		}
		return &LineProblem{Code: ProblemPacks, Nearest: nearest,
			Msg: fmt.Sprintf("%s is sold in packs of %d: %s is not a whole number of packs", p.Name, pack, Plural(quantity, "unit"))}
	}
	limit := LineLimit(p)
	room := max(0, limit/pack*pack-inBasket) / pack * pack
	if quantity <= room {
		return nil
	}
	held := ""
	if inBasket > 0 {
		held = "; your basket already holds " + Plural(inBasket/pack, "pack")
	}
	if limit < pricing.MaxLineUnits {
		return &LineProblem{Code: ProblemShort, Available: room,
			Msg: shortMessage(p.Name, AvailabilityOf(p.Stock, pack).PacksLeft, pack) + held}
	}
	return &LineProblem{Code: ProblemOverLimit, Available: room,
		Msg: fmt.Sprintf("one basket line of %s holds at most %s", p.Name, Plural(limit/pack, "pack")) + held}
}

// LineRefusal is a line of a request that cannot be added, at Index (0-based) in it.
type LineRefusal struct {
	Index int
	SKU   string
	*LineProblem
}

// LinesError refuses an add of several lines because of some of them: every one is
// listed, and nothing was written.
type LinesError struct{ Lines []LineRefusal }

func (e *LinesError) Error() string {
	parts := make([]string, len(e.Lines))
	for i, l := range e.Lines {
		parts[i] = fmt.Sprintf("line %d (%s): %s", l.Index+1, l.SKU, l.Msg)
	}
	return fmt.Sprintf("%s cannot be added, so nothing was added: %s", Plural(len(e.Lines), "line"), strings.Join(parts, "; "))
}
