package basket

import "strconv"

// Plural is n and noun, the noun plural unless n is 1: "1 pack", "3 packs".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
