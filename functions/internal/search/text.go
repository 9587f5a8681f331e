package search

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// The words of product text and of queries go through the same steps, so a word
// typed finds the word written: split into lowercase letters and digits, drop stop
// words, fold plurals (and ordinals) to one form. Only queries then look up synonyms.

// stopWords are dropped from product text and queries alike: the words buyers type
// around what they want ("birthday cards for him", "wholesale christmas cards") that
// every product would match or none would. "s" is the possessive ("Mother's").
// him and her are not here: they are synonyms (synonyms.json).
var stopWords = setOf(
	"a", "an", "and", "or", "the", "for", "of", "to", "in", "on", "at", "by", "with", "from", "as",
	"is", "are", "be", "it", "its", "this", "that", "these", "those", "some", "any",
	"i", "me", "my", "we", "our", "you", "your", "his", "hers", "their", "s",
	"wholesale", "trade", "bulk",
)

// irregular are plurals the suffix rules would fold wrongly.
var irregular = map[string]string{
	"men": "man", "mens": "man", "women": "woman", "womens": "woman", "gentlemen": "gentleman",
	"children": "child", "childrens": "child", "feet": "foot", "teeth": "tooth", "geese": "goose", "mice": "mouse",
	"leaves": "leaf", "wolves": "wolf", "shelves": "shelf", "halves": "half", "loaves": "loaf", "scarves": "scarf",
	"wives": "wife", "knives": "knife", "calves": "calf", "elves": "elf", "thieves": "thief",
	"heroes": "hero", "potatoes": "potato", "tomatoes": "tomato", "dominoes": "domino", "quizzes": "quiz",
}

// notPlural are words that end in s but are not plurals.
var notPlural = setOf("news", "lens", "series", "species", "christmas", "xmas", "canvas", "atlas", "pampas",
	"chaos", "always", "perhaps", "thanks")

// ieNouns end in -ie, so their plural loses only the s ("aunties", not "aunty").
var ieNouns = setOf("auntie", "bestie", "cookie", "movie", "zombie", "brownie", "pixie", "hoodie", "onesie",
	"selfie", "smoothie", "veggie", "budgie", "nightie", "sweetie", "cutie", "genie", "rookie", "freebie", "hippie")

// cheNouns end in -che, so their plural loses only the s ("moustaches", not "moustach").
var cheNouns = setOf("ache", "headache", "moustache", "mustache", "quiche", "niche", "cliche", "brioche",
	"avalanche", "cache", "creche", "panache")

// fold maps a lowercase word to the form both the index and queries use: a light
// English plural folding (cards → card, boxes → box, parties → party, glasses → glass;
// glass, news, gas and christmas stay) and ordinals to their number (18th → 18).
// Words under four letters and words ending in ss, us or is are left alone, so mrs,
// bus and tennis stay. fold(fold(w)) == fold(w).
func fold(w string) string {
	if n := strings.TrimRight(w, "0123456789"); n == "" {
		return w
	} else if len(n) < len(w) {
		return w // letters then digits: a SKU or a size (gc101, a5)
	}
	if d := strings.TrimLeft(w, "0123456789"); d != w {
		switch d {
		case "st", "nd", "rd", "th":
			return w[:len(w)-2]
		}
		return w
	}
	if f, ok := irregular[w]; ok {
		return f
	}
	n := len(w)
	if n < 4 || w[n-1] != 's' || notPlural[w] {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "ies"):
		if n == 4 || ieNouns[w[:n-1]] {
			return w[:n-1] // ties → tie, aunties → auntie
		}
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zzes"),
		strings.HasSuffix(w, "shes"):
		return w[:n-2]
	case strings.HasSuffix(w, "ches"):
		if cheNouns[w[:n-1]] {
			return w[:n-1]
		}
		return w[:n-2]
	}
	return w[:n-1]
}

// split cuts text into lowercase words of letters and digits.
func split(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// words are the indexed words of product text: split, without stop words, folded.
func words(s string) []string {
	raw := split(s)
	out := raw[:0]
	for _, w := range raw {
		if !stopWords[w] {
			out = append(out, fold(w))
		}
	}
	return out
}

//go:embed synonyms.json
var synonymsJSON []byte

// synonyms maps a folded query word to the other folded words it also finds.
var synonyms = mustParseSynonyms(synonymsJSON)

// synonymFile is synonyms.json: groups of words that mean the same, and one-way
// expansions ("him" also finds male, dad, brother, …).
type synonymFile struct {
	About  string              `json:"about"`
	Groups [][]string          `json:"groups"`
	Expand map[string][]string `json:"expand"`
}

func mustParseSynonyms(b []byte) map[string][]string {
	m, err := parseSynonyms(b)
	if err != nil {
		panic("search: synonyms.json: " + err.Error())
	}
	return m
}

// parseSynonyms reads a synonyms file: every word of a group finds every other word
// of it; an expanded word finds its listed words and each one's group. Words are
// folded as the index folds them, so the file may say "congratulations".
func parseSynonyms(b []byte) (map[string][]string, error) {
	var f synonymFile
	if err := decodeStrict(b, &f); err != nil {
		return nil, err
	}
	word := func(w string) (string, error) {
		if s := split(w); len(s) != 1 || s[0] != w {
			return "", fmt.Errorf("%q is not one lowercase word", w)
		}
		if stopWords[w] {
			return "", fmt.Errorf("%q is a stop word", w)
		}
		return fold(w), nil
	}
	groupOf := map[string][]string{}
	for _, g := range f.Groups {
		var folded []string
		for _, w := range g {
			fw, err := word(w)
			if err != nil {
				return nil, err
			}
			if groupOf[fw] != nil {
				return nil, fmt.Errorf("%q is in two groups", w)
			}
			if !slices.Contains(folded, fw) {
				folded = append(folded, fw)
			}
		}
		if len(folded) < 2 {
			return nil, fmt.Errorf("group %v has fewer than two words", g)
		}
		for _, fw := range folded {
			groupOf[fw] = folded
		}
	}
	out := map[string][]string{}
	add := func(key string, ws ...string) {
		for _, w := range ws {
			if w != key && !slices.Contains(out[key], w) {
				out[key] = append(out[key], w)
			}
		}
	}
	for w, g := range groupOf {
		add(w, g...)
	}
	for k, ws := range f.Expand {
		fk, err := word(k)
		if err != nil {
			return nil, err
		}
		if len(ws) == 0 {
			return nil, fmt.Errorf("%q expands to nothing", k)
		}
		for _, w := range ws {
			fw, err := word(w)
			if err != nil {
				return nil, err
			}
			add(fk, fw)
			add(fk, groupOf[fw]...)
		}
	}
	for _, ws := range out {
		slices.Sort(ws)
	}
	return out, nil
}

// term is one word of a query: the word as the index folds it and the synonyms it
// also finds.
type term struct {
	word string
	alts []string
}

// decodeStrict decodes JSON, refusing fields the type does not have (a typo in the
// file's keys would otherwise drop its entries silently).
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}
