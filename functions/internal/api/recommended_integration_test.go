package api

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestRecommendedDrawsOnTheNewestLines: a basket of lines in 6 categories is recommended
// products of the categories of its 4 newest lines only (basketCategories), round robin,
// so what a recommendation reads does not grow with the basket.
func TestRecommendedDrawsOnTheNewestLines(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	u := s.buyer()
	var want []string
	for i, id := range []int{81, 82, 83, 84, 85, 86} { // added oldest first
		line := s.inCategory(id, fmt.Sprintf("Newest %d line", id))
		other := s.inCategory(id, fmt.Sprintf("Newest %d other", id))
		s.set(u, line, 6)
		time.Sleep(2 * time.Millisecond) // each line its own first-added time
		if i >= 2 {
			want = append(want, other.SKU)
		}
	}
	code, body := s.c.post("/api/recommended", fmt.Sprintf(`{"token":%q}`, u.IDToken), nil)
	got := names(body["products"].([]any), "sku")
	slices.Sort(got)
	slices.Sort(want)
	if code != 200 || body["reason"] != "basket" || !slices.Equal(got, want) {
		t.Fatalf("recommended: %d %v, want the other products of the 4 newest lines' categories %v", code, body, want)
	}
}
