package pricegroups

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// maxPence is the most a price may be: £10,000.00 a unit, as the catalogue's.
const maxPence = 1_000_000

var poundsRE = regexp.MustCompile(`^£?\s*([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]{1,2}))?$`)

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

func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
