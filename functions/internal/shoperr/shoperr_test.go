package shoperr

import "testing"

// TestLinesErrorIsSentences checks that a refusal of several lines reads as sentences:
// how many lines, then each line's number, SKU and problem.
func TestLinesErrorIsSentences(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lines []LineRefusal
		want  string
	}{
		{[]LineRefusal{{Index: 0, SKU: "GC101-00001", LineProblem: &LineProblem{Code: ProblemOutOfStock, Msg: "Robin card is out of stock."}}},
			"1 line cannot be added, so nothing was added. Line 1 (GC101-00001): Robin card is out of stock."},
		{[]LineRefusal{
			{Index: 1, SKU: "GC101-00002", LineProblem: &LineProblem{Code: ProblemDiscontinued, Msg: "Wren card is no longer available."}},
			{Index: 4, SKU: "GC101-00005", LineProblem: &LineProblem{Code: ProblemUnknown, Msg: "There is no product with SKU GC101-00005."}},
		}, "2 lines cannot be added, so nothing was added. Line 2 (GC101-00002): Wren card is no longer available. Line 5 (GC101-00005): There is no product with SKU GC101-00005."},
	} {
		if got := (&LinesError{Lines: tc.lines}).Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
