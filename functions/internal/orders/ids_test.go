package orders

import (
	"strings"
	"testing"
)

func TestIDShapes(t *testing.T) {
	for _, tc := range []struct {
		valid func(string) bool
		s     string
		want  bool
	}{
		{ValidID, "TS-100001", true},
		{ValidID, "TS-9223372036854775807", true}, // 19 digits: an int64 counter
		{ValidID, "TS-" + strings.Repeat("1", 1100), false},
		{ValidID, "TS-1", false},
		{ValidID, "ts-100001", false},
		{ValidID, "TS-100001\x00", false},
		{ValidID, "TS-100001\n", false},
		{ValidID, "", false},
		{ValidKey, "checkout-0123456789", true},
		{ValidKey, "short", false},
		{ValidKey, strings.Repeat("k", 65), false},
		{ValidKey, "checkout 0123456789", false},
		{ValidOptionID, "next-day", true},
		{ValidOptionID, strings.Repeat("d", 33), false},
		{ValidOptionID, "Next Day", false},
	} {
		if got := tc.valid(tc.s); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.s[:min(len(tc.s), 30)], got, tc.want)
		}
	}
}
