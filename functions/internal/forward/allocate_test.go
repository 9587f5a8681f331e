package forward

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

var t0 = time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)

// lines makes open lines of packs open packs each (pack size 6), one day apart, oldest first.
func lines(packs ...int) []Line {
	out := make([]Line, len(packs))
	for i, p := range packs {
		out[i] = Line{SKU: "CARD-1", OrderID: fmt.Sprintf("TS-%06d", 100001+i), PlacedAt: t0.Add(time.Duration(i) * 24 * time.Hour),
			PackSize: 6, Ordered: p * 6, Open: p * 6}
	}
	return out
}

func TestPropose(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		rule     string
		received int // packs
		open     []int
		want     []int // packs per line
	}{
		{"pro rata, enough for all", RuleProRata, 30, []int{10, 5, 3}, []int{10, 5, 3}},
		{"pro rata, more than asked", RuleProRata, 40, []int{10, 5}, []int{10, 5}},
		{"pro rata, half of each", RuleProRata, 9, []int{10, 6, 2}, []int{5, 3, 1}},
		{"pro rata, remainders oldest first", RuleProRata, 10, []int{4, 4, 4}, []int{4, 3, 3}},
		{"pro rata, remainder skips a whole share", RuleProRata, 5, []int{2, 4, 4}, []int{1, 2, 2}},
		{"pro rata, two remainders", RuleProRata, 2, []int{1, 1, 1}, []int{1, 1, 0}},
		{"pro rata, nothing received", RuleProRata, 0, []int{3, 1}, []int{0, 0}},
		{"pro rata, big and small", RuleProRata, 7, []int{100, 1}, []int{7, 0}},
		{"pro rata, small gets its remainder", RuleProRata, 7, []int{1, 13}, []int{1, 6}},
		{"first come fills the oldest", RuleFirstCome, 9, []int{10, 6, 2}, []int{9, 0, 0}},
		{"first come, then the next", RuleFirstCome, 13, []int{10, 6, 2}, []int{10, 3, 0}},
		{"unknown rule is pro rata", "", 9, []int{10, 6, 2}, []int{5, 3, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := Propose(c.rule, c.received*6, 6, lines(c.open...))
			if len(got) != len(c.want) {
				t.Fatalf("%d shares, want %d", len(got), len(c.want))
			}
			for i, s := range got {
				if s.Units != c.want[i]*6 || s.Want != c.open[i]*6 || s.OrderID != fmt.Sprintf("TS-%06d", 100001+i) {
					t.Errorf("line %d: %+v, want %d of %d packs", i, s, c.want[i], c.open[i])
				}
			}
		})
	}
}

func TestProposeSkipsLinesWithNothingOpenAndSortsByDate(t *testing.T) {
	t.Parallel()
	ls := lines(2, 0, 2)
	ls[0], ls[2] = ls[2], ls[0] // newest first on the way in
	got := Propose(RuleProRata, 6, 6, ls)
	if len(got) != 2 || got[0].OrderID != "TS-100001" || got[0].Units != 6 || got[1].Units != 0 {
		t.Fatalf("got %+v, want the oldest line to have the one pack", got)
	}
	if got[0].LineSK != LineSK(t0, "TS-100001") {
		t.Errorf("line sk %q", got[0].LineSK)
	}
}

// TestProposeProperties checks every rule's shares on random deliveries: the sum is at
// most what was received, each at most its line's open, whole packs, the leftover under
// one pack unless every line is filled; and pro rata is fair to the pack.
func TestProposeProperties(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(38, 3))
	for round := 0; round < 3000; round++ {
		pack := 1 + r.IntN(12)
		n := 1 + r.IntN(20)
		ls := make([]Line, n)
		for i := range ls {
			packs := r.IntN(30)
			ls[i] = Line{OrderID: fmt.Sprintf("TS-%06d", i), PlacedAt: t0.Add(time.Duration(r.IntN(1000)) * time.Minute), PackSize: pack,
				Ordered: packs * pack, Open: packs * pack}
		}
		received := r.IntN(400) * pack
		if r.IntN(4) == 0 {
			received += r.IntN(pack) // a few stray units: they go to stock
		}
		for _, rule := range []string{RuleProRata, RuleFirstCome} {
			shares := Propose(rule, received, pack, ls)
			sum, open := 0, 0
			for _, s := range shares {
				sum += s.Units
				open += s.Want
				if s.Units%pack != 0 || s.Units < 0 || s.Units > s.Want {
					t.Fatalf("round %d %s: share %+v (pack %d)", round, rule, s, pack)
				}
			}
			if sum > received {
				t.Fatalf("round %d %s: %d allocated of %d received", round, rule, sum, received)
			}
			if sum < open && received-sum >= pack {
				t.Fatalf("round %d %s: %d left over (pack %d) while %d of %d open is unfilled", round, rule, received-sum, pack, open-sum, open)
			}
			if rule != RuleProRata || open == 0 {
				continue
			}
			// Fair to the pack: the exact share is received packs × want ÷ Σ want.
			packs := received / pack
			total := open / pack
			over, under := false, false
			for _, s := range shares {
				w, g := s.Want/pack, s.Units/pack
				num := min(packs, total) * w // share × total
				floor := num / total
				ceil := floor
				if num%total != 0 {
					ceil++
				}
				if g > ceil {
					over = true
				}
				if g < floor {
					under = true
				}
			}
			if over && under {
				t.Fatalf("round %d: unfair shares %+v of %d packs", round, shares, packs)
			}
			if over || under {
				t.Fatalf("round %d: a share outside its rounding %+v of %d packs", round, shares, packs)
			}
		}
	}
}
