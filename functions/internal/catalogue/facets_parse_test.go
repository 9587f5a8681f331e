package catalogue

import (
	"slices"
	"strings"
	"testing"
)

func TestParseFacetCell(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		key, cell string
		want      []string
		problem   string // part of the error's message; "" for none
	}{
		{FacetOccasion, "", nil, ""},
		{FacetOccasion, "  |  ; ", nil, ""},
		{FacetOccasion, "birthday", []string{"birthday"}, ""},
		{FacetOccasion, "Anniversary | BIRTHDAY", []string{"birthday", "anniversary"}, ""},
		{FacetOccasion, "New baby; new-baby, birthday", []string{"birthday", "new-baby"}, ""},
		{FacetOccasion, "Any occasion (blank)", []string{"any-occasion"}, ""},
		{FacetRecipient, "For her|Mum", []string{"her", "mum"}, ""},
		{FacetAge, "18|1|100", []string{"1", "18", "100"}, ""},
		{FacetStyle, "gold foil|Pop  art", []string{"gold-foil", "pop-art"}, ""},
		{FacetOccasion, "birthday|bday", nil, `"bday"`},
		{FacetAge, "19", nil, "1, 2, 3"},
		{"colour", "red", nil, `"colour"`},
	} {
		t.Run(c.key+" "+c.cell, func(t *testing.T) {
			t.Parallel()
			got, err := ParseFacetCell(c.key, c.cell)
			if c.problem != "" {
				if err == nil || !strings.Contains(err.Error(), c.problem) || !strings.HasSuffix(err.Error(), ".") {
					t.Fatalf("got %v, %v; want an error naming %s", got, err, c.problem)
				}
				return
			}
			if err != nil || !slices.Equal(got, c.want) || (c.want == nil) != (got == nil) {
				t.Fatalf("got %#v, %v; want %#v", got, err, c.want)
			}
		})
	}
}

func TestParseFacetCellNamesTheAllowedIDs(t *testing.T) {
	t.Parallel()
	_, err := ParseFacetCell(FacetStyle, "sparkly")
	if err == nil || !strings.Contains(err.Error(), "gold-foil, glitter,") || !strings.Contains(err.Error(), "traditional") {
		t.Fatalf("error %v", err)
	}
}

func TestFormatFacetCellRoundTrips(t *testing.T) {
	t.Parallel()
	for _, d := range FacetDefs() {
		var ids []string
		for _, v := range d.Values {
			ids = append(ids, v.ID)
		}
		got, err := ParseFacetCell(d.Key, FormatFacetCell(ids))
		if err != nil || !slices.Equal(got, ids) {
			t.Errorf("%s: %v, %v", d.Key, got, err)
		}
	}
	if FormatFacetCell(nil) != "" {
		t.Error("no values should be an empty cell")
	}
}

func TestFacetsCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		f    Facets
		ok   bool
	}{
		{"none", Facets{}, true},
		{"in order", Facets{Occasion: []string{"birthday", "any-occasion"}, Recipient: []string{"her"}, Age: []string{"1", "100"}, Style: []string{"humour"}}, true},
		{"unknown", Facets{Style: []string{"sparkly"}}, false},
		{"label not id", Facets{Recipient: []string{"For her"}}, false},
		{"out of order", Facets{Age: []string{"18", "1"}}, false},
		{"twice", Facets{Occasion: []string{"birthday", "birthday"}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if err := c.f.Check(); (err == nil) != c.ok {
				t.Fatalf("Check = %v", err)
			}
		})
	}
}

func TestFacetsSetAndEqual(t *testing.T) {
	t.Parallel()
	var f Facets
	for _, d := range FacetDefs() {
		f.Set(d.Key, []string{d.Values[0].ID})
		if got := f.Get(d.Key); !slices.Equal(got, []string{d.Values[0].ID}) {
			t.Errorf("%s: %v", d.Key, got)
		}
	}
	f.Set(FacetAge, []string{})
	if f.Age != nil {
		t.Error("an empty list should be stored as nil")
	}
	if !(Facets{Age: []string{}}).Equal(Facets{}) || (Facets{Age: []string{"1"}}).Equal(Facets{}) {
		t.Error("Equal")
	}
}
