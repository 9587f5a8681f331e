package basket

import (
	"fmt"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
)

// lineError is the problem as the single-line basket writes have always answered it: an
// unknown SKU a 404, anything else a 409.
func lineError(p *shoperr.LineProblem) error {
	if p.Code == shoperr.ProblemUnknown {
		return &shoperr.NotFoundError{Msg: p.Msg}
	}
	return &shoperr.ConflictError{Msg: p.Msg}
}

// CheckLine checks adding quantity units of product p (found false: no product has the
// SKU) to a basket whose line of it holds inBasket units: it exists, is not
// discontinued, is in stock, quantity is whole packs, and the line would stay within
// LineLimit. Quantity 0 checks only that the product can be bought. Nil: it can.
func CheckLine(p catalogue.Product, found bool, sku string, quantity, inBasket int, now time.Time) *shoperr.LineProblem {
	switch {
	case !found:
		return &shoperr.LineProblem{Code: shoperr.ProblemUnknown, Msg: "There is no product with SKU " + sku + "."}
	case p.Discontinued():
		return &shoperr.LineProblem{Code: shoperr.ProblemDiscontinued, Msg: p.Name + " is no longer available."}
	case AvailabilityAt(p, now).Status == OutOfStock:
		return &shoperr.LineProblem{Code: shoperr.ProblemOutOfStock, Msg: p.Name + " is out of stock."}
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
		return &shoperr.LineProblem{Code: shoperr.ProblemPacks, Nearest: nearest,
			Msg: fmt.Sprintf("%s is sold in packs of %d: %s is not a whole number of packs.", p.Name, pack, Plural(quantity, "unit"))}
	}
	limit := LineLimit(p, now)
	room := max(0, limit/pack*pack-inBasket) / pack * pack
	if quantity <= room {
		return nil
	}
	held := ""
	if inBasket > 0 {
		held = ": your basket already holds " + Plural(inBasket/pack, "pack")
	}
	if limit < pricing.MaxLineUnits {
		return &shoperr.LineProblem{Code: shoperr.ProblemShort, Available: room,
			Msg: shortMessage(p.Name, AvailabilityOf(p.Stock, pack).PacksLeft, pack) + held + "."}
	}
	return &shoperr.LineProblem{Code: shoperr.ProblemOverLimit, Available: room,
		Msg: fmt.Sprintf("One basket line of %s holds at most %s", p.Name, Plural(limit/pack, "pack")) + held + "."}
}
