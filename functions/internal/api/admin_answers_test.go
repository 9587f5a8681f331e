package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestAdminAnswersKeepTheContract reads every struct of admin_answers.go, the back
// office's answers, and holds them to the wire contract: every field has a snake_case
// JSON key, no time.Time travels (times are Unix ms in an int64), and a field whose Go
// name says pence has a key that ends _pence.
func TestAdminAnswersKeepTheContract(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "admin_answers.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	structs := 0
	ast.Inspect(f, func(n ast.Node) bool {
		spec, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		st, ok := spec.Type.(*ast.StructType)
		if !ok {
			return false
		}
		structs++
		for _, field := range st.Fields.List {
			if len(field.Names) == 0 {
				continue // an embedded answer (the buyer's order), held by its own file
			}
			name := field.Names[0].Name
			if sel, ok := field.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Time" {
				t.Errorf("%s.%s is a time.Time: send Unix ms", spec.Name.Name, name)
			}
			if field.Tag == nil {
				t.Errorf("%s.%s has no JSON key", spec.Name.Name, name)
				continue
			}
			tag, _ := strconv.Unquote(field.Tag.Value)
			key, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
			if !snake.MatchString(key) {
				t.Errorf("%s.%s: key %q is not snake_case", spec.Name.Name, name, key)
			}
			if strings.Contains(name, "Pence") && !strings.HasSuffix(key, "_pence") {
				t.Errorf("%s.%s holds pence: key %q must end _pence", spec.Name.Name, name, key)
			}
		}
		return false
	})
	if structs < 10 {
		t.Fatalf("read %d answer types in admin_answers.go; it holds the back office's answers", structs)
	}
}
