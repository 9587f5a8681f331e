package search

import "testing"

func TestWithinEdits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		k    int
		want bool
	}{
		{"birthdy", "birthday", 1, true},
		{"brithday", "birthday", 2, true},
		{"brithday", "birthday", 1, false},
		{"card", "cards", 1, true},
		{"card", "care", 1, true},
		{"card", "cake", 1, false},
		{"christmas", "chrstmas", 1, true},
		{"mum", "mum", 0, true},
		{"ballon", "balloon", 1, true},
		{"abc", "abcdef", 2, false},
		{"café", "cafe", 1, true},
	} {
		if got := withinEdits(tc.a, tc.b, tc.k); got != tc.want {
			t.Errorf("withinEdits(%q, %q, %d) = %v, want %v", tc.a, tc.b, tc.k, got, tc.want)
		}
	}
}
