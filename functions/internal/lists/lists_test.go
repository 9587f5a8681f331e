package lists

import (
	"errors"
	"slices"
	"testing"
)

func TestAddMergesAndSetRemoves(t *testing.T) {
	l := List{Lines: []Line{{"A", 6}, {"B", 12}}}
	if err := l.Add([]Line{{"B", 6}, {"C", 4}}); err != nil {
		t.Fatal(err)
	}
	if want := []Line{{"A", 6}, {"B", 18}, {"C", 4}}; !slices.Equal(l.Lines, want) {
		t.Fatalf("after add: %v, want %v", l.Lines, want)
	}
	if err := l.Set([]Line{{"A", 0}, {"C", 8}, {"D", 2}, {"E", 0}}); err != nil {
		t.Fatal(err)
	}
	if want := []Line{{"B", 18}, {"C", 8}, {"D", 2}}; !slices.Equal(l.Lines, want) {
		t.Fatalf("after set: %v, want %v", l.Lines, want)
	}
	if err := l.Add([]Line{{"B", MaxQuantity}}); err != nil || l.Lines[0].Quantity != MaxQuantity {
		t.Fatalf("add past the most: %v %v", err, l.Lines[0])
	}
}

func TestAListHoldsAtMostMaxLines(t *testing.T) {
	var l List
	full := make([]Line, MaxLines)
	for i := range full {
		full[i] = Line{SKU: NewID(), Quantity: 1}
	}
	if err := l.Set(full); err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(l.Lines)
	if err := l.Add([]Line{{"ONE-MORE", 1}}); !errors.As(err, new(TooLongError)) {
		t.Fatalf("line %d added: %v", MaxLines+1, err)
	}
	if !slices.Equal(l.Lines, before) {
		t.Fatal("a refused add changed the list")
	}
	if err := l.Add([]Line{{full[0].SKU, 1}}); err != nil {
		t.Fatalf("more of a line of a full list: %v", err)
	}
}

func TestIDs(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewID()
		if !ValidID(id) || seen[id] {
			t.Fatalf("id %q valid %v, seen %v", id, ValidID(id), seen[id])
		}
		seen[id] = true
	}
	for _, bad := range []string{"", "abc", "ABCDEFGHJKMN", "abcdefghjkm1", "abcdefghjkmno", "../../orders"} {
		if ValidID(bad) {
			t.Errorf("%q taken for a list id", bad)
		}
	}
}
