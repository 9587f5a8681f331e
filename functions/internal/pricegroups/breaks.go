package pricegroups

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tradeshop/functions/internal/pricing"
)

// The limits of a break table (docs/pricing.md "Quantity breaks").
const (
	minFromPacks = 2
	maxFromPacks = 10_000 // a line holds at most 10,000 units
	maxPence     = 1_000_000
)

var (
	poundsRE = regexp.MustCompile(`^£?\s*([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]{1,2}))?$`)
	tierRE   = regexp.MustCompile(`^([0-9]+)\s*:\s*(.+?)$`)
)

// parsePounds reads an amount in pounds as people type it ("1.25", "£1.25", "0.9",
// "1,250") into pence, as the catalogue import reads its unit price.
func parsePounds(s string) (int64, bool) {
	m := poundsRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	pounds, err := strconv.ParseInt(strings.ReplaceAll(m[1], ",", ""), 10, 64)
	if err != nil || pounds > maxPence/100 {
		return 0, false
	}
	pence := int64(0)
	if m[2] != "" {
		pence, _ = strconv.ParseInt(m[2], 10, 64)
		if len(m[2]) == 1 {
			pence *= 10
		}
	}
	return pounds*100 + pence, true
}

// FormatPounds writes pence as the import reads it: "1.25".
func FormatPounds(pence int64) string { return fmt.Sprintf("%d.%02d", pence/100, pence%100) }

// ParseBreaks reads a break table as the breaks column holds it: "6:0.90; 12:0.85"
// (from 6 packs £0.90 a unit, from 12 £0.85) or "12:5%; 24:10%" (percent off the base
// price); "" is none. Each tier is packs, a colon, and a price in pounds ex VAT (0.01 to
// 10,000.00) or a whole percent; the table then must pass pricing's own check
// (Ladder.Check: from 2 packs, rising, at most 6, all prices or all percents, each
// cheaper than the one before). The error is a whole sentence. Whether the prices are
// below the product's, and whether prices are allowed at all, is the caller's to check
// (Ladder.Check with the base price).
func ParseBreaks(s string) (pricing.Ladder, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(strings.TrimSuffix(s, ";"), ";")
	if len(parts) > pricing.MaxTiers {
		return nil, refuse("The breaks hold %d tiers; the most is %d.", len(parts), pricing.MaxTiers)
	}
	var l pricing.Ladder
	for _, part := range parts {
		part = strings.TrimSpace(part)
		m := tierRE.FindStringSubmatch(part)
		if m == nil {
			return nil, refuse("The breaks must be tiers of packs and a unit price or a percent off, such as \"6:0.90; 12:0.85\" or \"12:5%%\" (found %q).", clip(part))
		}
		from, err := strconv.Atoi(m[1])
		if err != nil || from < minFromPacks || from > maxFromPacks {
			return nil, refuse("A break must start from %d to %d packs (found %q).", minFromPacks, maxFromPacks, clip(part))
		}
		t := pricing.Tier{From: from}
		if v, ok := strings.CutSuffix(m[2], "%"); ok {
			p, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || p < 1 || p > 99 {
				return nil, refuse("A break's percent off must be a whole number from 1 to 99 (found %q).", clip(part))
			}
			t.Percent = p
		} else {
			pence, ok := parsePounds(m[2])
			if !ok || pence < 1 {
				return nil, refuse("A break's unit price must be an amount in pounds ex VAT from 0.01 to 10,000.00, such as 0.90 (found %q).", clip(part))
			}
			t.Price = pence
		}
		l = append(l, t)
	}
	if msg := l.Check(0, true); msg != "" {
		return nil, refuse("%s", msg)
	}
	return l, nil
}

// FormatBreaks writes a break table as ParseBreaks reads it: "6:0.90; 12:0.85".
func FormatBreaks(l pricing.Ladder) string {
	parts := make([]string, len(l))
	for i, t := range l {
		if t.Percent > 0 {
			parts[i] = fmt.Sprintf("%d:%d%%", t.From, t.Percent)
		} else {
			parts[i] = fmt.Sprintf("%d:%s", t.From, FormatPounds(t.Price))
		}
	}
	return strings.Join(parts, "; ")
}

// BreaksError is a break table ParseBreaks refuses; its message is a whole sentence
// naming the breaks, as the import lists it.
type BreaksError struct{ Sentence string }

func (e *BreaksError) Error() string { return e.Sentence }

func refuse(format string, args ...any) error {
	return &BreaksError{Sentence: fmt.Sprintf(format, args...)}
}

func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
