package store

import (
	"testing"
	"time"
)

func TestParsePriceGroupCache(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{"", 60 * time.Second, false},
		{"0", -1, false},
		{"1", time.Second, false},
		{"60", 60 * time.Second, false},
		{"61", 0, true},
		{"-1", 0, true},
		{"1.5", 0, true},
		{"a minute", 0, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parsePriceGroupCache(tc.in)
			if (err != nil) != tc.bad || got != tc.want {
				t.Fatalf("parsePriceGroupCache(%q) = %v, %v", tc.in, got, err)
			}
		})
	}
}

// A cache of no time keeps nothing; a Config's 0 is the default; more than a minute is a minute.
func TestNewGroupCache(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ttl, want time.Duration
	}{{0, DefaultPriceGroupCache}, {-1, 0}, {time.Second, time.Second}, {time.Hour, DefaultPriceGroupCache}} {
		if got := newGroupCache(tc.ttl, nil).ttl; got != tc.want {
			t.Errorf("newGroupCache(%v).ttl = %v, want %v", tc.ttl, got, tc.want)
		}
	}
}
