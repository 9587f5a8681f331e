package catalogue

import (
	_ "embed"
	"encoding/json"
)

// Facets are the values a buyer shops a product by beyond its category (docs/catalogue.md
// "Facets"): each field holds value ids of the vocabulary (facets.json), in the
// vocabulary's order, nil for none. Price band, pack size and "new in" are not stored:
// they follow from the price, the pack and Product.Published.
type Facets struct {
	Occasion  []string `json:"occasion,omitempty"`
	Recipient []string `json:"recipient,omitempty"`
	Age       []string `json:"age,omitempty"`
	Style     []string `json:"style,omitempty"`
}

// The stored facets' keys: the catalogue import's column names and the query string's.
const (
	FacetOccasion  = "occasion"
	FacetRecipient = "recipient"
	FacetAge       = "age"
	FacetStyle     = "style"
)

// FacetValue is one value of a facet: ID in imports and URLs, Label for buyers.
type FacetValue struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// FacetDef is one stored facet and its values, in the order filter panels list them.
type FacetDef struct {
	Key    string       `json:"key"`
	Label  string       `json:"label"`
	Values []FacetValue `json:"values"`
}

//go:embed facets.json
var facetsJSON []byte

// facetDefs is facets.json, read once.
var facetDefs = func() []FacetDef {
	var f struct {
		Facets []FacetDef `json:"facets"`
	}
	if err := json.Unmarshal(facetsJSON, &f); err != nil {
		panic("catalogue: facets.json: " + err.Error())
	}
	return f.Facets
}()

// FacetDefs answers the stored facets (occasion, recipient, age, style) with their values.
// The slice is shared: callers must not change it.
func FacetDefs() []FacetDef { return facetDefs }

// Get answers the value ids f holds for the facet key (nil for an unknown key).
func (f Facets) Get(key string) []string {
	switch key {
	case FacetOccasion:
		return f.Occasion
	case FacetRecipient:
		return f.Recipient
	case FacetAge:
		return f.Age
	case FacetStyle:
		return f.Style
	}
	return nil
}

// IsZero reports whether f holds no value.
func (f Facets) IsZero() bool {
	return len(f.Occasion) == 0 && len(f.Recipient) == 0 && len(f.Age) == 0 && len(f.Style) == 0
}
