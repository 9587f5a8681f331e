package catalogue

import (
	"fmt"
	"slices"
	"strings"
)

// facetIndex is one facet's vocabulary as the checks read it: each value's place in the
// facet's order, by id, and by lower-case id and label (what an import cell may hold).
type facetIndex struct {
	def   FacetDef
	place map[string]int // id → position
	named map[string]int // lower-case id or label → position
}

// facetIndexes is the vocabulary by facet key, made once from facetDefs.
var facetIndexes = func() map[string]facetIndex {
	out := make(map[string]facetIndex, len(facetDefs))
	for _, d := range facetDefs {
		ix := facetIndex{def: d, place: map[string]int{}, named: map[string]int{}}
		for i, v := range d.Values {
			ix.place[v.ID] = i
			ix.named[strings.ToLower(v.ID)] = i
			ix.named[strings.ToLower(v.Label)] = i
		}
		out[d.Key] = ix
	}
	return out
}()

// ids lists the facet's value ids, as messages name what is allowed.
func (ix facetIndex) ids() string {
	l := make([]string, len(ix.def.Values))
	for i, v := range ix.def.Values {
		l[i] = v.ID
	}
	return strings.Join(l, ", ")
}

// ParseFacetCell reads a catalogue import cell of facet key: values separated by |
// (; and , are read the same), each a value's id or label in any case. It answers the
// ids in the vocabulary's order without repeats, nil for a blank cell. A value the
// vocabulary does not hold is an error whose message is a whole sentence naming it and
// the ids the facet takes.
func ParseFacetCell(key, cell string) ([]string, error) {
	ix, ok := facetIndexes[key]
	if !ok {
		return nil, sentencef("There is no facet %q.", key)
	}
	seen := make([]bool, len(ix.def.Values))
	found := false
	for _, part := range strings.FieldsFunc(cell, func(r rune) bool { return r == '|' || r == ';' || r == ',' }) {
		part = strings.Join(strings.Fields(part), " ") // trimmed, inner spaces as one
		if part == "" {
			continue
		}
		i, known := ix.named[strings.ToLower(part)]
		if !known {
			return nil, sentencef("The %s %q is not one the shop knows; write any of %s, separated by |.", key, clip(part), ix.ids())
		}
		seen[i], found = true, true
	}
	if !found {
		return nil, nil
	}
	var out []string
	for i, v := range ix.def.Values {
		if seen[i] {
			out = append(out, v.ID)
		}
	}
	return out, nil
}

// sentenceError is a problem told to staff as a whole sentence (so it starts with a
// capital and ends with a full stop, unlike a Go error string).
type sentenceError string

func (e sentenceError) Error() string { return string(e) }

func sentencef(format string, args ...any) error { return sentenceError(fmt.Sprintf(format, args...)) }

// FormatFacetCell writes facet value ids as the catalogue export's cell: joined by |.
func FormatFacetCell(ids []string) string { return strings.Join(ids, "|") }

// clip shortens a value named in a message to 40 characters.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// Check reports whether f holds only ids of the vocabulary, each facet's in the
// vocabulary's order and without repeats; the error names the first that does not.
func (f Facets) Check() error {
	for _, d := range facetDefs {
		ix := facetIndexes[d.Key]
		last := -1
		for _, id := range f.Get(d.Key) {
			i, known := ix.place[id]
			switch {
			case !known:
				return sentencef("The %s %q is not one the shop knows (%s).", d.Key, clip(id), ix.ids())
			case i == last:
				return sentencef("The %s %q is there twice.", d.Key, id)
			case i < last:
				return sentencef("The %s values %s are not in the vocabulary's order (%s).", d.Key, strings.Join(f.Get(d.Key), ", "), ix.ids())
			}
			last = i
		}
	}
	return nil
}

// Set makes ids the values f holds for the facet key (nil for none); an unknown key
// changes nothing.
func (f *Facets) Set(key string, ids []string) {
	if len(ids) == 0 {
		ids = nil
	}
	switch key {
	case FacetOccasion:
		f.Occasion = ids
	case FacetRecipient:
		f.Recipient = ids
	case FacetAge:
		f.Age = ids
	case FacetStyle:
		f.Style = ids
	}
}

// Equal reports whether f and g hold the same values, nil and empty alike.
func (f Facets) Equal(g Facets) bool {
	for _, d := range facetDefs {
		if !slices.Equal(f.Get(d.Key), g.Get(d.Key)) {
			return false
		}
	}
	return true
}
