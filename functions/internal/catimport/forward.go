package catimport

import (
	"strconv"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
)

// The forward columns (docs/catalogue-import.md "Forward products"): together they mark a
// product sold ahead of its delivery (docs/forward-orders.md).
const (
	colForwardFrom     = "forward_from"
	colOrderBy         = "order_by"
	colForwardExpected = "forward_expected"
	// maxForwardExpected bounds the expected units as stock is bounded.
	maxForwardExpected = maxStock
)

// isoDate is the layout of the forward dates.
const isoDate = "2006-01-02"

// forwardCells reads a row's forward marking. keep is true when the row has none of the
// three cells (a file made before the columns existed): the product's own marking stays.
// Three empty cells clear it (f is nil). Problems name the column in staff's words.
func (p *problems) forwardCells(r record) (f *catalogue.Forward, keep, ok bool) {
	_, hasFrom := r.cells[colForwardFrom]
	_, hasBy := r.cells[colOrderBy]
	_, hasExp := r.cells[colForwardExpected]
	if !hasFrom && !hasBy && !hasExp {
		return nil, true, true
	}
	from, by, exp := r.get(colForwardFrom), r.get(colOrderBy), r.get(colForwardExpected)
	if from == "" && by == "" && exp == "" {
		return nil, false, true
	}
	ok = true
	date := func(cell, label string) {
		switch s := r.get(cell); {
		case s == "":
			p.problemf(r.line, label, "The %s is empty; a forward product needs both its delivery date (forward_from) and its order-by date (order_by), as yyyy-mm-dd, or leave all three forward cells empty.", label)
			ok = false
		default:
			if _, err := time.Parse(isoDate, s); err != nil {
				p.problemf(r.line, label, "The %s must be a date written yyyy-mm-dd, such as 2027-09-01 (found %q).", label, Clip(s))
				ok = false
			}
		}
	}
	date(colForwardFrom, "forward from date")
	date(colOrderBy, "order-by date")
	n := 0
	if exp != "" {
		v, err := strconv.Atoi(strings.ReplaceAll(exp, ",", ""))
		if err != nil || v < 0 || v > maxForwardExpected {
			p.problemf(r.line, "forward expected", "The forward expected units must be a whole number from 0 to %d (found %q).", maxForwardExpected, Clip(exp))
			ok = false
		}
		n = v
	}
	if !ok {
		return nil, false, false
	}
	fw := catalogue.Forward{DeliveryFrom: from, OrderBy: by, Expected: n}
	if err := fw.Check(); err != nil {
		p.problemf(r.line, "order-by date", "The order-by date %s is after the forward from date %s; pre-orders must close on or before delivery starts.", by, from)
		return nil, false, false
	}
	return &fw, false, true
}

// forwardRecord is a forward marking as the export's three cells.
func forwardRecord(f *catalogue.Forward) []string {
	if f == nil {
		return []string{"", "", ""}
	}
	return []string{f.DeliveryFrom, f.OrderBy, num(f.Expected)}
}
