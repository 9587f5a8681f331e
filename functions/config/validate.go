package config

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// shop-schema.json is the one statement of shop.json's rules: this file and
// site/lib/shop-validate.mjs both interpret it, with the same messages, and both are
// tested on shop-vectors.json.
//
//go:embed shop-schema.json
var schemaJSON []byte

// rule is one node of shop-schema.json.
type rule struct {
	Type      string           `json:"type"` // object, list, map, string, integer, boolean
	Fields    map[string]*rule `json:"fields"`
	Items     *rule            `json:"items"`
	Values    *rule            `json:"values"`
	MinItems  *int             `json:"minItems"`
	UniqueBy  string           `json:"uniqueBy"`
	KeyPattn  string           `json:"keyPattern"`
	KeyHint   string           `json:"keyHint"`
	Min       *float64         `json:"min"`
	Max       *float64         `json:"max"`
	MinLength *int             `json:"minLength"`
	MaxLength *int             `json:"maxLength"`
	Pattern   string           `json:"pattern"`
	Hint      string           `json:"hint"`
}

var schema = func() *rule {
	var r rule
	d := json.NewDecoder(bytes.NewReader(schemaJSON))
	if err := d.Decode(&r); err != nil {
		panic("shop-schema.json: " + err.Error())
	}
	return &r
}()

const commentKey = "$comment"

var typeWords = map[string]string{
	"object": "an object", "list": "a list", "map": "an object", "string": "text",
	"integer": "a whole number", "boolean": "true or false",
}

// Validate checks a shop.json document against shop-schema.json and answers nil or
// one error naming every problem: "shop.json: a; b". Keys are visited in sorted
// order, so the message is the same as the site's for the same file.
func Validate(doc []byte) error {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return fmt.Errorf("shop.json: not valid JSON: %v", err)
	}
	if d.More() {
		return fmt.Errorf("shop.json: not valid JSON: more than one value")
	}
	var problems []string
	check(schema, v, "", &problems)
	if len(problems) > 0 {
		return fmt.Errorf("shop.json: %s", strings.Join(problems, "; "))
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func check(r *rule, v any, path string, problems *[]string) {
	add := func(format string, a ...any) { *problems = append(*problems, fmt.Sprintf(format, a...)) }
	name := path
	if name == "" {
		name = "the file"
	}
	switch r.Type {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			add("%s must be %s", name, typeWords[r.Type])
			return
		}
		for _, k := range sortedKeys(obj) {
			if _, known := r.Fields[k]; !known && k != commentKey {
				add("unknown key %s", join(path, k))
			}
		}
		if c, ok := obj[commentKey]; ok {
			if _, isText := c.(string); !isText {
				add("%s must be text", join(path, commentKey))
			}
		}
		for _, k := range sortedKeys(r.Fields) {
			if fv, ok := obj[k]; ok {
				check(r.Fields[k], fv, join(path, k), problems)
			} else {
				add("%s is missing", join(path, k))
			}
		}
	case "list":
		list, ok := v.([]any)
		if !ok {
			add("%s must be %s", name, typeWords[r.Type])
			return
		}
		if r.MinItems != nil && len(list) < *r.MinItems {
			add("%s must list at least %d", name, *r.MinItems)
		}
		seen := map[string]bool{}
		for i, item := range list {
			at := fmt.Sprintf("%s[%d]", path, i)
			check(r.Items, item, at, problems)
			if r.UniqueBy == "" {
				continue
			}
			if obj, ok := item.(map[string]any); ok {
				if id, ok := obj[r.UniqueBy].(string); ok {
					if seen[id] {
						add("%s.%s %q is listed twice", at, r.UniqueBy, id)
					}
					seen[id] = true
				}
			}
		}
	case "map":
		obj, ok := v.(map[string]any)
		if !ok {
			add("%s must be %s", name, typeWords[r.Type])
			return
		}
		keyPattern := regexp.MustCompile(r.KeyPattn)
		for _, k := range sortedKeys(obj) {
			if k == commentKey {
				if _, isText := obj[k].(string); !isText {
					add("%s must be text", join(path, k))
				}
				continue
			}
			if r.KeyPattn != "" && !keyPattern.MatchString(k) {
				add("%s: key %q must be %s", name, k, r.KeyHint)
				continue
			}
			check(r.Values, obj[k], join(path, k), problems)
		}
	case "string":
		s, ok := v.(string)
		if !ok {
			add("%s must be %s", name, typeWords[r.Type])
			return
		}
		switch {
		case r.MinLength != nil && utf8.RuneCountInString(strings.TrimSpace(s)) < *r.MinLength:
			add("%s must not be empty", name)
		case r.MaxLength != nil && utf8.RuneCountInString(s) > *r.MaxLength:
			add("%s must be at most %d characters", name, *r.MaxLength)
		case r.Pattern != "" && !regexp.MustCompile(r.Pattern).MatchString(s):
			add("%s %q must be %s", name, s, r.Hint)
		}
	case "integer":
		n, ok := v.(json.Number)
		f, err := strconv.ParseFloat(string(n), 64)
		if !ok || err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53-1 {
			add("%s must be %s", name, typeWords[r.Type])
			return
		}
		switch {
		case r.Min != nil && f < *r.Min && *r.Min == 0:
			add("%s must not be negative", name)
		case r.Min != nil && f < *r.Min:
			add("%s must be at least %s", name, num(*r.Min))
		case r.Max != nil && f > *r.Max:
			add("%s must be at most %s", name, num(*r.Max))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			add("%s must be %s", name, typeWords[r.Type])
		}
	default:
		panic("shop-schema.json: unknown type " + r.Type + " at " + name)
	}
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
