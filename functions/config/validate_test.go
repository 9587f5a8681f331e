package config

import (
	_ "embed"
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

type vector struct {
	Name   string         `json:"name"`
	Set    map[string]any `json:"set"`
	Delete []string       `json:"delete"`
	Error  *string        `json:"error"`
}

// walk answers the container holding path's last part, creating nothing.
func walk(t *testing.T, doc any, parts []string) any {
	t.Helper()
	for _, p := range parts {
		switch c := doc.(type) {
		case map[string]any:
			doc = c[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i >= len(c) {
				t.Fatalf("vector path part %q is not a position in a list of %d", p, len(c))
			}
			doc = c[i]
		default:
			t.Fatalf("vector path part %q is inside a %T", p, doc)
		}
	}
	return doc
}

func apply(t *testing.T, doc any, v vector) any {
	t.Helper()
	for _, path := range v.Delete {
		parts := strings.Split(path, ".")
		m, ok := walk(t, doc, parts[:len(parts)-1]).(map[string]any)
		if _, there := m[parts[len(parts)-1]]; !ok || !there {
			t.Fatalf("%s: nothing to delete at %s", v.Name, path)
		}
		delete(m, parts[len(parts)-1])
	}
	for _, path := range sortedKeys(v.Set) {
		parts := strings.Split(path, ".")
		switch c := walk(t, doc, parts[:len(parts)-1]).(type) {
		case map[string]any:
			c[parts[len(parts)-1]] = v.Set[path]
		case []any:
			i, _ := strconv.Atoi(parts[len(parts)-1])
			c[i] = v.Set[path]
		default:
			t.Fatalf("%s: cannot set %s", v.Name, path)
		}
	}
	return doc
}

// TestVectors runs shop-vectors.json, the cases site/lib/shop-validate.test.ts runs too:
// the same file must get the same answer, word for word, on both sides.
func TestVectors(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("shop-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Vectors []vector }
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) < 10 {
		t.Fatalf("only %d vectors", len(file.Vectors))
	}
	for _, v := range file.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			var doc any
			if err := json.Unmarshal(shopJSON, &doc); err != nil {
				t.Fatal(err)
			}
			patched, err := json.Marshal(apply(t, doc, v))
			if err != nil {
				t.Fatal(err)
			}
			_, err = parse(patched)
			switch {
			case v.Error == nil && err != nil:
				t.Fatalf("want valid, got %v", err)
			case v.Error != nil && err == nil:
				t.Fatalf("want %q, got valid", *v.Error)
			case v.Error != nil && err.Error() != *v.Error:
				t.Fatalf("message\n got %s\nwant %s", err, *v.Error)
			}
		})
	}
}

// TestSchemaNamesTheStruct: the schema names exactly the fields of Shop (and of the
// structs inside it), so Load's json.Unmarshal after Validate drops nothing and leaves
// no field unchecked.
func TestSchemaNamesTheStruct(t *testing.T) {
	t.Parallel()
	var compare func(r *rule, typ reflect.Type, path string)
	compare = func(r *rule, typ reflect.Type, path string) {
		switch typ.Kind() {
		case reflect.Struct:
			var fields []string
			for i := range typ.NumField() {
				tag := strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]
				fields = append(fields, tag)
				sub, ok := r.Fields[tag]
				if !ok {
					t.Errorf("%s.%s: in the struct, not in shop-schema.json", path, tag)
					continue
				}
				compare(sub, typ.Field(i).Type, path+"."+tag)
			}
			sort.Strings(fields)
			if !reflect.DeepEqual(fields, sortedKeys(r.Fields)) {
				t.Errorf("%s: struct fields %v, schema fields %v", path, fields, sortedKeys(r.Fields))
			}
		case reflect.Slice:
			compare(r.Items, typ.Elem(), path+"[]")
		case reflect.Map:
			compare(r.Values, typ.Elem(), path+"{}")
		default:
			want := map[reflect.Kind]string{reflect.String: "string", reflect.Int: "integer", reflect.Int64: "integer", reflect.Bool: "boolean"}[typ.Kind()]
			if r.Type != want {
				t.Errorf("%s: struct kind %s, schema type %q", path, typ.Kind(), r.Type)
			}
		}
	}
	compare(schema, reflect.TypeFor[Shop](), "shop")
}

// TestLoadRefusesUnknownKeys: the embedded file goes through the same check.
func TestParseRefusesAnUnknownKey(t *testing.T) {
	t.Parallel()
	doc := strings.Replace(string(shopJSON), `"freeDeliveryThresholdPence"`, `"freeDeliveryTresholdPence"`, 1)
	if _, err := parse([]byte(doc)); err == nil || !strings.Contains(err.Error(), "unknown key freeDeliveryTresholdPence") {
		t.Fatalf("got %v", err)
	}
}
