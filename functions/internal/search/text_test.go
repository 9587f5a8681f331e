package search

import (
	"slices"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/seed"
)

func TestFold(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		// plain plurals
		{"cards", "card"}, {"balloons", "balloon"}, {"envelopes", "envelope"}, {"candles", "candle"},
		{"kids", "kid"}, {"cups", "cup"}, {"valves", "valve"}, {"doves", "dove"}, {"llamas", "llama"},
		{"photos", "photo"}, {"days", "day"}, {"horses", "horse"},
		// -es after s, x, z, sh, ch
		{"boxes", "box"}, {"foxes", "fox"}, {"glasses", "glass"}, {"dresses", "dress"}, {"wishes", "wish"},
		{"matches", "match"}, {"buzzes", "buzz"}, {"moustaches", "moustache"}, {"headaches", "headache"},
		// -ies
		{"parties", "party"}, {"diaries", "diary"}, {"accessories", "accessory"}, {"puppies", "puppy"},
		{"ties", "tie"}, {"pies", "pie"}, {"aunties", "auntie"}, {"besties", "bestie"}, {"cookies", "cookie"},
		// irregular
		{"men", "man"}, {"mens", "man"}, {"women", "woman"}, {"children", "child"}, {"feet", "foot"},
		{"leaves", "leaf"}, {"wives", "wife"}, {"elves", "elf"}, {"heroes", "hero"},
		// not plurals: left alone
		{"glass", "glass"}, {"news", "news"}, {"gas", "gas"}, {"bus", "bus"}, {"mrs", "mrs"}, {"yes", "yes"},
		{"christmas", "christmas"}, {"xmas", "xmas"}, {"canvas", "canvas"}, {"series", "series"},
		{"lens", "lens"}, {"status", "status"}, {"cactus", "cactus"}, {"tennis", "tennis"}, {"press", "press"},
		{"card", "card"}, {"party", "party"},
		// numbers, ordinals, SKUs and sizes
		{"18th", "18"}, {"1st", "1"}, {"2nd", "2"}, {"3rd", "3"}, {"21st", "21"}, {"100th", "100"},
		{"18", "18"}, {"gc101", "gc101"}, {"a5", "a5"}, {"c6", "c6"}, {"3d", "3d"}, {"00042", "00042"},
	} {
		if got := fold(tc.in); got != tc.want {
			t.Errorf("fold(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// catalogueWords is every word of the seed catalogue's text, split but not folded.
func catalogueWords(t *testing.T) []string {
	t.Helper()
	c, err := seed.Generate(seed.DefaultProducts)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, p := range c.Products {
		text = append(text, p.Name, p.Description)
	}
	for _, x := range c.Categories {
		text = append(text, x.Name)
	}
	for _, r := range c.Ranges {
		text = append(text, r.Name)
	}
	seen := map[string]bool{}
	for _, w := range split(strings.Join(text, " ")) {
		seen[w] = true
	}
	out := make([]string, 0, len(seen))
	for w := range seen {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

func TestFoldIsStable(t *testing.T) {
	t.Parallel()
	// A folded word folds to itself, so the index's words and the synonyms file's
	// (folded once) are what a folded query looks up.
	for _, w := range catalogueWords(t) {
		if f := fold(w); fold(f) != f {
			t.Errorf("fold(%q) = %q, but fold(%q) = %q", w, f, f, fold(f))
		}
	}
}

func TestWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Mother's Day Cards for the Family", []string{"mother", "day", "card", "family"}},
		{"Mr and Mrs Wedding Card", []string{"mr", "mrs", "wedding", "card"}},
		{"A pastel Robin design from our boxed christmas cards range. Sold in packs of 6.",
			[]string{"pastel", "robin", "design", "boxed", "christmas", "card", "range", "sold", "pack", "6"}},
		{"Wholesale party supplies, 18th birthday", []string{"party", "supply", "18", "birthday"}},
		{"the and for", []string{}},
	} {
		if got := words(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSynonymsFile(t *testing.T) {
	t.Parallel()
	ix := build(t, seed.DefaultProducts)
	found := func(w string) bool { return len(ix.all[w]) > 0 }

	// Each entry must lead somewhere in the catalogue, or it is dead weight.
	f := synonymFile{}
	if err := decodeStrict(synonymsJSON, &f); err != nil {
		t.Fatal(err)
	}
	for _, g := range f.Groups {
		if !slices.ContainsFunc(g, func(w string) bool { return found(fold(w)) }) {
			t.Errorf("no word of group %q is in the seed catalogue", g)
		}
	}
	for k, ws := range f.Expand {
		for _, w := range ws {
			if !found(fold(w)) {
				t.Errorf("%q expands to %q, which is not in the seed catalogue", k, w)
			}
		}
	}
	for w := range synonyms {
		if stopWords[w] {
			t.Errorf("%q is both a synonym and a stop word", w)
		}
	}

	for _, tc := range []struct {
		word string
		want []string
	}{
		{"xmas", []string{"christmas"}},
		{"christmas", []string{"xmas"}},
		{"bday", []string{"birthday"}},
		{"congrat", []string{"congratulation"}}, // both folded: "congrats" finds "congratulations"
		{"man", []string{"gent", "gentleman", "male"}},
		{"him", []string{"brother", "dad", "daddy", "father", "gent", "gentleman", "grandad", "granddad",
			"grandfather", "grandpa", "hubby", "husband", "male", "man", "nephew", "son", "uncle"}},
	} {
		if got := synonyms[tc.word]; !slices.Equal(got, tc.want) {
			t.Errorf("synonyms[%q] = %q, want %q", tc.word, got, tc.want)
		}
	}
}

func TestParseSynonymsRefusesABadFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, problem string }{
		{`{"groups": [["xmas", "christmas"]], "extra": 1}`, "unknown field"},
		{`{"groups": [["gift wrap", "wrap"]]}`, "not one lowercase word"},
		{`{"groups": [["Xmas", "christmas"]]}`, "not one lowercase word"},
		{`{"groups": [["the", "christmas"]]}`, "stop word"},
		{`{"groups": [["xmas", "christmas"], ["noel", "xmas"]]}`, "two groups"},
		{`{"groups": [["cards", "card"]]}`, "fewer than two"},
		{`{"expand": {"him": []}}`, "expands to nothing"},
		{`{"expand": {"him": ["for"]}}`, "stop word"},
	} {
		if _, err := parseSynonyms([]byte(tc.file)); err == nil || !strings.Contains(err.Error(), tc.problem) {
			t.Errorf("%s: error %v, want one saying %q", tc.file, err, tc.problem)
		}
	}
}
