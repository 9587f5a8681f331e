package catalogue

import "testing"

func TestSlugifyAndPaths(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Female Birthday Cards":  "female-birthday-cards",
		"Ribbons and Bows":       "ribbons-and-bows",
		"Paper & Carrier Bags":   "paper-and-carrier-bags",
		"Mother's Day -- Cards!": "mother-s-day-cards",
		"  Age 100  ":            "age-100",
		"Café Crème":             "caf-cr-me",
	} {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
	c := Category{ID: 120, Slug: "value-cards"}
	if got := CategoryPath(c); got != "/outlet/section/value-cards/120/" {
		t.Errorf("CategoryPath = %q", got)
	}
	if got := RangePath("wholesale_balloons"); got != "/outlet/r/wholesale_balloons/" {
		t.Errorf("RangePath = %q", got)
	}
}
