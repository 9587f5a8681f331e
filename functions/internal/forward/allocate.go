package forward

// The allocation rules a shop chooses in shop.json (forwardAllocation).
const (
	// RuleProRata gives each open line the same share of what it asked for, in whole
	// packs, the packs left over one each by order date.
	RuleProRata = "pro-rata"
	// RuleFirstCome fills the oldest open line fully before the next.
	RuleFirstCome = "first-come"
)

// Share is what a rule proposes for one open forward line: Want is the line's open
// units, Units the units it is to get (whole packs, at most Want).
type Share struct {
	OrderID string
	LineSK  string
	Want    int
	Units   int
}

// Propose shares received units of one SKU (packs of packSize) among its open forward
// lines by rule (RuleProRata when it is not RuleFirstCome), oldest line first. It
// answers one Share per line with units open, in order date order; what no line takes
// (received less the sum of the shares) goes to stock.
//
// Pro rata: each line's exact share is received × open ÷ Σ open (in packs); each gets its
// share rounded down, then the packs that remain go one each, oldest line first, to the
// lines whose share was not whole. So every line gets its share rounded down or up, never
// more than it asked for, and the sum is what was received whenever that is less than
// what was asked for (the fairness of docs/forward-orders.md "Receiving and allocation").
func Propose(rule string, received int, packSize int, lines []Line) []Share {
	if packSize < 1 {
		packSize = 1
	}
	open := make([]Line, 0, len(lines))
	for _, l := range lines {
		if l.Open >= packSize {
			open = append(open, l)
		}
	}
	SortOldestFirst(open)
	packs := max(received, 0) / packSize
	want := make([]int, len(open)) // open packs per line
	total := 0
	for i, l := range open {
		want[i] = l.Open / packSize
		total += want[i]
	}
	got := make([]int, len(open))
	switch {
	case packs >= total:
		copy(got, want)
	case rule == RuleFirstCome:
		left := packs
		for i := range open {
			got[i] = min(want[i], left)
			left -= got[i]
		}
	default:
		left := packs
		for i := range open {
			got[i] = packs * want[i] / total
			left -= got[i]
		}
		// left is the sum of the fractions, so fewer than the lines with one.
		for i := range open {
			if left == 0 {
				break
			}
			if packs*want[i]%total != 0 && got[i] < want[i] {
				got[i]++
				left--
			}
		}
	}
	out := make([]Share, len(open))
	for i, l := range open {
		out[i] = Share{OrderID: l.OrderID, LineSK: LineSK(l.PlacedAt, l.OrderID), Want: l.Open, Units: got[i] * packSize}
	}
	return out
}
