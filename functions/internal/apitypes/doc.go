// Package apitypes turns Go answer types into TypeScript declarations by reflection,
// following encoding/json's rules (json tags, omitempty, embedded structs, pointers as
// null), so the site's API types are made from the types the handlers encode.
//
// Two integer types carry a meaning the wire contract gives them (docs/api.md): an int64
// is money in pence (TypeScript Pence) and UnixMillis is a moment in Unix
// ms (UnixMillis). Both are numbers; the names say what the number is. WireProblems checks
// types against the wire rules that give them those meanings.
//
// A field's ts tag replaces its TypeScript type, for a string that holds one of a few
// values: Kind string `json:"kind" ts:"'home'"`.
package apitypes
