package catimport

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tradeshop/functions/internal/pricing"
)

// maxFromPacks is the largest pack count a break may start from: a line holds at most
// pricing.MaxLineUnits units, so no line of packs of one could reach a break above it.
const maxFromPacks = pricing.MaxLineUnits

// ParseBreaks reads a break table as staff write it in the breaks column: unit prices in
// pounds ex VAT from a number of packs ("6:0.90; 12:0.85") or percentages off the price
// ("6:5%; 12:10%"). An empty cell is no table (nil). The rules: each break starts from 2
// packs or more, the packs rise, there are at most 6 breaks, all are prices or all are
// percentages, and each is cheaper than the one before it and than list (the list
// price; 0 when there is none, as for a category). A unit price is refused unless
// pricesAllowed (product rows). The error is a whole sentence about the breaks column
// that quotes what is wrong, for a problem list; the price group import reads the same
// column with it. pricing's Ladder.Check, the rule's own, has the last word.
func ParseBreaks(cell string, list int64, pricesAllowed bool) (pricing.Ladder, error) {
	cell = strings.TrimSpace(cell)
	if cell == "" {
		return nil, nil
	}
	var l pricing.Ladder
	for part := range strings.SplitSeq(cell, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		packs, value, found := strings.Cut(part, ":")
		from, err := strconv.Atoi(strings.TrimSpace(packs))
		value = strings.TrimSpace(value)
		if !found || err != nil || value == "" {
			return nil, sentencef("The breaks must be packs and a price or percentage, separated by semicolons, such as 6:0.90; 12:0.85 or 6:5%%; 12:10%% (found %q).", Clip(part))
		}
		if from < 2 || from > maxFromPacks {
			return nil, sentencef("Each of the breaks must start from 2 to %d packs (found %q).", maxFromPacks, Clip(part))
		}
		t := pricing.Tier{From: from}
		if pct, isPct := strings.CutSuffix(value, "%"); isPct {
			n, err := strconv.Atoi(strings.TrimSpace(pct))
			if err != nil || n < 1 || n > 99 {
				return nil, sentencef("Each of the breaks must take a whole percentage from 1 to 99 off (found %q from %d packs).", Clip(value), from)
			}
			t.Percent = n
		} else {
			pence, ok := ParsePrice(value)
			if !ok || pence == 0 {
				return nil, sentencef("Each of the breaks must be a unit price in pounds ex VAT with at most 2 decimals, such as 0.90, or a percentage such as 5%% (found %q from %d packs).", Clip(value), from)
			}
			t.Price = pence
		}
		l = append(l, t)
	}
	if len(l) == 0 {
		return nil, nil
	}
	if err := checkLadder(l); err != nil {
		return nil, err
	}
	switch {
	case l[0].Price > 0 && !pricesAllowed:
		return nil, sentencef("The breaks here must be percentages off, such as 6:5%%; 12:10%% (a unit price is for one product).")
	case l[0].Price > 0 && list > 0 && l[0].Price >= list:
		return nil, sentencef("The breaks must be cheaper than the unit price (£%s from %d packs; the unit price is £%s).", FormatPrice(l[0].Price), l[0].From, FormatPrice(list))
	}
	if problem := l.Check(list, pricesAllowed); problem != "" {
		return nil, sentenceError(problem)
	}
	return l, nil
}

// checkLadder holds a parsed table to the rules ParseBreaks lists after the syntax.
func checkLadder(l pricing.Ladder) error {
	if len(l) > pricing.MaxTiers {
		return sentencef("The breaks hold %d steps; the most is %d.", len(l), pricing.MaxTiers)
	}
	for i, t := range l[1:] {
		prev := l[i]
		switch {
		case (t.Percent > 0) != (prev.Percent > 0):
			return sentencef("The breaks mix unit prices and percentages; write them all as prices (6:0.90) or all as percentages (6:5%%).")
		case t.From <= prev.From:
			return sentencef("The breaks must list their packs in rising order (%d packs comes after %d).", t.From, prev.From)
		case t.Percent > 0 && t.Percent <= prev.Percent:
			return sentencef("The breaks must each take more off than the one before (%d%% from %d packs comes after %d%%).", t.Percent, t.From, prev.Percent)
		case t.Percent == 0 && t.Price >= prev.Price:
			return sentencef("The breaks must each be cheaper than the one before (%s from %d packs comes after %s).", FormatPrice(t.Price), t.From, FormatPrice(prev.Price))
		}
	}
	return nil
}

// FormatBreaks writes a break table as ParseBreaks reads it: "6:0.90; 12:0.85" or
// "6:5%; 12:10%"; "" for none.
func FormatBreaks(l pricing.Ladder) string {
	parts := make([]string, len(l))
	for i, t := range l {
		if t.Percent > 0 {
			parts[i] = fmt.Sprintf("%d:%d%%", t.From, t.Percent)
		} else {
			parts[i] = fmt.Sprintf("%d:%s", t.From, FormatPrice(t.Price))
		}
	}
	return strings.Join(parts, "; ")
}

// sentenceError is a problem told to staff as a whole sentence (so it starts with a
// capital and ends with a full stop, unlike a Go error string).
type sentenceError string

func (e sentenceError) Error() string { return string(e) }

func sentencef(format string, args ...any) error { return sentenceError(fmt.Sprintf(format, args...)) }
