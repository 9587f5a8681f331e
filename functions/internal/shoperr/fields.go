package shoperr

import (
	"maps"
	"slices"
	"strings"
)

// FieldsError is a request several of whose fields break rules, each a whole sentence
// under the field's name ("lines.2.units"), found after reading what the request names
// (a delivery's lines against the catalogue, an allocation against the open lines). The
// API answers it 400 with the problems, as it does a request that fails its own checks.
type FieldsError struct{ Problems map[string]string }

func (e *FieldsError) Error() string {
	keys := slices.Sorted(maps.Keys(e.Problems))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = e.Problems[k]
	}
	return strings.Join(parts, " ")
}
